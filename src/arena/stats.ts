// Per-bot tournament statistics, folded in one finished game at a time.
import type { StrikeReason } from '../../engine/index';
import { seededRandom } from '../../engine';

/**
 * Latency samples kept per bot. Up to this many every sample is kept (exact
 * percentiles); beyond it a uniform reservoir sample, so a 100,000-game run
 * does not hold tens of millions of numbers.
 */
export const LATENCY_SAMPLE_CAP = 20_000;

export const STRIKE_REASONS: readonly StrikeReason[] = ['late', 'malformed', 'oversize', 'dropped', 'illegal'];

export type StrikeCounts = Record<StrikeReason, number>;

export function noStrikes(): StrikeCounts {
  return { late: 0, malformed: 0, oversize: 0, dropped: 0, illegal: 0 };
}

/** One seat of one finished game, as the arena keeps it. */
export interface SeatResult {
  seat: number;
  botId: string;
  /** Null when the game was aborted. */
  placement: number | null;
  vp: number | null;
  won: boolean;
  strikes: StrikeCounts;
  resigned: boolean;
  latenciesMs: readonly number[];
  /** The seat's slowest decision (ms, answered or struck); absent counts as 0. */
  slowestMs?: number;
}

export interface GameResult {
  /** 0-based position in the tournament (game number - 1). */
  index: number;
  matchId: string;
  seed: string;
  status: 'completed' | 'aborted';
  /** How the game ended: a seat reached 10 VP, the turn cap, or it was aborted. */
  ended: 'win' | 'cap' | 'aborted';
  /** Turns played (null when aborted). */
  turns: number | null;
  seats: SeatResult[];
  durationMs: number;
}

export interface BotTally {
  botId: string;
  /** Completed games (aborted games have no placement and are not counted). */
  games: number;
  aborted: number;
  wins: number;
  placementSum: number;
  vpSum: number;
  strikes: StrikeCounts;
  resigned: number;
  /** All answer latencies, or a uniform sample of LATENCY_SAMPLE_CAP of them. */
  latenciesMs: number[];
  /** How many latencies were seen in total. */
  latencyCount: number;
  /** The slowest single decision over all games (ms). */
  slowestMs: number;
}

export class Tallies {
  private readonly byBot = new Map<string, BotTally>();
  private readonly rng = seededRandom('arena', 'latency-reservoir');

  constructor(
    botIds: readonly string[],
    private readonly sampleCap = LATENCY_SAMPLE_CAP,
  ) {
    for (const botId of botIds) {
      this.byBot.set(botId, {
        botId,
        games: 0,
        aborted: 0,
        wins: 0,
        placementSum: 0,
        vpSum: 0,
        strikes: noStrikes(),
        resigned: 0,
        latenciesMs: [],
        latencyCount: 0,
        slowestMs: 0,
      });
    }
  }

  private sample(t: BotTally, ms: number): void {
    t.latencyCount++;
    if (t.latenciesMs.length < this.sampleCap) {
      t.latenciesMs.push(ms);
      return;
    }
    // Reservoir sampling (Algorithm R): every sample seen so far is kept with equal probability.
    const j = Math.floor(this.rng() * t.latencyCount);
    if (j < this.sampleCap) t.latenciesMs[j] = ms;
  }

  add(game: GameResult): void {
    for (const s of game.seats) {
      const t = this.byBot.get(s.botId);
      if (!t) throw new Error(`game ${game.matchId} names unknown bot ${s.botId}`);
      // Strikes and latencies are real even in an aborted game; placements are not.
      for (const r of STRIKE_REASONS) t.strikes[r] += s.strikes[r];
      if (s.resigned) t.resigned++;
      for (const ms of s.latenciesMs) this.sample(t, ms);
      if ((s.slowestMs ?? 0) > t.slowestMs) t.slowestMs = s.slowestMs!;
      if (game.status === 'aborted' || s.placement === null) {
        t.aborted++;
        continue;
      }
      t.games++;
      if (s.won) t.wins++;
      t.placementSum += s.placement;
      t.vpSum += s.vp ?? 0;
    }
  }

  get(botId: string): BotTally {
    const t = this.byBot.get(botId);
    if (!t) throw new Error(`unknown bot ${botId}`);
    return t;
  }

  all(): BotTally[] {
    return [...this.byBot.values()];
  }
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; null when there are none. */
export function percentile(samples: readonly number[], p: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/**
 * Percentile of answer times over every decision asked, late ones included:
 * `answered` decisions (of which `samples` is all or a uniform sample) and
 * `late` decisions that got no answer in time. A late decision took longer
 * than any answered one, so it ranks above them all; returns 'late' when the
 * percentile falls on one. Null when nothing was asked.
 */
export function latencyPercentile(
  samples: readonly number[],
  answered: number,
  late: number,
  p: number,
): number | 'late' | null {
  const total = answered + late;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  if (rank > answered || samples.length === 0) return 'late';
  // The same rank among the answered decisions, scaled to the sample held
  // (integer arithmetic, so a full sample gives the exact nearest rank).
  const sorted = [...samples].sort((a, b) => a - b);
  const inSample = Math.ceil((rank * sorted.length) / answered);
  return sorted[Math.min(sorted.length - 1, Math.max(0, inSample - 1))];
}

export function totalStrikes(s: StrikeCounts): number {
  return STRIKE_REASONS.reduce((n, r) => n + s[r], 0);
}
