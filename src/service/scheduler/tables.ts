// Matchmaking (spec section 1): every idle active bot, sorted by rating so
// similar skills share a table; tables of 4 from the top down; exactly 3 left
// over form a table of 3; fewer wait for the next tick.

export interface PoolEntry {
  botId: string;
  /** The shown rating, mu - 3*sigma. */
  rating: number;
}

export const TABLE_SIZE = 4;
export const SHORT_TABLE = 3;

/** Tables of bot ids, best-rated first. Ties in rating are broken by id so a tick is deterministic. */
export function formTables(pool: readonly PoolEntry[]): string[][] {
  const sorted = [...pool].sort((a, b) => b.rating - a.rating || (a.botId < b.botId ? -1 : a.botId > b.botId ? 1 : 0));
  const tables: string[][] = [];
  let i = 0;
  for (; i + TABLE_SIZE <= sorted.length; i += TABLE_SIZE) tables.push(sorted.slice(i, i + TABLE_SIZE).map((e) => e.botId));
  if (sorted.length - i === SHORT_TABLE) tables.push(sorted.slice(i).map((e) => e.botId));
  return tables;
}
