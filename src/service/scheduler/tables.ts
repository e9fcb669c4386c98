// Matchmaking (spec section 1): every idle active bot, sorted by rating so
// similar skills share a table; tables of 4 from the top down; exactly 3 left
// over form a table of 3; fewer wait for the next tick.
//
// Owners (issue 27): an owner whose bots share a table can feed one of them
// rating by having the others lose. Under `avoid` and `forbid` each table
// takes bots of different owners where the pool allows: an owner with as many
// bots left as there are tables left gets a seat at this one (so no later
// table is forced to take two of theirs), then the best-rated bots of owners
// not yet seated fill it. When no other owner is left, `avoid` seats a second
// bot of the owner with the most bots left (the table is played, unrated),
// and `forbid` forms no more tables (those bots wait).

export interface PoolEntry {
  botId: string;
  /** The shown rating, mu - 3*sigma. */
  rating: number;
  /** The account that owns the bot. */
  ownerId: string;
}

/** What `serve --same-owner` chooses: seat two bots of one owner together and rate it, avoid it (unrated when it happens), or never. */
export type SameOwnerRule = 'allow' | 'avoid' | 'forbid';
export const SAME_OWNER_RULES: readonly SameOwnerRule[] = ['allow', 'avoid', 'forbid'];
export const DEFAULT_SAME_OWNER: SameOwnerRule = 'avoid';

export interface Table {
  /** Best-rated first, as seated before the seed shuffles seats. */
  botIds: string[];
  /** Two or more of its bots have one owner. */
  sameOwner: boolean;
}

export const TABLE_SIZE = 4;
export const SHORT_TABLE = 3;

const byRating = (a: PoolEntry, b: PoolEntry) => b.rating - a.rating || (a.botId < b.botId ? -1 : a.botId > b.botId ? 1 : 0);

/** Tables of bots, best-rated first. Ties in rating are broken by id so a tick is deterministic. */
export function formTables(pool: readonly PoolEntry[], rule: SameOwnerRule = 'allow'): Table[] {
  const sorted = [...pool].sort(byRating);
  const sizes: number[] = Array.from({ length: Math.floor(sorted.length / TABLE_SIZE) }, () => TABLE_SIZE);
  if (sorted.length % TABLE_SIZE === SHORT_TABLE) sizes.push(SHORT_TABLE);
  if (rule === 'allow') {
    let i = 0;
    return sizes.map((n) => {
      const seated = sorted.slice(i, (i += n));
      return { botIds: seated.map((e) => e.botId), sameOwner: new Set(seated.map((e) => e.ownerId)).size < seated.length };
    });
  }
  let left = sorted;
  const tables: Table[] = [];
  for (let t = 0; t < sizes.length; t++) {
    const size = sizes[t];
    const tablesLeft = sizes.length - t;
    const counts = new Map<string, number>();
    for (const e of left) counts.set(e.ownerId, (counts.get(e.ownerId) ?? 0) + 1);
    const table: PoolEntry[] = [];
    const owners = new Set<string>();
    const seat = (e: PoolEntry) => {
      table.push(e);
      owners.add(e.ownerId);
      counts.set(e.ownerId, counts.get(e.ownerId)! - 1);
    };
    // Owners who would otherwise need two seats at a later table, most bots first; each brings its best bot.
    const pressed = tablesLeft === 1 ? [] : [...counts].filter(([, n]) => n >= tablesLeft).sort((a, b) => b[1] - a[1]).map(([o]) => o);
    for (const owner of pressed) {
      if (table.length === size) break;
      seat(left.find((e) => e.ownerId === owner)!);
    }
    for (const e of left) {
      if (table.length === size) break;
      if (!owners.has(e.ownerId)) seat(e);
    }
    let sameOwner = false;
    if (table.length < size) {
      if (rule === 'forbid') break;
      // No other owner left: the owner with the most bots left takes the seat (spreading them over the remaining tables).
      while (table.length < size) {
        const rest = left.filter((e) => !table.includes(e));
        const most = Math.max(...rest.map((e) => counts.get(e.ownerId)!));
        seat(rest.find((e) => counts.get(e.ownerId) === most)!);
      }
      sameOwner = true;
    }
    const taken = new Set(table);
    left = left.filter((e) => !taken.has(e));
    tables.push({ botIds: [...table].sort(byRating).map((e) => e.botId), sameOwner });
  }
  return tables;
}
