// Playing one match, start to record: its seed and seats, the runner against
// the bots' registered URLs, live events to viewers, and its end written as
// completed and rated (ratings and match in one step) or aborted with no
// rating change, then each owner's private data. Used in process by `serve
// --role all` (the scheduler plays what it seats) and by `--role worker`
// (matches taken from the job queue). A table with two bots of one owner is
// played but not rated (`rated: false`).
import type { KeyObject } from 'node:crypto';
import { RULES_VERSION, seatOrder } from '../../../engine/index';
import type { PublicView } from '../../../engine/index';
import { initialRating, rate } from '../../arena/ratings';
import { newTournamentSeed } from '../../arena/seeds';
import type { MatchEvent, MatchRecord } from '../../protocol/index';
import { runMatch, withoutNotes, type MatchEntrant, type MatchResult } from '../../runner/index';
import type { LiveHub, LiveMatchHeader } from '../live/hub';
import type { ServiceLog } from '../ops/log-format';
import type { OwnerEventSink } from '../owner-events';
import { currentVersion } from '../store/bot-versions';
import type { BotRecord, RatingRecord, Store } from '../store/types';
import { CHALLENGE_FILLER, type ChallengeTable } from './challenges';
import { ownerDataOf } from './owner-data';
import { ownerEventsOf } from './owner-events-of';
import { retryWhileUnavailable } from './store-retry';
import { versionGate } from './version-gate';

/** What the match plane reports to /metrics. */
export interface SchedulerMetrics {
  matchStarted(): void;
  matchEnded(status: 'completed' | 'aborted', result: MatchResult | null): void;
}

/**
 * A match's live channel as the player uses it: events go out in rounds, with a way to read the public view after them.
 */
export interface MatchChannel {
  publish(events: readonly MatchEvent[], view: () => PublicView): void;
}

/**
 * The live hub as a match player uses it (open a channel, publish on it, close
 * it): LiveHub in one process; any hub with these three drops in (one shared
 * through the database, for workers watched through api processes).
 */
export interface MatchHub {
  open(header: LiveMatchHeader): MatchChannel;
  close(matchId: string, final: Parameters<LiveHub['close']>[1]): void;
}

export interface MatchPlayerOptions {
  store: Store;
  hub: MatchHub;
  platformKey: KeyObject;
  /** The URL check at every connect (production rules), returning the pinned address. */
  gate?: (url: string) => Promise<{ address: string; family: 4 | 6 } | void>;
  /** The wall clock: a match still running after this long is aborted (spec: 10 minutes). */
  matchTimeoutMs: number;
  deadlineMs?: number;
  timeBankMs?: number;
  /**
   * Pacing for spectators (serve --min-turn-ms): each turn of a match takes at least this long
   * (RunMatchOptions.minTurnMs).
   */
  minTurnMs?: number;
  log: ServiceLog;
  metrics?: SchedulerMetrics;
  /** What owners are told of (webhooks): match.completed, bot.struck_out, bot.unreachable; must not throw. */
  onOwnerEvent?: OwnerEventSink;
  /** Tests may fix it; production uses 128 random bits per seed. */
  newSeed?: () => string;
}

export interface Begun {
  matchId: string;
  seed: string;
  startedAt: string;
  running: MatchRecord;
  channel: MatchChannel;
  /** Set when the service itself ends the match (its record could not be written). */
  abortReason: string | null;
}

export const GAME = 'pioneers' as const;

/**
 * A match's record as it starts: the seats the seed draws over `seated` (in
 * the order the runner gets its entrants), each bot's version where it has
 * one, and `extra` (what makes it unrated, a challenge or a qualifier).
 */
