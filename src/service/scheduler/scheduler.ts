// The match plane of `serve`: on every tick, seat every idle active bot
// (tables.ts), play each table over the runner against the bots' registered
// URLs, rate completed matches, and stream public events to live viewers.
// A table with two bots of one owner (possible under --same-owner avoid when
// the pool leaves no choice) is played but not rated, and its record says
// `rated: false`: one owner's bots could otherwise feed one of them rating.
// A match never throws out of here: whatever happens, it ends recorded as
// completed or aborted, and a slow or hostile bot delays only its own table.
import { retryWhileUnavailable } from './store-retry';
import type { KeyObject } from 'node:crypto';
import { RULES_VERSION, seatOrder } from '../../../engine/index';
import type { PublicView } from '../../../engine/index';
import { displayRating, initialRating, rate } from '../../arena/ratings';
import { newTournamentSeed } from '../../arena/seeds';
import type { MatchEvent, MatchRecord } from '../../protocol/index';
import { runMatch, withoutNotes, type MatchEntrant, type MatchResult } from '../../runner/index';
import type { LiveChannel, LiveHub } from '../live/hub';
import { newId } from '../store/ids';
import type { BotRecord, RatingRecord, Store } from '../store/types';
import type { ServiceLog } from '../ops/log-format';
import { ownerDataOf } from './owner-data';
import { CHALLENGE_FILLER, takeChallenges, type ChallengeTable } from './challenges';
import type { OwnerEventSink } from '../owner-events';
import { ownerEventsOf } from './owner-events-of';
import { DEFAULT_SAME_OWNER, formTables, TABLE_SIZE, type SameOwnerRule } from './tables';

/** What the scheduler reports to /metrics. */
export interface SchedulerMetrics {
  matchStarted(): void;
  matchEnded(status: 'completed' | 'aborted', result: MatchResult | null): void;
}

export interface SchedulerOptions {
  store: Store;
  hub: LiveHub;
  platformKey: KeyObject;
  /** The URL check at every connect (production rules), returning the pinned address. */
  gate?: (url: string) => Promise<{ address: string; family: 4 | 6 } | void>;
  tickMs: number;
  /** The wall clock: a match still running after this long is aborted (spec: 10 minutes). */
  matchTimeoutMs: number;
  /**
   * Matches running at once, at most (default DEFAULT_MAX_MATCHES). Each holds a socket per
   * seat and its replay in memory; without a bound, enough registered bots would exhaust the
   * process's file descriptors (and the API with them) or its memory. Past it, the seats are
   * shared among owners (longestWaiting); the rest wait for a later tick.
   */
  maxMatches?: number;
  /** Two bots of one owner at a table: allowed and rated, avoided (unrated when it happens), or never formed (default DEFAULT_SAME_OWNER). */
  sameOwner?: SameOwnerRule;
  deadlineMs?: number;
  timeBankMs?: number;
  /** Pacing for spectators (serve --min-turn-ms): each turn of a match takes at least this long (RunMatchOptions.minTurnMs). */
  minTurnMs?: number;
  log: ServiceLog;
  metrics?: SchedulerMetrics;
  /** Told of what owners may hear of (webhooks): match.completed, bot.struck_out, bot.unreachable. */
  onOwnerEvent?: OwnerEventSink;
  /** Tests may fix these; production uses 128 random bits per seed. */
  newSeed?: () => string;
  newMatchId?: () => string;
}

interface Begun {
  matchId: string;
  seed: string;
  startedAt: string;
  running: MatchRecord;
  channel: LiveChannel;
  /** Set when the service itself ends the match (its record could not be written). */
  abortReason: string | null;
}

interface Running {
  controller: AbortController;
  botIds: string[];
  done: Promise<void>;
}

const GAME = 'pioneers' as const;
export const DEFAULT_MAX_MATCHES = 100;


