// Ratings: openskill's default Weng-Lin model (Plackett-Luce), ranks =
// placements, ties share a rank. Shown as mu - 3*sigma, 1 decimal, exactly as
// the hosted leaderboard shows them (docs/decisions.md, "rating"). rate() works on
// stored numbers, so the service rates from its store and the local arena
// from a RatingBook with the same code.
import { rate as openskillRate, rating as openskillRating } from 'openskill';

/** A rating as stored: openskill's mu and sigma. */
export interface StoredRating {
  mu: number;
  sigma: number;
}

export interface BotRating extends StoredRating {
  /** mu - 3*sigma rounded to 1 decimal: the number users see. */
  rating: number;
}

export interface RatedEntry<Id> extends BotRating {
  id: Id;
  /** Shown rating after minus shown rating before, 1 decimal. */
  ratingDelta: number;
}

/** A new bot's rating: mu 25, sigma 25/3 (displayed 0). */
export function initialRating(): StoredRating {
  const r = openskillRating();
  return { mu: r.mu, sigma: r.sigma };
}

export function displayRating(r: StoredRating): number {
  return round1(r.mu - 3 * r.sigma);
}

export function round1(x: number): number {
  // Math.round on the scaled value, with -0 folded to 0 so JSON shows 0.
  const v = Math.round(x * 10) / 10;
  return v === 0 ? 0 : v;
}

/**
 * Rates one completed match. `entries[i]` finished at `placements[i]`
 * (1-based, ties equal). Returns each entry's new rating, in the same order.
 */
export function rate<Id>(
  entries: ReadonlyArray<StoredRating & { id: Id }>,
  placements: readonly number[],
): RatedEntry<Id>[] {
  if (entries.length !== placements.length)
    throw new RangeError(`rate: ${entries.length} entries but ${placements.length} placements`);
  if (entries.length < 2) throw new RangeError('rate: a match needs at least two entries');
  for (const p of placements)
    if (!Number.isInteger(p) || p < 1) throw new RangeError(`rate: placements are whole numbers from 1, got ${p}`);
  for (const e of entries) {
    if (!Number.isFinite(e.mu) || !Number.isFinite(e.sigma) || e.sigma <= 0)
      throw new RangeError(`rate: bad stored rating mu ${e.mu} sigma ${e.sigma}`);
  }
  const after = openskillRate(
    entries.map((e) => [openskillRating({ mu: e.mu, sigma: e.sigma })]),
    { rank: [...placements] },
  );
  return entries.map((e, i) => {
    const next = { mu: after[i][0].mu, sigma: after[i][0].sigma };
    const shown = displayRating(next);
    return { id: e.id, ...next, rating: shown, ratingDelta: round1(shown - displayRating(e)) };
  });
}

/** The ratings of one local tournament, by bot id. */
export class RatingBook {
  private readonly ratings = new Map<string, StoredRating>();

  constructor(botIds: readonly string[]) {
    for (const id of botIds) this.ratings.set(id, initialRating());
  }

  get(botId: string): BotRating {
    const r = this.ratings.get(botId);
    if (!r) throw new Error(`no rating for bot ${botId}`);
    return { mu: r.mu, sigma: r.sigma, rating: displayRating(r) };
  }

  /**
   * Rates one completed match. `placements` are 1-based, ties equal. Returns
   * each bot's ratingDelta: displayed rating after minus displayed before.
   */
  applyMatch(players: ReadonlyArray<{ botId: string; placement: number }>): Map<string, number> {
    const rated = rate(
      players.map((p) => ({ id: p.botId, ...this.get(p.botId) })),
      players.map((p) => p.placement),
    );
    const deltas = new Map<string, number>();
    for (const r of rated) {
      this.ratings.set(r.id, { mu: r.mu, sigma: r.sigma });
      deltas.set(r.id, r.ratingDelta);
    }
    return deltas;
  }
}