export function runningRecord(
  matchId: string,
  seed: string,
  seated: ReadonlyArray<{ botId: string; botName: string; version?: number }>,
  extra: Pick<MatchRecord, 'rated' | 'challenge' | 'qualification'> = {},
): MatchRecord {
  const players = seatOrder(seed, seated.length).map((i, seat) => ({
    seat,
    botId: seated[i].botId,
    botName: seated[i].botName,
    placement: null,
    ratingDelta: null,
    ...(seated[i].version !== undefined ? { version: seated[i].version } : {}),
  }));
  return {
    id: matchId,
    game: GAME,
    status: 'running',
    players,
    startedAt: new Date().toISOString(),
    endedAt: null,
    // Stored, never served while running (the routes withhold seed and replay).
    seed,
    replay: [],
    rulesVersion: RULES_VERSION,
    seatCount: players.length,
    vp: null,
    ...extra,
  };
}

export class MatchPlayer {
  constructor(private readonly opts: MatchPlayerOptions) {}

  /** A new match's running record: a fresh seed and the seats it gives (nothing is written or opened). */
  prepare(matchId: string, bots: BotRecord[], rated: boolean, challenge?: ChallengeTable): MatchRecord {
    // 128 fresh random bits per match, never derived from another match's seed.
    const seed = (this.opts.newSeed ?? newTournamentSeed)();
    // A challenge of 2 bots gets built-in seats after them (the entrants' order in play).
    const seated = [
      ...bots.map((b) => ({ botId: b.id, botName: b.name, version: currentVersion(b) })),
      ...Array.from({ length: challenge?.fillers ?? 0 }, () => CHALLENGE_FILLER),
    ];
    return runningRecord(matchId, seed, seated, {
      // Absent means rated: only the exception is written.
      ...(rated ? {} : { rated: false }),
      ...(challenge ? { challenge: challenge.challenge.id } : {}),
    });
  }

  /**
   * Opens the live channel of a match about to be played (before its record is written: a viewer who finds the match in
   * the store must find its stream too).
   */
  open(running: MatchRecord): Begun {
    const { id: matchId, players } = running;
    // A running record always carries its seed (prepare writes it; only the routes withhold it).
    const seed = running.seed ?? '';
    const startedAt = running.startedAt ?? new Date().toISOString();
    const channel = this.opts.hub.open({ id: matchId, game: GAME, status: 'running', players, startedAt });
    this.opts.metrics?.matchStarted();
    return { matchId, seed, startedAt, running, channel, abortReason: null };
  }

  /** prepare, then open. */
  begin(matchId: string, bots: BotRecord[], rated: boolean, challenge?: ChallengeTable): Begun {
    return this.open(this.prepare(matchId, bots, rated, challenge));
  }

