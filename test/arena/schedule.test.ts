import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arrangeForSeats, drawTables } from '../../src/arena/schedule';

function counts(tables: number[][], bots: number, seats: number) {
  const played = new Array(bots).fill(0);
  const seatCounts = Array.from({ length: bots }, () => new Array(seats).fill(0));
  for (const t of tables)
    t.forEach((b, s) => {
      played[b]++;
      seatCounts[b][s]++;
    });
  return { played, seatCounts };
}

describe('drawTables', () => {
  it('gives every bot the same number of games, within one, for any field', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 4 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 40 }),
        fc.string(),
        (seats, extra, games, seed) => {
          const bots = seats + extra;
          const tables = drawTables(bots, seats, games, seed);
          expect(tables).toHaveLength(games);
          for (const t of tables) {
            expect(t).toHaveLength(seats);
            expect(new Set(t).size).toBe(seats); // nobody sits twice at one table
            for (const b of t) expect(b).toBeGreaterThanOrEqual(0), expect(b).toBeLessThan(bots);
          }
          const { played } = counts(tables, bots, seats);
          expect(Math.max(...played) - Math.min(...played)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('rotates seats: with as many bots as seats, each bot sits in every seat equally', () => {
    const tables = drawTables(4, 4, 12, 'rot');
    const { seatCounts } = counts(tables, 4, 4);
    for (const row of seatCounts) expect(row).toEqual([3, 3, 3, 3]);
  });

  it('spreads seats for a larger field too (no bot always moves first)', () => {
    const tables = drawTables(6, 4, 30, 'field');
    const { seatCounts } = counts(tables, 6, 4);
    for (const row of seatCounts) expect(Math.max(...row) - Math.min(...row)).toBeLessThanOrEqual(2);
  });

  it('is reproducible from the seed and changes with it', () => {
    expect(drawTables(7, 4, 20, 'a')).toEqual(drawTables(7, 4, 20, 'a'));
    expect(drawTables(7, 4, 20, 'a')).not.toEqual(drawTables(7, 4, 20, 'b'));
  });

  it('refuses a field smaller than a table', () => {
    expect(() => drawTables(2, 3, 5, 's')).toThrow(/at least 3 bots/);
  });
});

describe('arrangeForSeats', () => {
  it('orders entrants so the seat shuffle puts each bot where the table wants it', () => {
    const table = ['a', 'b', 'c', 'd']; // seat -> bot
    const order = [2, 0, 3, 1]; // seat -> entrant index (engine seatOrder)
    const entrants = arrangeForSeats(table, order);
    // What the runner does: seat s gets entrants[order[s]].
    expect(order.map((i) => entrants[i])).toEqual(table);
  });
});
