// Tournament ratings: openskill's default Weng-Lin model (Plackett-Luce),
// ranks = placements, ties share a rank. Shown as mu - 3*sigma, 1 decimal,
// exactly as the hosted leaderboard shows them (decisions.md, "rating").
import { rate, rating as initialRating, type Rating } from 'openskill';

export interface BotRating {
  mu: number;
  sigma: number;
  /** mu - 3*sigma rounded to 1 decimal: the number users see. */
  rating: number;
}

export function displayRating(r: Rating): number {
  return round1(r.mu - 3 * r.sigma);
}

export function round1(x: number): number {
  // Math.round on the scaled value, with -0 folded to 0 so JSON shows 0.
  const v = Math.round(x * 10) / 10;
  return v === 0 ? 0 : v;
}

export class RatingBook {
  private readonly ratings = new Map<string, Rating>();

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
    const before = players.map((p) => {
      const r = this.ratings.get(p.botId);
      if (!r) throw new Error(`no rating for bot ${p.botId}`);
      return r;
    });
    const after = rate(before.map((r) => [r]), { rank: players.map((p) => p.placement) });
    const deltas = new Map<string, number>();
    players.forEach((p, i) => {
      const next = after[i][0];
      this.ratings.set(p.botId, next);
      deltas.set(p.botId, round1(displayRating(next) - displayRating(before[i])));
    });
    return deltas;
  }
}