  /**
   * Plays a begun match to its end and records it: completed and rated, or
   * aborted with no rating change. `stored` says whether its running record
   * was written (if not, nothing more is written). Never throws for a bot's doing.
   * `bots` are the seated bots in prepare's order; the seats past them are built-in fillers.
   */
  async play(begun: Begun, stored: Promise<boolean>, bots: BotRecord[], signal: AbortSignal): Promise<void> {
    const { matchId, seed, startedAt, running, channel } = begun;
    const { store, hub, log } = this.opts;
    const fillers = Math.max(0, running.players.length - bots.length);
    const entrants: MatchEntrant[] = [
      ...bots.map((b): MatchEntrant => ({ botId: b.id, botName: b.name, source: { type: 'ws', url: b.url } })),
      ...Array.from(
        { length: fillers },
        (): MatchEntrant => ({
          botId: CHALLENGE_FILLER.botId,
          botName: CHALLENGE_FILLER.botName,
          source: { type: 'builtin', bot: CHALLENGE_FILLER.bot },
        }),
      ),
    ];
    let batch: MatchEvent[] = [];
    let result: MatchResult | null = null;
    /** The result as the runner gave it, notes included: for the owners' private data only. */
    let full: MatchResult | null = null;
    try {
      result = await runMatch({
        matchId,
        seed,
        entrants,
        platformKey: this.opts.platformKey,
        deadlineMs: this.opts.deadlineMs,
        timeBankMs: this.opts.timeBankMs,
        wallClockMs: this.opts.matchTimeoutMs,
        minTurnMs: this.opts.minTurnMs,
        signal,
        gate: versionGate(store, bots, this.opts.gate),
        onEvent: (ev) => batch.push(ev),
        onFlush: (view: () => PublicView) => {
          const events = batch;
          batch = [];
          channel.publish(events, view);
        },
      });
      full = result;
      // Bots' notes are for their owners: the stored (public) record has none.
      // The runner's record knows no versions: each seat names the version of its bot that played.
      const versions = new Map(bots.map((b) => [b.id, currentVersion(b)]));
      const match = withoutNotes(result.match);
      result = {
        ...result,
        match: { ...match, players: match.players.map((p) => ({ ...p, version: versions.get(p.botId) })) },
      };
    } catch (err) {
      log({ event: 'match.error', matchId, error: err instanceof Error ? err.message : String(err) });
    }
    const endedAt = new Date().toISOString();
    const wasStored = await stored;
    // What the running record said of the match that the runner's record does not: unrated, for a challenge.
    const unrated = {
      ...(running.rated === false ? { rated: false } : {}),
      ...(running.challenge ? { challenge: running.challenge } : {}),
    };
    if (wasStored && result && result.match.status === 'completed' && result.outcome) {
      let record: MatchRecord | null = null;
      try {
        const finished = { ...result.match, ...unrated };
        record = await retryWhileUnavailable(
          () => this.rateAndStore(finished),
          async () => {
            const m = await store.getMatch(matchId);
            return m?.status === 'completed' ? m : null;
          },
        );
      } catch (err) {
        log({
          event: 'match.error',
          matchId,
          error: `cannot record the result: ${err instanceof Error ? err.message : String(err)}`,
        });
      }
      if (record) {
        hub.close(matchId, { status: 'completed', players: record.players, endedAt: record.endedAt ?? endedAt });
        this.opts.metrics?.matchEnded('completed', result);
        log({
          event: 'match.end',
          matchId,
          reason: result.outcome.reason,
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
      ? {
          ...result.match,
          ...unrated,
          status: 'aborted',
          players: result.match.players.map((p) => ({ ...p, placement: null, ratingDelta: null })),
        }
      : { ...running, status: 'aborted', endedAt };
    try {
      if (wasStored) {
        await retryWhileUnavailable(
          () => store.putMatch(aborted),
          async () => ((await store.getMatch(matchId))?.status === 'aborted' ? undefined : null),
        );
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
        this.opts.log({
          event: 'match.error',
          matchId: record.id,
          error: `an owner event was lost: ${err instanceof Error ? err.message : String(err)}`,
        });
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
          await retryWhileUnavailable(
            () => this.opts.store.putOwnerMatchData(matchId, botId, data),
            async () => null,
          );
        } catch (err) {
          this.opts.log({
            event: 'match.error',
            matchId,
            error: `cannot keep a bot's private match data: ${err instanceof Error ? err.message : String(err)}`,
          });
        }
      }),
    );
  }

  /**
   * Rates a completed match (openskill Weng-Lin, ranks = placements) and stores match and ratings in one step; an
   * unrated one changes no rating.
   */
  private async rateAndStore(match: MatchRecord): Promise<MatchRecord> {
    const { store } = this.opts;
    if (match.rated === false) {
      const record: MatchRecord = { ...match, players: match.players.map((p) => ({ ...p, ratingDelta: null })) };
      await store.completeMatch(record, []);
      return record;
    }
    const before = await Promise.all(
      match.players.map(
        async (p) =>
          (await store.getRating(p.botId, GAME)) ?? { botId: p.botId, game: GAME, ...initialRating(), gamesPlayed: 0 },
      ),
    );
    const rated = rate(
      before.map((r) => ({ id: r.botId, mu: r.mu, sigma: r.sigma })),
      match.players.map((p) => p.placement ?? match.players.length),
    );
    const ratings: RatingRecord[] = rated.map((r, i) => ({
      botId: r.id,
      game: GAME,
      mu: r.mu,
      sigma: r.sigma,
      gamesPlayed: before[i].gamesPlayed + 1,
    }));
    const record: MatchRecord = {
      ...match,
      players: match.players.map((p, i) => ({ ...p, ratingDelta: rated[i].ratingDelta })),
    };
    await store.completeMatch(record, ratings);
    return record;
  }
}
