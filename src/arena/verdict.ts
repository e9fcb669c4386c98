// Confidence intervals for a tournament's results: per bot, mean placement and
// win rate; per pair of bots, how often the first placed above the second.
// Method: percentile bootstrap over seed groups. Games that share a seed (the
// rotations of `arena play --duplicate`) are resampled together, so the
// pairing that cancels the luck of the dice is kept inside every resample.
// A share seen at 0% or 100% has no spread to resample (every resample says
// the same), so there the interval is Wilson's score interval over the number
// of seed groups: a bot that won all of 20 games has not shown that it always wins.
// Pure: no I/O, no clock; the resampling PRNG is seeded by the caller (the
// tournament seed), so the same results always give the same intervals.
import { seededRandom } from '../../engine';

/** One finished game, as the statistics see it. */
export interface GameOutcome {
  /** Games with the same group (their seed) are resampled together. */
  group: string;
  /** placements[b] = 1-based placement of entrant b, or null when b did not play this game. */
  placements: ReadonlyArray<number | null>;
  /** won[b]: entrant b won by reaching 10 VP. */
  won: ReadonlyArray<boolean>;
}

/** An estimate and its confidence interval; values rounded for reports. */
export interface Interval {
  value: number;
  low: number;
  high: number;
}

export interface BotStats {
  games: number;
  /** Null without a game. */
  meanPlacement: Interval | null;
  winRate: Interval | null;
}

export interface PairStats {
  /** Entrant indexes, a < b. */
  a: number;
  b: number;
  /** Games both played. */
  games: number;
  /** Share of those games in which a placed above b; a tie counts half. Null without a game. */
  aAbove: Interval | null;
}

export interface VerdictStats {
  bots: BotStats[];
  pairs: PairStats[];
}

export const CONFIDENCE = 0.95;
export const RESAMPLES = 1000;
/**
 * Work budget of one bootstrap, in games drawn (about a second or two): very long runs get fewer resamples, never under
 * MIN_RESAMPLES.
 */
const WORK_BUDGET = 20_000_000;
const MIN_RESAMPLES = 200;

export const CI_METHOD =
  'percentile bootstrap over seed groups (games sharing a seed resampled together); Wilson score over the groups for a share seen at 0% or 100%';

/** How many resamples a run of `games` games gets: RESAMPLES up to 20,000 games, then fewer, at least MIN_RESAMPLES. */
export function resamplesFor(games: number): number {
  return Math.max(MIN_RESAMPLES, Math.min(RESAMPLES, Math.floor(WORK_BUDGET / Math.max(1, games))));
}

/**
 * Games in a compact form: `codes[game * entrants + b]` is placement * 2 + 1
 * if entrant b won (0: b did not play), and games of group g are
 * groupStart[g] .. groupStart[g + 1] - 1. One byte per seat, so a run of a
 * million games fits in a few megabytes.
 */
export interface PackedOutcomes {
  entrants: number;
  codes: Uint8Array;
  groupStart: Int32Array;
}

/** GameOutcome[] packed, games of a group together (groups in order of first appearance). */
export function packOutcomes(games: readonly GameOutcome[], entrants: number): PackedOutcomes {
  const byGroup = new Map<string, number[]>();
  games.forEach((g, i) => {
    const list = byGroup.get(g.group);
    if (list) list.push(i);
    else byGroup.set(g.group, [i]);
  });
  const codes = new Uint8Array(games.length * entrants);
  const groupStart = new Int32Array(byGroup.size + 1);
  let j = 0;
  let gi = 0;
  for (const list of byGroup.values()) {
    groupStart[gi++] = j;
    for (const i of list) {
      const g = games[i];
      for (let b = 0; b < entrants; b++) {
        const p = g.placements[b];
        codes[j * entrants + b] = p === null || p === undefined ? 0 : p * 2 + (g.won[b] ? 1 : 0);
      }
      j++;
    }
  }
  groupStart[gi] = j;
  return { entrants, codes, groupStart };
}

/**
 * Mean placement and win rate per entrant, and a-above-b per pair, each with a
 * 95% percentile-bootstrap interval. `seed` seeds the resampling.
 */
export function verdictStats(
  games: readonly GameOutcome[],
  entrants: number,
  seed: string,
  resamples?: number,
): VerdictStats {
  return packedVerdictStats(packOutcomes(games, entrants), seed, resamples);
}

