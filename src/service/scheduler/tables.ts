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

/**
 * What `serve --same-owner` chooses: seat two bots of one owner together and rate it, avoid it (unrated when it
 * happens), or never.
 */
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

const byRating = (a: PoolEntry, b: PoolEntry) =>
  b.rating - a.rating || (a.botId < b.botId ? -1 : a.botId > b.botId ? 1 : 0);

/** Tables of bots, best-rated first. Ties in rating are broken by id so a tick is deterministic. */
export function formTables(pool: readonly PoolEntry[], rule: SameOwnerRule = 'allow'): Table[] {
  const sorted = [...pool].sort(byRating);
  const sizes: number[] = Array.from({ length: Math.floor(sorted.length / TABLE_SIZE) }, () => TABLE_SIZE);
  if (sorted.length % TABLE_SIZE === SHORT_TABLE) sizes.push(SHORT_TABLE);
  if (rule === 'allow') {
    let i = 0;
    return sizes.map((n) => {
      const seated = sorted.slice(i, (i += n));
      return {
        botIds: seated.map((e) => e.botId),
        sameOwner: new Set(seated.map((e) => e.ownerId)).size < seated.length,
      };
    });
  }
  // Each step seats some owner's best bot still waiting, so each owner's bots go in rating order (a queue per owner).
  const rank = new Map(sorted.map((e, i) => [e, i]));
  const queues = new Map<string, { bots: PoolEntry[]; next: number }>();
  for (const e of sorted) {
    const q = queues.get(e.ownerId);
    if (q) q.bots.push(e);
    else queues.set(e.ownerId, { bots: [e], next: 0 });
  }
  const byCount = new OwnersByCount([...queues].map(([owner, q]) => [owner, q.bots.length]));
  // Owners by their best waiting bot's rank; an entry whose bot is seated already is stale and skipped.
  const best = new MinHeap<{ rank: number; owner: string }>((a, b) => a.rank - b.rank);
  for (const [owner, q] of queues) best.push({ rank: rank.get(q.bots[0])!, owner });
  const head = (owner: string) => {
    const q = queues.get(owner)!;
    return q.next < q.bots.length ? q.bots[q.next] : null;
  };

  const tables: Table[] = [];
  for (let t = 0; t < sizes.length; t++) {
    const size = sizes[t];
    const tablesLeft = sizes.length - t;
    const table: PoolEntry[] = [];
    const owners = new Set<string>();
    const seat = (owner: string) => {
      const q = queues.get(owner)!;
      table.push(q.bots[q.next++]);
      owners.add(owner);
      byCount.decrement(owner);
      const h = head(owner);
      if (h) best.push({ rank: rank.get(h)!, owner });
    };
    // Owners who would otherwise need two seats at a later table, most bots first; each brings its best bot.
    if (tablesLeft > 1) for (const owner of byCount.atLeast(tablesLeft, size)) if (table.length < size) seat(owner);
    // Then the best-rated bots of owners not yet at the table.
    const skipped: Array<{ rank: number; owner: string }> = [];
    while (table.length < size && best.size > 0) {
      const entry = best.pop()!;
      const h = head(entry.owner);
      if (!h || rank.get(h) !== entry.rank) continue;
      if (owners.has(entry.owner)) skipped.push(entry);
      else seat(entry.owner);
    }
    for (const entry of skipped) best.push(entry);
    let sameOwner = false;
    if (table.length < size) {
      if (rule === 'forbid') break;
      // No other owner left: the owner with the most bots left takes the seat (spreading them over the remaining
      // tables).
      while (table.length < size) seat(byCount.most()!);
      sameOwner = true;
    }
    tables.push({ botIds: table.sort((a, b) => rank.get(a)! - rank.get(b)!).map((e) => e.botId), sameOwner });
  }
  return tables;
}

/**
 * Owners ordered by how many bots they have waiting, most first, with a count
 * taken down by one in O(1): the owner swaps with the last of its count's
 * group, which then ends one place earlier.
 */
class OwnersByCount {
  private readonly order: string[];
  private readonly pos = new Map<string, number>();
  private readonly count = new Map<string, number>();
  /** count -> index of the last owner with that count. */
  private readonly groupEnd = new Map<number, number>();

  constructor(entries: Array<[string, number]>) {
    this.order = entries.sort((a, b) => b[1] - a[1]).map(([owner]) => owner);
    for (const [owner, n] of entries) this.count.set(owner, n);
    this.order.forEach((owner, i) => {
      this.pos.set(owner, i);
      this.groupEnd.set(this.count.get(owner)!, i);
    });
  }

  /** Up to `limit` owners with at least `n` bots waiting, most first. */
  atLeast(n: number, limit: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.order.length && out.length < limit && this.count.get(this.order[i])! >= n; i++)
      out.push(this.order[i]);
    return out;
  }

  /** An owner with the most bots waiting (none when nobody waits). */
  most(): string | undefined {
    const owner = this.order[0];
    return owner !== undefined && this.count.get(owner)! > 0 ? owner : undefined;
  }

  decrement(owner: string): void {
    const c = this.count.get(owner)!;
    const i = this.pos.get(owner)!;
    const j = this.groupEnd.get(c)!;
    const other = this.order[j];
    [this.order[i], this.order[j]] = [other, owner];
    this.pos.set(other, i);
    this.pos.set(owner, j);
    if (j > 0 && this.count.get(this.order[j - 1]) === c) this.groupEnd.set(c, j - 1);
    else this.groupEnd.delete(c);
    this.count.set(owner, c - 1);
    if (!this.groupEnd.has(c - 1)) this.groupEnd.set(c - 1, j);
  }
}

/** A binary min-heap. */
class MinHeap<T> {
  private readonly items: T[] = [];
  constructor(private readonly less: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    for (let i = a.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (this.less(a[i], a[p]) >= 0) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l], a[m]) < 0) m = l;
        if (r < a.length && this.less(a[r], a[m]) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}
