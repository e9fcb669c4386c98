import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formTables } from '../../src/service/scheduler/tables';

const pool = (ratings: number[]) => ratings.map((rating, i) => ({ botId: `b${i}`, rating }));

describe('matchmaking tables', () => {
  it.each([
    [0, []],
    [2, []],
    [3, [3]],
    [4, [4]],
    [5, [4]],
    [6, [4]],
    [7, [4, 3]],
    [8, [4, 4]],
    [11, [4, 4, 3]],
  ])('%i idle bots make tables of %j', (n, sizes) => {
    expect(formTables(pool(Array.from({ length: n }, (_, i) => i))).map((t) => t.length)).toEqual(sizes);
  });

  it('seats similar ratings together, best first; the lowest wait', () => {
    const tables = formTables(pool([5, 30, 1, 20, 25, 10]));
    expect(tables).toEqual([['b1', 'b4', 'b3', 'b5']]);
  });

  it('never seats a bot twice, and leaves out at most 2', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 40 }), (ratings) => {
        const tables = formTables(pool(ratings));
        const seated = tables.flat();
        expect(new Set(seated).size).toBe(seated.length);
        for (const t of tables) expect([3, 4]).toContain(t.length);
        expect(tables.filter((t) => t.length === 3).length).toBeLessThanOrEqual(1);
        expect(ratings.length - seated.length).toBeGreaterThanOrEqual(0);
        expect(ratings.length - seated.length).toBeLessThanOrEqual(2);
      }),
    );
  });
});
