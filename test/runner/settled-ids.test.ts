import { describe, expect, it } from 'vitest';
import { SettledIds } from '../../src/runner/settled-ids';

describe('SettledIds', () => {
  it('knows the ids a match settled, in the order the runner counts, and nothing else', () => {
    const ids = new SettledIds();
    expect(ids.has(1)).toBe(false);
    // One seat's share of a match: increasing, with gaps (other seats' ids).
    const mine = [1, 2, 5, 6, 7, 12, 40, 41, 300];
    for (const id of mine) ids.add(id);
    for (let id = 0; id <= 310; id++) expect(ids.has(id)).toBe(mine.includes(id));
  });

  it('agrees with a set for ids in any order, repeats included', () => {
    // A fixed pseudo-random sequence (no Math.random: the same every run).
    let x = 12345;
    const next = () => (x = (x * 1103515245 + 12345) % 2147483648) % 500;
    const ids = new SettledIds();
    const model = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const id = next();
      if (i % 3 === 0) {
        ids.add(id);
        model.add(id);
      }
      expect(ids.has(id)).toBe(model.has(id));
    }
    for (let id = 0; id < 500; id++) expect(ids.has(id)).toBe(model.has(id));
  });
});
