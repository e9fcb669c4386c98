// Runs a local tournament: draws the tables, plays matches through the runner
// with bounded concurrency, rates finished matches in game order, writes
// result files, and builds the summary. `arena play` and `arena demo` are thin
// layers over runTournament; tests call it directly.
import type { KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { seatOrder as engineSeatOrder } from '../../engine/index';
import type { MatchEvent, MatchRecord } from '../protocol/index';
import {
  runMatch,
  type MatchEntrant,
  type MatchResult,
  type RunMatchOptions,
  type StrikeRecord,
} from '../runner/index';
import type { ArenaBot } from './bots';
import { errnoReason } from '../fs/errno-text';
import { matchIdFactory, matchRecordText, writeJsonAtomic, writeTextAtomic } from './files';
import { RatingBook } from './ratings';
import { arrangeForSeats, drawDuplicateTables, drawTables, seedGroup } from './schedule';
import { gameSeed } from './seeds';
import { noStrikes, Tallies, totalStrikes, type GameResult } from './stats';
import { summarizeBots, type SummaryMatch, type SummaryMatchPlayer, type TournamentSummary } from './summary';
import { DecisionWatch, placedGame, tournamentStatistics, type PlacedGame, type Verdict } from './verdict-report';

export interface TournamentOptions {
  /** At least `seats` bots, unique ids. */
  bots: readonly ArenaBot[];
  games: number;
  seats: 3 | 4;
  /**
   * Duplicate play: games come in groups of `seats` that share one seed, the
   * table rotated by a seat each game, so every bot meets the same dice and
   * board from every seat. `games` must be a multiple of `seats`.
   */
  duplicate?: boolean;
  /**
   * Stop starting games once the first two bots' difference is decided at 95%
   * (src/arena/sequential.ts); `games` is the cap. Games already running finish
   * and count in the tables; the verdict says when it was decided.
   */
  untilDecided?: boolean;
  /** Reproduces the tournament: the tables and every game's seed (gameSeed) derive from it. */
  seed: string;
  /** Matches played at once; default 1. */
  concurrency?: number;
  deadlineMs?: number;
  /** Thinking time per WebSocket seat per match (the runner's default when absent). */
  timeBankMs?: number;
  wallClockMs?: number;
  platformKey: KeyObject;
  /** Write `<matchId>.json` per match and `summary.json` here. */
  outDir?: string;
  /** Abort: running matches end as aborted, no new ones start, the summary so far is returned. */
  signal?: AbortSignal;
  /** Called as each match finishes (any order), with the running tallies. */
  onGame?: (game: GameResult, progress: TournamentProgress) => void;
  onMatchEvent?: (matchId: string, event: MatchEvent) => void;
  /**
   * Each strike as it happens, with what the bot sent (`arena play --verbose`).
   * For the owner of the bots only: the answer can reveal a hand.
   */
  onStrike?: (strike: TournamentStrike) => void;
  /** Start time (names match ids); default now. */
  startedAt?: Date;
  /** Plays one match; default the runner. Tests and the hosted service may wrap it. */
  playMatch?: (opts: RunMatchOptions) => Promise<MatchResult>;
}

/** A strike in a tournament: which game and bot, and the runner's record of it. */
export interface TournamentStrike {
  matchId: string;
  /** 1-based game number (the match id ends in it). */
  game: number;
  botId: string;
  botName: string;
  strike: StrikeRecord;
}

export interface TournamentProgress {
  done: number;
  planned: number;
  tallies: Tallies;
}

/**
 * A result file could not be written (disk full, permissions): the tournament
 * stopped. `summary` covers the games played (it is not on disk); `written`
 * match files made it, the first games' in order.
 */
export class ResultWriteError extends Error {
  constructor(
    readonly path: string,
    cause: unknown,
    readonly summary: TournamentSummary,
    readonly written: number,
  ) {
    super(`cannot write ${path}: ${errnoReason(cause)}`, { cause });
    this.name = 'ResultWriteError';
  }
}

export async function runTournament(opts: TournamentOptions): Promise<TournamentSummary> {
  const { bots, games, seats, seed } = opts;
  const ids = new Set(bots.map((b) => b.id));
  if (ids.size !== bots.length) throw new Error('bot ids must be unique');
  const concurrency = Math.max(1, Math.min(opts.concurrency ?? 1, Math.max(1, games)));
  const deadlineMs = opts.deadlineMs ?? 5000;
  const playMatch = opts.playMatch ?? runMatch;
  const startedAt = opts.startedAt ?? new Date();
  const idOf = matchIdFactory(startedAt);
  const duplicate = opts.duplicate === true;
  const tables = duplicate
    ? drawDuplicateTables(bots.length, seats, games, seed)
    : drawTables(bots.length, seats, games, seed);
  // --until-decided watches the first two bots' games in game order.
  const watch = opts.untilDecided ? new DecisionWatch(bots[0], bots[1], duplicate ? seats : 1) : null;
  // The finished games in game order, for the intervals (placements only, no latencies).
  const inOrder: PlacedGame[] = [];
  const tallies = new Tallies(bots.map((b) => b.id));
  const ratings = new RatingBook(bots.map((b) => b.id));
  const matches: SummaryMatch[] = [];
  let rulesVersion: string | null = null;
  let done = 0;

  // One internal stop signal: the caller's abort, or a failed match (a bug,
  // never a bot: the runner absorbs bot faults) or a failed write stops the other matches too.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (opts.signal?.aborted) stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let failure: unknown = null;

  // Ratings depend on order, and games finish out of order: finished games
  // wait here until every earlier game has been rated.
  const finished = new Map<number, { result: MatchResult; game: GameResult }>();
  let nextToRate = 0;
  let writing: Promise<void> = Promise.resolve();
  // The first failed write; the files after it are not attempted (they would leave gaps in game order).
  let writeFailure: { path: string; err: unknown } | null = null;
  let written = 0;
  const rateInOrder = () => {
    while (finished.has(nextToRate)) {
      const { result, game } = finished.get(nextToRate)!;
      finished.delete(nextToRate);
      nextToRate++;
      const record = withRatingDeltas(result.match, game, ratings);
      matches.push(summaryMatch(record, game));
      const placed = placedGame(game);
      inOrder.push(placed);
      watch?.add(placed);
      if (opts.outDir) {
        const path = join(opts.outDir, `${record.id}.json`);
        // Files are written one at a time, in game order; a failed write
        // (disk full, permissions) stops the tournament, and the games played are still reported.
        writing = writing.then(async () => {
          if (writeFailure) return;
          try {
            await writeTextAtomic(path, matchRecordText(record));
            written++;
          } catch (err) {
            writeFailure = { path, err };
            stop.abort();
          }
        });
      }
    }
  };

  let next = 0;
  const worker = async () => {
    // Once decided, no new game starts (the ones running finish).
    while (next < games && !stop.signal.aborted && !watch?.decided) {
      const index = next++;
      const game = index + 1;
      // Duplicate games of one group share the group's seed.
      const mSeed = gameSeed(seed, seedGroup(index, seats, duplicate) + 1);
      const table = tables[index].map((b) => bots[b]);
      const entrants: MatchEntrant[] = arrangeForSeats(table, engineSeatOrder(mSeed, seats)).map((b) => ({
        botId: b.id,
        botName: b.name,
        source: b.source,
      }));
      const matchId = idOf(game);
      const t0 = performance.now();
      let result: MatchResult;
      try {
        result = await playMatch({
          matchId,
          seed: mSeed,
          entrants,
          platformKey: opts.platformKey,
          deadlineMs,
          timeBankMs: opts.timeBankMs,
          wallClockMs: opts.wallClockMs,
          signal: stop.signal,
          onEvent: opts.onMatchEvent ? (e) => opts.onMatchEvent!(matchId, e) : undefined,
          onStrike: opts.onStrike
            ? (strike) => {
                // The runner seats table[s] at seat s (arrangeForSeats undoes its seat order).
                const bot = table[strike.seat];
                opts.onStrike!({ matchId, game, botId: bot.id, botName: bot.name, strike });
              }
            : undefined,
        });
      } catch (err) {
        failure ??= err;
        stop.abort();
        return;
      }
      rulesVersion ??= result.match.rulesVersion;
      const g = gameResult(index, result, performance.now() - t0);
      tallies.add(g);
      done++;
      finished.set(index, { result, game: g });
      rateInOrder();
      opts.onGame?.(g, { done, planned: games, tallies });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  opts.signal?.removeEventListener('abort', onAbort);
  // A match that failed leaves a gap that would stall in-order rating: rate
  // whatever finished, still in game order.
  for (const index of [...finished.keys()].sort((a, b) => a - b)) {
    nextToRate = index;
    rateInOrder();
  }
  await writing;
  if (failure !== null) throw failure;

  const completed = matches.filter((m) => m.status === 'completed').length;
  const statistics = tournamentStatistics(bots, inOrder, seed);
  const verdict: Verdict | null = watch ? watch.verdict(statistics, inOrder.length, games) : null;
  const summary: TournamentSummary = {
    version: 1,
    rulesVersion,
    seed,
    seats,
    deadlineMs,
    gamesPlanned: games,
    games: completed,
    aborted: matches.length - completed,
    interrupted: opts.signal?.aborted === true,
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    duplicate,
    bots: summarizeBots(bots, tallies, ratings, deadlineMs, statistics.byBot),
    ci: statistics.ci,
    headToHead: statistics.headToHead,
    verdict,
    matches,
  };
  const failedWrite = writeFailure as { path: string; err: unknown } | null;
  if (failedWrite) throw new ResultWriteError(failedWrite.path, failedWrite.err, summary, written);
  if (opts.outDir) {
    const path = join(opts.outDir, 'summary.json');
    try {
      await writeJsonAtomic(path, summary);
    } catch (err) {
      throw new ResultWriteError(path, err, summary, written);
    }
  }
  return summary;
}

function gameResult(index: number, result: MatchResult, durationMs: number): GameResult {
  const { match, outcome } = result;
  const completed = match.status === 'completed' && outcome !== null;
  return {
    index,
    matchId: match.id,
    seed: match.seed ?? '',
    status: completed ? 'completed' : 'aborted',
    ended: completed ? outcome.reason : 'aborted',
    turns: completed ? outcome.turns : null,
    durationMs,
    seats: result.seats.map((s) => ({
      seat: s.seat,
      botId: s.botId,
      placement: completed ? outcome.placements[s.seat] : null,
      vp: completed ? outcome.vp[s.seat] : null,
      won: completed && outcome.winner === s.seat,
      strikes: { ...noStrikes(), ...s.strikes },
      resigned: s.resigned,
      latenciesMs: s.latenciesMs,
      slowestMs: s.slowestMs,
    })),
  };
}

/** Rates a completed match (aborted ones change nothing) and fills each player's ratingDelta. */
function withRatingDeltas(record: MatchRecord, game: GameResult, ratings: RatingBook): MatchRecord {
  if (game.status !== 'completed')
    return { ...record, players: record.players.map((p) => ({ ...p, ratingDelta: null })) };
  const deltas = ratings.applyMatch(game.seats.map((s) => ({ botId: s.botId, placement: s.placement! })));
  return { ...record, players: record.players.map((p) => ({ ...p, ratingDelta: deltas.get(p.botId) ?? null })) };
}

function summaryMatch(record: MatchRecord, game: GameResult): SummaryMatch {
  return {
    id: record.id,
    game: game.index + 1,
    seed: game.seed,
    status: game.status,
    ended: game.ended,
    turns: game.turns,
    players: record.players.map((p) => {
      const s = game.seats.find((x) => x.seat === p.seat);
      const player: SummaryMatchPlayer = {
        bot: p.botName,
        seat: p.seat,
        placement: p.placement,
        vp: s?.vp ?? null,
        ratingDelta: p.ratingDelta,
      };
      if (s && totalStrikes(s.strikes) > 0) player.strikes = { ...s.strikes };
      return player;
    }),
  };
}
