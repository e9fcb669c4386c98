// The match plane of `serve`: on every tick, seat every idle active bot
// (tables.ts) and play each table (match-player.ts: the runner against the
// bots' registered URLs, rating, live events to viewers). A table with two
// bots of one owner (possible under --same-owner avoid when the pool leaves
// no choice) is played but not rated, and its record says `rated: false`:
// one owner's bots could otherwise feed one of them rating.
// A match never throws out of here: whatever happens, it ends recorded as
// completed or aborted, and a slow or hostile bot delays only its own table.
import { displayRating, initialRating } from '../../arena/ratings';
import { newId } from '../store/ids';
import type { MatchRecord } from '../../protocol/index';
import type { BotRecord, RatingRecord } from '../store/types';
import { takeChallenges, type ChallengeTable } from './challenges';
import { GAME, MatchPlayer, type MatchPlayerOptions } from './match-player';
import { Qualifier } from './qualify';
import { DEFAULT_SAME_OWNER, formTables, TABLE_SIZE, type SameOwnerRule } from './tables';
import type { BuiltinBotName } from '../../../engine/bots/names';

export { GAME, type SchedulerMetrics } from './match-player';
export type { ServiceLog } from '../ops/log-format';

export interface SchedulerOptions extends MatchPlayerOptions {
  tickMs: number;
  /**
   * Matches running at once, at most (default DEFAULT_MAX_MATCHES). Each holds a socket per
   * seat and its replay in memory; without a bound, enough registered bots would exhaust the
   * process's file descriptors (and the API with them) or its memory. Past it, the seats are
   * shared among owners (longestWaiting); the rest wait for a later tick.
   */
  maxMatches?: number;
  /**
   * Two bots of one owner at a table: allowed and rated, avoided (unrated when it happens), or never formed (default
   * DEFAULT_SAME_OWNER).
   */
  sameOwner?: SameOwnerRule;
  /**
   * Qualification (qualify.ts): on (default) plays each new version a qualifier against these built-ins; off lets
   * waiting bots in unplayed.
   */
  qualify?: { enabled: boolean; opponents?: readonly BuiltinBotName[] };
  /** Tests may fix it; production uses a new random id per match. */
  newMatchId?: () => string;
  /**
   * Where seated tables go (serve --role scheduler: the job queue, src/service/queue). Without
   * one the scheduler plays them itself (--role all), and its own memory knows who is busy.
   */
  dispatch?: MatchDispatch;
}

/** Matches handed to other processes to play: the busy bots and the cap must then come from the database. */
export interface MatchDispatch {
  /**
   * The bots seated in matches not yet ended anywhere, and how many such matches (after ending those whose player is
   * gone).
   */
  busy(): Promise<{ botIds: Set<string>; running: number }>;
  /**
   * Records the running match and hands it over, in one step; false (logged) when that failed and nothing was handed
   * over.
   */
  start(running: MatchRecord): Promise<boolean>;
}

interface Running {
  controller: AbortController;
  botIds: string[];
  done: Promise<void>;
}

export const DEFAULT_MAX_MATCHES = 100;