export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<string[]> | null = null;
  private stopping = false;
  private readonly running = new Map<string, Running>();
  /** Ticks so far, and the tick each bot was last seated at (who waited longest goes first when seats are short). */
  private ticks = 0;
  private readonly seatedAt = new Map<string, number>();

  constructor(private readonly opts: SchedulerOptions) {}

  /** Matches the store still has as running belong to a process that died: abort them, with no rating change. */
  async recover(): Promise<string[]> {
    const aborted: string[] = [];
    for (;;) {
      const page = await this.opts.store.listMatches({ status: 'running', limit: 100 });
      const stale = page.matches.filter((m) => !this.running.has(m.id));
      if (stale.length === 0) break;
      for (const m of stale) {
        await this.opts.store.putMatch({ ...m, status: 'aborted', endedAt: new Date().toISOString(), players: m.players.map((p) => ({ ...p, placement: null, ratingDelta: null })) });
        this.opts.log({ event: 'match.abort', matchId: m.id, reason: 'server restarted while it ran' });
        aborted.push(m.id);
      }
    }
    return aborted;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.opts.tickMs);
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** One matchmaking pass; returns the ids of the matches it started. Overlapping calls share one pass. */
  tick(): Promise<string[]> {
    if (this.stopping) return Promise.resolve([]);
    this.ticking ??= this.seatIdleBots().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  /** Stops ticking, aborts running matches, and waits until each is recorded. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
    for (const r of this.running.values()) r.controller.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private async seatIdleBots(): Promise<string[]> {
    const { store } = this.opts;
    let bots: BotRecord[];
    let ratings: RatingRecord[];
    try {
      [bots, ratings] = await Promise.all([store.listActiveBots(GAME), store.listRatings(GAME)]);
    } catch (err) {
      this.opts.log({ event: 'tick.error', error: String(err) });
      return [];
    }
    const busy = new Set<string>();
    for (const r of this.running.values()) for (const id of r.botIds) busy.add(id);
    const tick = ++this.ticks;
    const room = Math.max(0, (this.opts.maxMatches ?? DEFAULT_MAX_MATCHES) - this.running.size);
    // Challenges first: their bots leave this tick's pool (challenges.ts).
    const idle = new Map(bots.filter((b) => !busy.has(b.id)).map((b) => [b.id, b]));
    const challenged = this.stopping ? [] : await this.takeChallenges(idle, room);
    const seats = Math.max(0, room - challenged.length) * TABLE_SIZE;
    const byId = new Map(this.longestWaiting([...idle.values()], seats).map((b) => [b.id, b]));
    const shown = new Map(ratings.map((r) => [r.botId, displayRating(r)]));
    const rule = this.opts.sameOwner ?? DEFAULT_SAME_OWNER;
    const tables = formTables([...byId.values()].map((b) => ({ botId: b.id, rating: shown.get(b.id) ?? displayRating(initialRating()), ownerId: b.ownerId })), rule);
    for (const table of tables) for (const id of table.botIds) this.seatedAt.set(id, tick);
    for (const t of challenged) for (const b of t.bots) this.seatedAt.set(b.id, tick);
    // Only active bots keep a place in the queue (removed ones would pile up).
    const active = new Set(bots.map((b) => b.id));
    for (const id of this.seatedAt.keys()) if (!active.has(id)) this.seatedAt.delete(id);
    // Every table starts now; their running records are written meanwhile (the
    // store writes one at a time, so waiting for each before the next would
    // start the last of 200 tables seconds late).
    const begun = this.stopping ? [] : [
      ...challenged.map((t) => this.startMatch(t.bots, false, t)),
      ...tables.map((table) => this.startMatch(table.botIds.map((id) => byId.get(id)!), !(table.sameOwner && rule !== 'allow'))),
    ];
    const stored = await Promise.all(begun.map(async ({ matchId, stored }) => ((await stored) ? matchId : null)));
    return stored.filter((id): id is string => id !== null);
  }

  private async takeChallenges(idle: Map<string, BotRecord>, room: number): Promise<ChallengeTable[]> {
    try {
      return await takeChallenges({
        store: this.opts.store, idle, room, now: Date.now(), log: this.opts.log,
        newMatchId: () => (this.opts.newMatchId ? this.opts.newMatchId() : newId('m')),
      });
    } catch (err) {
      // The store away: challenges wait for a later tick, matchmaking goes on.
      this.opts.log({ event: 'tick.error', error: `challenges: ${String(err)}` });
      return [];
    }
  }

  /**
   * At most `seats` of the idle bots, shared out among their owners: round by
   * round, each owner's longest-waiting bot (seated longest ago, never seated
   * first of all, then by id), owners in the order of those bots' waits. So one
   * account's hundred bots cannot keep another account's out of a full server.
   */
  private longestWaiting(idle: BotRecord[], seats: number): BotRecord[] {
    if (idle.length <= seats) return idle;
    const at = (b: BotRecord) => this.seatedAt.get(b.id) ?? 0;
    const byWait = [...idle].sort((a, b) => at(a) - at(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // Each owner's bots, longest-waiting first; owners in the order their first bot appears.
    const queues = new Map<string, BotRecord[]>();
    for (const b of byWait) {
      const queue = queues.get(b.ownerId);
      if (queue) queue.push(b);
      else queues.set(b.ownerId, [b]);
    }
    const picked: BotRecord[] = [];
    for (let round = 0; picked.length < seats; round++) {
      for (const queue of queues.values()) {
        if (round >= queue.length) continue;
        picked.push(queue[round]);
        if (picked.length === seats) break;
      }
    }
    return picked;
  }

  /**
   * Starts a match at once and writes its running record meanwhile; `stored`
   * says whether that write worked (if not, the match is aborted). The
   * result of a match is written only after its running record.
   */
  private startMatch(bots: BotRecord[], rated: boolean, challenge?: ChallengeTable): { matchId: string; stored: Promise<boolean> } {
    const matchId = challenge?.matchId ?? (this.opts.newMatchId ? this.opts.newMatchId() : newId('m'));
    const controller = new AbortController();
    const running: Running = { controller, botIds: bots.map((b) => b.id), done: Promise.resolve() };
    this.running.set(matchId, running);
    const begun = this.beginMatch(matchId, bots, rated, challenge);
    const stored = this.opts.store.putMatch(begun.running).then(
      () => {
        this.opts.log({ event: 'match.start', matchId, bots: begun.running.players.map((p) => p.botId) });
        return true;
      },
      (err: unknown) => {
        this.opts.log({ event: 'match.error', matchId, error: `cannot record the match: ${err instanceof Error ? err.message : String(err)}` });
        begun.abortReason = 'its running record could not be written';
        controller.abort();
        return false;
      },
    );
    running.done = this.playMatch(begun, stored, bots, controller.signal, challenge?.fillers ?? 0)
      .catch((err) => this.opts.log({ event: 'match.error', matchId, error: err instanceof Error ? err.message : String(err) }))
      .finally(() => this.running.delete(matchId));
    return { matchId, stored };
  }

  private beginMatch(matchId: string, bots: BotRecord[], rated: boolean, challenge?: ChallengeTable): Begun {
    // 128 fresh random bits per match, never derived from another match's seed.
    const seed = (this.opts.newSeed ?? newTournamentSeed)();
    const startedAt = new Date().toISOString();
    // A challenge of 2 bots gets built-in seats after them (the entrants' order in playMatch).
    const seated = [...bots.map((b) => ({ botId: b.id, botName: b.name })), ...Array.from({ length: challenge?.fillers ?? 0 }, () => CHALLENGE_FILLER)];
    const order = seatOrder(seed, seated.length);
    const players = order.map((i, seat) => ({ seat, botId: seated[i].botId, botName: seated[i].botName, placement: null, ratingDelta: null }));
    const running: MatchRecord = {
      id: matchId, game: GAME, status: 'running', players, startedAt, endedAt: null,
      // Stored, never served while running (the routes withhold seed and replay).
      seed, replay: [], rulesVersion: RULES_VERSION, seatCount: bots.length, vp: null,
      // Absent means rated: only the exception is written.
      ...(rated ? {} : { rated: false }),
      ...(challenge ? { challenge: challenge.challenge.id } : {}),
    };
    // The channel before the record: a viewer who finds the match in the store must find its stream too.
    const channel = this.opts.hub.open({ id: matchId, game: GAME, status: 'running', players, startedAt });
    this.opts.metrics?.matchStarted();
    return { matchId, seed, startedAt, running, channel, abortReason: null };
  }

  private async playMatch(begun: Begun, stored: Promise<boolean>, bots: BotRecord[], signal: AbortSignal, fillers = 0): Promise<void> {
    const { matchId, seed, startedAt, running, channel } = begun;
    const { store, hub, log } = this.opts;
    const entrants: MatchEntrant[] = [
      ...bots.map((b): MatchEntrant => ({ botId: b.id, botName: b.name, source: { type: 'ws', url: b.url } })),
      ...Array.from({ length: fillers }, (): MatchEntrant => ({ botId: CHALLENGE_FILLER.botId, botName: CHALLENGE_FILLER.botName, source: { type: 'builtin', bot: CHALLENGE_FILLER.bot } })),
    ];
    let batch: MatchEvent[] = [];
    let result: MatchResult | null = null;
    /** The result as the runner gave it, notes included: for the owners' private data only. */
    let full: MatchResult | null = null;
    try {
      result = await runMatch({
        matchId, seed, entrants, platformKey: this.opts.platformKey,
        deadlineMs: this.opts.deadlineMs, timeBankMs: this.opts.timeBankMs,
        wallClockMs: this.opts.matchTimeoutMs, minTurnMs: this.opts.minTurnMs, signal, gate: this.opts.gate,
        onEvent: (ev) => batch.push(ev),
        onFlush: (view: () => PublicView) => {
          const events = batch;
          batch = [];
          channel.publish(events, view);
        },
      });
      full = result;
      // Bots' notes are for their owners: the stored (public) record has none.
      result = { ...result, match: withoutNotes(result.match) };
    } catch (err) {
      log({ event: 'match.error', matchId, error: err instanceof Error ? err.message : String(err) });
    }
    const endedAt = new Date().toISOString();
    const wasStored = await stored;
    // What the running record said of the match that the runner's record does not: unrated, for a challenge.
    const unrated = { ...(running.rated === false ? { rated: false } : {}), ...(running.challenge ? { challenge: running.challenge } : {}) };
    if (wasStored && result && result.match.status === 'completed' && result.outcome) {
      let record: MatchRecord | null = null;
      try {
        const finished = { ...result.match, ...unrated };
        record = await retryWhileUnavailable(() => this.rateAndStore(finished), async () => {
          const m = await store.getMatch(matchId);
          return m?.status === 'completed' ? m : null;
        });
      } catch (err) {
        log({ event: 'match.error', matchId, error: `cannot record the result: ${err instanceof Error ? err.message : String(err)}` });
      }
      if (record) {
        hub.close(matchId, { status: 'completed', players: record.players, endedAt: record.endedAt ?? endedAt });
        this.opts.metrics?.matchEnded('completed', result);
        log({
          event: 'match.end', matchId, reason: result.outcome.reason,
          placements: record.players.map((p) => ({ botId: p.botId, placement: p.placement })),
          durationMs: Date.parse(record.endedAt ?? endedAt) - Date.parse(startedAt),
          ...unrated,
        });
        // After viewers and the log heard of the end: a write to a database that is away retries for a while.
        await this.keepOwnerData(matchId, full, record.endedAt ?? endedAt);
        this.tellOwners(full, record, bots);
        return;
      }
      begun.abortReason = 'its result could not be recorded';
    }
    const aborted: MatchRecord = result
      ? { ...result.match, ...unrated, status: 'aborted', players: result.match.players.map((p) => ({ ...p, placement: null, ratingDelta: null })) }
      : { ...running, status: 'aborted', endedAt };
    try {
      if (wasStored) {
        await retryWhileUnavailable(() => store.putMatch(aborted), async () => ((await store.getMatch(matchId))?.status === 'aborted' ? undefined : null));
      }
    } finally {
      // Viewers, metrics and the log hear of the end even when the store failed.
      hub.close(matchId, { status: 'aborted', players: aborted.players, endedAt: aborted.endedAt ?? endedAt });
      this.opts.metrics?.matchEnded('aborted', result);
      const reason = begun.abortReason ?? (signal.aborted ? 'server stopping' : 'wall clock or error');
      log({ event: 'match.abort', matchId, reason, durationMs: Date.parse(endedAt) - Date.parse(startedAt) });
    }
    if (wasStored) await this.keepOwnerData(matchId, full, aborted.endedAt ?? endedAt);
    if (wasStored) this.tellOwners(full, aborted, bots);
  }

  /** The owners' events of a final match; a sink that throws loses only its events. */
  private tellOwners(full: MatchResult | null, record: MatchRecord, bots: BotRecord[]): void {
    const sink = this.opts.onOwnerEvent;
    if (!sink) return;
    for (const event of ownerEventsOf(full, record, bots)) {
      try {
        sink(event);
      } catch (err) {
        this.opts.log({ event: 'match.error', matchId: record.id, error: `an owner event was lost: ${err instanceof Error ? err.message : String(err)}` });
      }
    }
  }

  /**
   * Each seated bot's notes and strikes, kept privately for its owner once the match is final.
   * A failure is logged and loses only that data: the match and its ratings stand.
   */
  private async keepOwnerData(matchId: string, full: MatchResult | null, endedAt: string): Promise<void> {
    if (!full) return;
    await Promise.all(
      [...ownerDataOf(full, endedAt)].map(async ([botId, data]) => {
        try {
          // First write wins, so a retry after a write that landed changes nothing.
          await retryWhileUnavailable(() => this.opts.store.putOwnerMatchData(matchId, botId, data), async () => null);
        } catch (err) {
          this.opts.log({ event: 'match.error', matchId, error: `cannot keep a bot's private match data: ${err instanceof Error ? err.message : String(err)}` });
        }
      }),
    );
  }

  /** Rates a completed match (openskill Weng-Lin, ranks = placements) and stores match and ratings in one step; an unrated one changes no rating. */
  private async rateAndStore(match: MatchRecord): Promise<MatchRecord> {
    const { store } = this.opts;
    if (match.rated === false) {
      const record: MatchRecord = { ...match, players: match.players.map((p) => ({ ...p, ratingDelta: null })) };
      await store.completeMatch(record, []);
      return record;
    }
    const before = await Promise.all(match.players.map(async (p) => (await store.getRating(p.botId, GAME)) ?? { botId: p.botId, game: GAME, ...initialRating(), gamesPlayed: 0 }));
    const rated = rate(before.map((r) => ({ id: r.botId, mu: r.mu, sigma: r.sigma })), match.players.map((p) => p.placement ?? match.players.length));
    const ratings: RatingRecord[] = rated.map((r, i) => ({ botId: r.id, game: GAME, mu: r.mu, sigma: r.sigma, gamesPlayed: before[i].gamesPlayed + 1 }));
    const record: MatchRecord = { ...match, players: match.players.map((p, i) => ({ ...p, ratingDelta: rated[i].ratingDelta })) };
    await store.completeMatch(record, ratings);
    return record;
  }
}
