import { describe, expect, it } from 'vitest';
import { rate, rating } from 'openskill';
import { RatingBook, displayRating, initialRating, rate as rateStored } from '../../src/arena/ratings';

describe('RatingBook', () => {
  it('starts every bot at mu 25, sigma 25/3: a displayed rating of 0', () => {
    const book = new RatingBook(['a', 'b']);
    expect(book.get('a')).toEqual({ mu: 25, sigma: 25 / 3, rating: 0 });
  });

  it('matches openskill rate() with ranks = placements, and deltas are shown-after minus shown-before', () => {
    const book = new RatingBook(['a', 'b', 'c', 'd']);
    const players = [
      { botId: 'c', placement: 1 },
      { botId: 'a', placement: 2 },
      { botId: 'd', placement: 2 }, // a tie shares the placement
      { botId: 'b', placement: 4 },
    ];
    const deltas = book.applyMatch(players);
    const expected = rate([[rating()], [rating()], [rating()], [rating()]], { rank: [1, 2, 2, 4] });
    players.forEach((p, i) => {
      expect(book.get(p.botId).mu).toBeCloseTo(expected[i][0].mu, 10);
      expect(book.get(p.botId).sigma).toBeCloseTo(expected[i][0].sigma, 10);
      expect(deltas.get(p.botId)).toBeCloseTo(displayRating(expected[i][0]) - 0, 10);
    });
    expect(deltas.get('c')!).toBeGreaterThan(0);
    expect(deltas.get('b')!).toBeLessThan(deltas.get('c')!);
    // Tied bots with equal priors move identically.
    expect(book.get('a')).toEqual(book.get('d'));
  });

  it("chains: the second match starts from the first one's ratings", () => {
    const book = new RatingBook(['a', 'b', 'c']);
    book.applyMatch([
      { botId: 'a', placement: 1 },
      { botId: 'b', placement: 2 },
      { botId: 'c', placement: 3 },
    ]);
    const before = book.get('a').rating;
    const d = book.applyMatch([
      { botId: 'a', placement: 1 },
      { botId: 'b', placement: 2 },
      { botId: 'c', placement: 3 },
    ]);
    expect(d.get('a')).toBeCloseTo(Math.round((book.get('a').rating - before) * 10) / 10, 10);
  });
});

describe('rate() on stored ratings (as the service keeps them)', () => {
  it('starts from the given mu and sigma, matching openskill with those priors', () => {
    const stored = [
      { id: 7, mu: 31.2, sigma: 2.1 },
      { id: 9, mu: 22.5, sigma: 6.0 },
      { id: 3, ...initialRating() },
    ];
    const out = rateStored(stored, [2, 1, 3]);
    const expected = rate(
      stored.map((e) => [rating({ mu: e.mu, sigma: e.sigma })]),
      { rank: [2, 1, 3] },
    );
    out.forEach((r, i) => {
      expect(r.id).toBe(stored[i].id);
      expect(r.mu).toBeCloseTo(expected[i][0].mu, 10);
      expect(r.sigma).toBeCloseTo(expected[i][0].sigma, 10);
      expect(r.rating).toBe(displayRating(expected[i][0]));
      expect(r.ratingDelta).toBeCloseTo(
        Math.round((displayRating(expected[i][0]) - displayRating(stored[i])) * 10) / 10,
        10,
      );
    });
    // Not the same as rating everyone from scratch: the priors matter.
    const fresh = rateStored(
      stored.map((e) => ({ id: e.id, ...initialRating() })),
      [2, 1, 3],
    );
    expect(fresh[0].mu).not.toBeCloseTo(out[0].mu, 3);
    // The input is left alone.
    expect(stored[0]).toEqual({ id: 7, mu: 31.2, sigma: 2.1 });
  });

  it('refuses mismatched or impossible input', () => {
    const two = [
      { id: 'a', ...initialRating() },
      { id: 'b', ...initialRating() },
    ];
    expect(() => rateStored(two, [1])).toThrow(RangeError);
    expect(() => rateStored(two, [0, 1])).toThrow(RangeError);
    expect(() => rateStored([{ id: 'a', mu: 25, sigma: 0 }, two[1]], [1, 2])).toThrow(RangeError);
  });
});