export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<string[]> | null = null;
  private stopping = false;
  private readonly running = new Map<string, Running>();
  /** Ticks so far, and the tick each bot was last seated at (who waited longest goes first when seats are short). */
  private ticks = 0;
  private readonly seatedAt = new Map<string, number>();

  private readonly player: MatchPlayer;
  private readonly qualifier: Qualifier;

  constructor(private readonly opts: SchedulerOptions) {
    this.player = new MatchPlayer(opts);
    this.qualifier = new Qualifier({
      store: opts.store,
      hub: opts.hub,
      platformKey: opts.platformKey,
      gate: opts.gate,
      enabled: opts.qualify?.enabled ?? true,
      opponents: opts.qualify?.opponents,
      matchTimeoutMs: opts.matchTimeoutMs,
      deadlineMs: opts.deadlineMs,
      timeBankMs: opts.timeBankMs,
      log: opts.log,
      onOwnerEvent: opts.onOwnerEvent,
      newSeed: opts.newSeed,
      newMatchId: opts.newMatchId,
    });
  }

  /** Matches the store still has as running belong to a process that died: abort them, with no rating change. */
  async recover(): Promise<string[]> {
    const aborted: string[] = [];
    for (;;) {
      const page = await this.opts.store.listMatches({ status: 'running', limit: 100 });
      const stale = page.matches.filter((m) => !this.running.has(m.id));
      if (stale.length === 0) break;
      for (const m of stale) {
        await this.opts.store.putMatch({
          ...m,
          status: 'aborted',
          endedAt: new Date().toISOString(),
          players: m.players.map((p) => ({ ...p, placement: null, ratingDelta: null })),
        });
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

  /** Matches running now, qualifiers included. */
  get runningCount(): number {
    return this.running.size + this.qualifier.runningCount;
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
    await Promise.all([...this.running.values()].map((r) => r.done).concat(this.qualifier.stop()));
  }

  private async seatIdleBots(): Promise<string[]> {
    const { store } = this.opts;
    // Qualifiers first: with qualification off, the bots it lets in are seated in this same tick.
    const inMatches = new Set<string>();
    for (const r of this.running.values()) for (const id of r.botIds) inMatches.add(id);
    const qualifiers = await this.qualifier.tick(inMatches, this.stopping);
    let bots: BotRecord[];
    let ratings: RatingRecord[];
    try {
      [bots, ratings] = await Promise.all([store.listActiveBots(GAME), store.listRatings(GAME)]);
    } catch (err) {
      this.opts.log({ event: 'tick.error', error: String(err) });
      return [];
    }
    let busy = new Set<string>(this.qualifier.busyBots);
    for (const r of this.running.values()) for (const id of r.botIds) busy.add(id);
    let runningNow = this.running.size;
    if (this.opts.dispatch) {
      // Workers play the matches: who is busy, and how many run, is the database's to say (cluster-wide cap).
      try {
        ({ botIds: busy, running: runningNow } = await this.opts.dispatch.busy());
      } catch (err) {
        this.opts.log({ event: 'tick.error', error: String(err) });
        return [];
      }
    }
    const tick = ++this.ticks;
    const room = Math.max(0, (this.opts.maxMatches ?? DEFAULT_MAX_MATCHES) - runningNow);
    // Challenges first: their bots leave this tick's pool (challenges.ts).
    const idle = new Map(bots.filter((b) => !busy.has(b.id)).map((b) => [b.id, b]));
    const challenged = this.stopping ? [] : await this.takeChallenges(idle, room);
    const seats = Math.max(0, room - challenged.length) * TABLE_SIZE;
    const byId = new Map(this.longestWaiting([...idle.values()], seats).map((b) => [b.id, b]));
    const shown = new Map(ratings.map((r) => [r.botId, displayRating(r)]));
    const rule = this.opts.sameOwner ?? DEFAULT_SAME_OWNER;
    const tables = formTables(
      [...byId.values()].map((b) => ({
        botId: b.id,
        rating: shown.get(b.id) ?? displayRating(initialRating()),
        ownerId: b.ownerId,
      })),
      rule,
    );
    for (const table of tables) for (const id of table.botIds) this.seatedAt.set(id, tick);
    for (const t of challenged) for (const b of t.bots) this.seatedAt.set(b.id, tick);
    // Only active bots keep a place in the queue (removed ones would pile up).
    const active = new Set(bots.map((b) => b.id));
    for (const id of this.seatedAt.keys()) if (!active.has(id)) this.seatedAt.delete(id);
    // Every table starts now; their running records are written meanwhile (the
    // store writes one at a time, so waiting for each before the next would
    // start the last of 200 tables seconds late).
    const begun = this.stopping
      ? []
      : [
          ...challenged.map((t) => this.startMatch(t.bots, false, t)),
          ...tables.map((table) =>
            this.startMatch(
              table.botIds.map((id) => byId.get(id)!),
              !(table.sameOwner && rule !== 'allow'),
            ),
          ),
        ];
    const stored = await Promise.all(begun.map(async ({ matchId, stored }) => ((await stored) ? matchId : null)));
    return [...qualifiers, ...stored.filter((id): id is string => id !== null)];
  }

  private async takeChallenges(idle: Map<string, BotRecord>, room: number): Promise<ChallengeTable[]> {
    try {
      return await takeChallenges({
        store: this.opts.store,
        idle,
        room,
        now: Date.now(),
        log: this.opts.log,
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
  private startMatch(
    bots: BotRecord[],
    rated: boolean,
    challenge?: ChallengeTable,
  ): { matchId: string; stored: Promise<boolean> } {
    const matchId = challenge?.matchId ?? (this.opts.newMatchId ? this.opts.newMatchId() : newId('m'));
    if (this.opts.dispatch) {
      const running = this.player.prepare(matchId, bots, rated, challenge);
      const stored = this.opts.dispatch.start(running).then((ok) => {
        if (ok) this.opts.log({ event: 'match.queued', matchId, bots: running.players.map((p) => p.botId) });
        return ok;
      });
      return { matchId, stored };
    }
    const controller = new AbortController();
    const running: Running = { controller, botIds: bots.map((b) => b.id), done: Promise.resolve() };
    this.running.set(matchId, running);
    const begun = this.player.begin(matchId, bots, rated, challenge);
    const stored = this.opts.store.putMatch(begun.running).then(
      () => {
        this.opts.log({ event: 'match.start', matchId, bots: begun.running.players.map((p) => p.botId) });
        return true;
      },
      (err: unknown) => {
        this.opts.log({
          event: 'match.error',
          matchId,
          error: `cannot record the match: ${err instanceof Error ? err.message : String(err)}`,
        });
        begun.abortReason = 'its running record could not be written';
        controller.abort();
        return false;
      },
    );
    running.done = this.player
      .play(begun, stored, bots, controller.signal)
      .catch((err) =>
        this.opts.log({ event: 'match.error', matchId, error: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => this.running.delete(matchId));
    return { matchId, stored };
  }
}
