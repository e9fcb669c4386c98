// The sequential test behind `arena play --until-decided`: is bot A's share of
// placing above bot B different from 50%? It may look after every game and
// stop at the first look that says "decided", yet its chance of ever deciding
// when A and B are equally good stays under 5%.
//
// Method: testing by betting (a betting confidence sequence, Waudby-Smith &
// Ramdas 2023). Each observation x in [0, 1] is A's score against B in one
// seed group (1 above, 0 below, ties half; the mean of the group's games).
// For each stake lambda of a fixed grid, K = prod(1 + lambda * (x - 1/2)) is a
// nonnegative martingale with mean 1 when the true mean is 1/2; so is the
// average of them (the mixture). By Ville's inequality the mixture ever
// reaching 1/alpha = 20 has probability at most alpha = 5% under "A = B",
// however often one looks. Positive stakes win when A is better, negative
// ones when B is. Pure: no I/O.

/** Stakes of the mixture: |lambda| < 2 keeps every factor positive for x in [0, 1]. */
const STAKES = [0.1, 0.2, 0.35, 0.5, 0.75, 1, 1.25, 1.5, 1.75].flatMap((l) => [l, -l]);

export const SEQUENTIAL_METHOD =
  "betting confidence sequence (mixture of test martingales, Ville's inequality), alpha 0.05";

export type Decision = 'a' | 'b' | null;

export class SequentialTest {
  /** log K per stake. */
  private readonly logK = new Float64Array(STAKES.length);
  private n = 0;
  private sum = 0;
  private result: Decision = null;

  constructor(readonly alpha = 0.05) {
    if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  }

  /**
   * Adds one observation (A's score against B in a seed group, in [0, 1]); returns the decision so far (it never
   * changes once made).
   */
  add(x: number): Decision {
    if (!(x >= 0 && x <= 1)) throw new RangeError(`an observation is a score in [0, 1], got ${x}`);
    this.n++;
    this.sum += x;
    for (let i = 0; i < STAKES.length; i++) this.logK[i] += Math.log1p(STAKES[i] * (x - 0.5));
    if (this.result === null && this.wealth() >= 1 / this.alpha) this.result = this.sum / this.n > 0.5 ? 'a' : 'b';
    return this.result;
  }

  /** The mixture's value: evidence against "A = B" (1 at the start). */
  wealth(): number {
    let total = 0;
    for (let i = 0; i < STAKES.length; i++) total += Math.exp(this.logK[i]);
    return total / STAKES.length;
  }

  get decision(): Decision {
    return this.result;
  }

  get observations(): number {
    return this.n;
  }
}

/** A's score against B in each game both played: 1 above, 0 below, a tie half; null when one of them did not play. */
export function aboveScore(
  placementA: number | null | undefined,
  placementB: number | null | undefined,
): number | null {
  if (placementA === null || placementA === undefined || placementB === null || placementB === undefined) return null;
  return placementA < placementB ? 1 : placementA === placementB ? 0.5 : 0;
}

/** The one-line verdict: `A places above B in 58% ± 3% of games (decided after 640 games)`. */
export function verdictLine(v: {
  a: string;
  b: string;
  aAbove: number;
  low: number;
  high: number;
  decided: boolean;
  games: number;
  cap: number;
}): string {
  const pct = Math.round(v.aAbove * 100);
  const plusMinus = Math.round(((v.high - v.low) / 2) * 100);
  const games = `${v.games} game${v.games === 1 ? '' : 's'}`;
  const tail = v.decided ? `decided after ${games}` : `not decided after ${games}, the cap; raise --games to go on`;
  return `${v.a} places above ${v.b} in ${pct}% ± ${plusMinus}% of games (${tail})`;
}
