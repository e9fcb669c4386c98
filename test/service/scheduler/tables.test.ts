import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formTables, type PoolEntry, type SameOwnerRule } from '../../../src/service/scheduler/tables';

// Every bot its own owner unless said otherwise.
const pool = (ratings: number[]) => ratings.map((rating, i) => ({ botId: `b${i}`, rating, ownerId: `u${i}` }));
const ids = (tables: { botIds: string[] }[]) => tables.map((t) => t.botIds);

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
    expect(formTables(pool(Array.from({ length: n }, (_, i) => i))).map((t) => t.botIds.length)).toEqual(sizes);
  });

  it('seats similar ratings together, best first; the lowest wait', () => {
    const tables = formTables(pool([5, 30, 1, 20, 25, 10]));
    expect(tables).toEqual([{ botIds: ['b1', 'b4', 'b3', 'b5'], sameOwner: false }]);
  });

  it('never seats a bot twice, and leaves out at most 2', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 40 }), (ratings) => {
        const tables = ids(formTables(pool(ratings)));
        const seated = tables.flat();
        expect(new Set(seated).size).toBe(seated.length);
        for (const t of tables) expect([3, 4]).toContain(t.length);
        expect(tables.filter((t) => t.length === 3).length).toBeLessThanOrEqual(1);
        expect(ratings.length - seated.length).toBeGreaterThanOrEqual(0);
        expect(ratings.length - seated.length).toBeLessThanOrEqual(2);
      }),
    );
  });

  describe('owners (--same-owner)', () => {
    // Owner of each bot by index: 'A' owns b0, b1, ...
    const owned = (owners: string, ratings?: number[]): PoolEntry[] =>
      [...owners].map((o, i) => ({ botId: `b${i}`, rating: ratings?.[i] ?? 100 - i, ownerId: o }));
    const ownersOf = (entries: PoolEntry[], botIds: string[]) =>
      botIds.map((id) => entries.find((e) => e.botId === id)!.ownerId);
    const ownersAt = (entries: PoolEntry[], botIds: string[]) => ownersOf(entries, botIds).join('');

    it('allow seats by rating alone and marks a table with two bots of one owner', () => {
      const p = owned('AAAABBBB');
      expect(formTables(p, 'allow')).toEqual([
        { botIds: ['b0', 'b1', 'b2', 'b3'], sameOwner: true },
        { botIds: ['b4', 'b5', 'b6', 'b7'], sameOwner: true },
      ]);
    });

    it("avoid and forbid spread four owners' bots so that no table has two of one owner", () => {
      // Rated in owner blocks: by rating alone, each table would be one owner's.
      const p = owned('AAAABBBBCCCCDDDD');
      for (const rule of ['avoid', 'forbid'] as const) {
        const tables = formTables(p, rule);
        expect(tables).toHaveLength(4);
        for (const t of tables) {
          expect(t.sameOwner).toBe(false);
          expect(new Set(ownersAt(p, t.botIds)).size).toBe(4);
        }
      }
    });

    it('one owner with a bot at the bottom of the ratings still gets one seat per table, not a table of its own', () => {
      // Six singles rated above three bots of owner Z: rating order alone would seat Z three times at the last table.
      const p = owned('abcdefghZZZ', [99, 98, 97, 96, 95, 94, 93, 92, 3, 2, 1]);
      const tables = formTables(p, 'avoid');
      expect(tables.map((t) => t.botIds.length)).toEqual([4, 4, 3]);
      for (const t of tables) {
        expect(t.sameOwner).toBe(false);
        expect(ownersAt(p, t.botIds).split('Z').length - 1).toBe(1);
      }
    });

    it('avoid plays a table it cannot spread (too few owners) and marks it; forbid lets those bots wait', () => {
      const p = owned('AAAAABCD');
      const avoid = formTables(p, 'avoid');
      expect(avoid.map((t) => [ownersAt(p, t.botIds).split('').sort().join(''), t.sameOwner])).toEqual([
        ['ABCD', false],
        ['AAAA', true],
      ]);
      const forbid = formTables(p, 'forbid');
      expect(forbid.map((t) => [ownersAt(p, t.botIds).split('').sort().join(''), t.sameOwner])).toEqual([
        ['ABCD', false],
      ]);
      // One account alone (arena demo --serve): avoid plays it unrated, forbid plays nothing.
      expect(formTables(owned('AAAA'), 'avoid')).toEqual([{ botIds: ['b0', 'b1', 'b2', 'b3'], sameOwner: true }]);
      expect(formTables(owned('AAAA'), 'forbid')).toEqual([]);
    });

    it('property: every rule seats each bot at most once in tables of 3 or 4; forbid never seats one owner twice; avoid leaves nobody waiting that allow would seat; a table is marked exactly when it has two bots of one owner', () => {
      fc.assert(
        fc.property(
          fc.array(fc.record({ owner: fc.integer({ min: 0, max: 5 }), rating: fc.integer({ min: -20, max: 20 }) }), {
            maxLength: 30,
          }),
          (bots) => {
            const p = bots.map((b, i) => ({ botId: `b${i}`, rating: b.rating, ownerId: `u${b.owner}` }));
            const seatedBy: Record<SameOwnerRule, number> = { allow: 0, avoid: 0, forbid: 0 };
            for (const rule of ['allow', 'avoid', 'forbid'] as const) {
              const tables = formTables(p, rule);
              const seated = tables.flatMap((t) => t.botIds);
              expect(new Set(seated).size).toBe(seated.length);
              for (const t of tables) {
                expect([3, 4]).toContain(t.botIds.length);
                const owners = ownersOf(p, t.botIds);
                expect(t.sameOwner).toBe(new Set(owners).size < owners.length);
                if (rule === 'forbid') expect(t.sameOwner).toBe(false);
              }
              seatedBy[rule] = seated.length;
            }
            expect(seatedBy.avoid).toBe(seatedBy.allow);
            expect(seatedBy.forbid).toBeLessThanOrEqual(seatedBy.avoid);
          },
        ),
      );
    });

    it('property: when the pool can be seated with no owner twice at a table (no owner has more bots than there are tables), avoid does so', () => {
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 4, maxLength: 32 }),
          fc.array(fc.integer({ min: -9, max: 9 }), { minLength: 32, maxLength: 32 }),
          (owners, ratings) => {
            const n = owners.length - (owners.length % 4 === 3 ? 0 : owners.length % 4);
            const p = owners.slice(0, n).map((o, i) => ({ botId: `b${i}`, rating: ratings[i], ownerId: `u${o}` }));
            const tablesCount = Math.floor(n / 4) + (n % 4 === 3 ? 1 : 0);
            const most = Math.max(
              0,
              ...[...new Set(owners.slice(0, n))].map((o) => owners.slice(0, n).filter((x) => x === o).length),
            );
            // Seatable without repeats: no owner above the table count, and enough owners for a full table.
            fc.pre(most <= tablesCount && new Set(owners.slice(0, n)).size >= 4);
            for (const t of formTables(p, 'avoid')) expect(t.sameOwner).toBe(false);
          },
        ),
      );
    });
  });
});