export function packedVerdictStats(packed: PackedOutcomes, seed: string, resamples?: number): VerdictStats {
  const { entrants, codes, groupStart } = packed;
  const pairs: Array<[number, number]> = [];
  for (let a = 0; a < entrants; a++) for (let b = a + 1; b < entrants; b++) pairs.push([a, b]);
  // The sums each statistic needs: [placementSum, wins, games] per bot, then [aboveScore, games] per pair.
  const width = entrants * 3 + pairs.length * 2;
  const pairA = Int32Array.from(pairs, (p) => p[0]);
  const pairB = Int32Array.from(pairs, (p) => p[1]);
  const pairAt = entrants * 3;
  const addGame = (acc: Float64Array, j: number): void => {
    const base = j * entrants;
    for (let b = 0; b < entrants; b++) {
      const c = codes[base + b];
      if (c === 0) continue;
      acc[b * 3] += c >> 1;
      acc[b * 3 + 1] += c & 1;
      acc[b * 3 + 2] += 1;
    }
    for (let k = 0; k < pairA.length; k++) {
      const ca = codes[base + pairA[k]];
      const cb = codes[base + pairB[k]];
      if (ca === 0 || cb === 0) continue;
      // Placement order is code order once the win bit is dropped.
      const d = (ca >> 1) - (cb >> 1);
      acc[pairAt + k * 2] += d < 0 ? 1 : d === 0 ? 0.5 : 0;
      acc[pairAt + k * 2 + 1] += 1;
    }
  };
  const n = groupStart.length - 1;
  const total = new Float64Array(width);
  for (let j = 0; j < groupStart[n]; j++) addGame(total, j);

  const draws = resamples ?? resamplesFor(groupStart[n]);
  // ratios[s][r]: statistic s in resample r (NaN when its denominator is 0 in that resample).
  const stats = entrants * 2 + pairs.length;
  const ratios = Array.from({ length: stats }, () => new Float64Array(draws));
  const rng = seededRandom(seed, 'verdict-bootstrap');
  const acc = new Float64Array(width);
  for (let r = 0; r < draws; r++) {
    acc.fill(0);
    for (let i = 0; i < n; i++) {
      const g = Math.floor(rng() * n);
      for (let j = groupStart[g]; j < groupStart[g + 1]; j++) addGame(acc, j);
    }
    for (let b = 0; b < entrants; b++) {
      const games = acc[b * 3 + 2];
      ratios[b * 2][r] = acc[b * 3] / games;
      ratios[b * 2 + 1][r] = acc[b * 3 + 1] / games;
    }
    for (let k = 0; k < pairs.length; k++)
      ratios[entrants * 2 + k][r] = acc[entrants * 3 + k * 2] / acc[entrants * 3 + k * 2 + 1];
  }

  const interval = (num: number, den: number, s: number, digits: number, share = false): Interval | null => {
    if (den === 0) return null;
    const value = num / den;
    // Seed groups are the independent units; a statistic's games span at most all of them.
    const [low, high] =
      share && (value === 0 || value === 1)
        ? wilsonInterval(value, Math.min(den, n), CONFIDENCE_Z)
        : percentileInterval(ratios[s], CONFIDENCE);
    return { value: round(value, digits), low: round(low, digits), high: round(high, digits) };
  };
  return {
    bots: Array.from({ length: entrants }, (_, b) => ({
      games: total[b * 3 + 2],
      meanPlacement: interval(total[b * 3], total[b * 3 + 2], b * 2, 3),
      winRate: interval(total[b * 3 + 1], total[b * 3 + 2], b * 2 + 1, 3, true),
    })),
    pairs: pairs.map(([a, b], k) => ({
      a,
      b,
      games: total[entrants * 3 + k * 2 + 1],
      aAbove: interval(total[entrants * 3 + k * 2], total[entrants * 3 + k * 2 + 1], entrants * 2 + k, 3, true),
    })),
  };
}

/**
 * The central `confidence` interval of the finite values (NaN resamples, with no game for the statistic, are left out).
 */
export function percentileInterval(values: Float64Array, confidence: number): [number, number] {
  const sorted = Array.from(values)
    .filter((v) => Number.isFinite(v))
    .sort((x, y) => x - y);
  if (sorted.length === 0) return [NaN, NaN];
  const tail = (1 - confidence) / 2;
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1) + 0.5)))];
  return [at(tail), at(1 - tail)];
}

/** The normal quantile of a two-sided 95% interval. */
const CONFIDENCE_Z = 1.959964;

/** Wilson's score interval for a share `p` seen in `n` independent trials. */
export function wilsonInterval(p: number, n: number, z: number): [number, number] {
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
