// discardOf hands out one canonical object per five counts: equal counts must
// give the same object and different counts a different one, whichever key
// form the counts take (small counts pack into one integer, large ones not).
import { describe, expect, it } from 'vitest';
import { discardOf } from '../../engine/canon';

describe('discardOf', () => {
  it('gives one object per five counts, and its cards are those counts', () => {
    const cases = [
      [1, 0, 0, 0, 0],
      [0, 1, 0, 0, 0],
      [64, 0, 0, 0, 0],
      [0, 0, 0, 0, 63],
      [63, 63, 63, 63, 63],
      [64, 1, 0, 0, 0],
      [0, 64, 0, 0, 0],
      [1000, 0, 0, 0, 1],
      [4, 0, 0, 0, 0],
      [0, 0, 0, 0, 4],
    ];
    const seen = new Map<object, number[]>();
    for (const c of cases) {
      const a = discardOf(c);
      expect(discardOf(Int16Array.from(c))).toBe(a);
      expect(seen.has(a), `${c} and ${seen.get(a)} share an object`).toBe(false);
      seen.set(a, c);
      const want: Record<string, number> = {};
      ['brick', 'lumber', 'wool', 'grain', 'ore'].forEach((r, i) => {
        if (c[i]) want[r] = c[i];
      });
      expect(a).toEqual({ cards: want });
    }
  });
});
