// The in-memory index of matches: one small entry per match, in the order
// matches were first stored, with per-bot lists, so listing newest-first with
// filters never reads match files. Built at open from the match log.
import { InvalidCursor, type MatchQuery, type StoredMatch, type StoredMatchSummary } from './types';

export interface IndexEntry {
  id: string;
  /** Position in first-stored order: the sort key of "newest first" and of cursors. */
  seq: number;
  /** Write count of this match; its file and its latest log line carry the same. */
  v: number;
  status: StoredMatch['status'];
  game: StoredMatch['game'];
  bots: string[];
  /** The latest log line of this match (its summary), as a byte range of the log. */
  off: number;
  len: number;
}

/** One line of the match log. */
export interface LogLine {
  id: string;
  v: number;
  m: StoredMatchSummary;
}

export function summaryOf(match: StoredMatch): StoredMatchSummary {
  // Decisions are per-decision data like the replay: not kept in the index.
  const { seed: _seed, replay: _replay, decisions: _decisions, ...summary } = match;
  return summary;
}

const TERMINAL = new Set<string>(['completed', 'aborted']);
export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}

export function encodeCursor(seq: number): string {
  return Buffer.from(`s${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const m = /^s(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!m) throw new InvalidCursor(cursor);
  return Number(m[1]);
}

export class MatchIndex {
  private readonly entries: IndexEntry[] = [];
  private readonly byId = new Map<string, IndexEntry>();
  private readonly byBot = new Map<string, IndexEntry[]>();
  // One string per bot id, however many lines name it.
  private readonly interned = new Map<string, string>();

  get size(): number {
    return this.entries.length;
  }

  get(id: string): IndexEntry | undefined {
    return this.byId.get(id);
  }

  /** Applies a log line found at [off, off+len) of the log: a new match, or a newer version of one. */
  apply(line: LogLine, off: number, len: number): IndexEntry {
    const bots = line.m.players.map((p) => this.intern(p.botId));
    const known = this.byId.get(line.id);
    if (known) {
      const moved = known.bots.length !== bots.length || known.bots.some((b, i) => b !== bots[i]);
      if (moved) {
        for (const b of known.bots) {
          const list = this.byBot.get(b);
          if (list)
            this.byBot.set(
              b,
              list.filter((e) => e !== known),
            );
        }
        known.bots = bots;
        this.addToBots(known);
      }
      Object.assign(known, { v: line.v, status: line.m.status, game: line.m.game, off, len });
      return known;
    }
    const entry: IndexEntry = {
      id: line.id,
      seq: this.entries.length,
      v: line.v,
      status: line.m.status,
      game: line.m.game,
      bots,
      off,
      len,
    };
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    this.addToBots(entry);
    return entry;
  }

  /** Newest first; entries strictly older than the cursor; `next` only when another match follows. */
  query(q: MatchQuery): { entries: IndexEntry[]; next: string | null } {
    if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > 100)
      throw new RangeError(`limit must be 1..100, got ${q.limit}`);
    const before = q.cursor ? decodeCursor(q.cursor) : Number.MAX_SAFE_INTEGER;
    // With vs, the bot's list is walked and the other bot looked for in each entry's few seats.
    const bot = q.botId ?? q.vs;
    const list = bot !== undefined ? (this.byBot.get(bot) ?? []) : this.entries;
    // Both lists are in seq order: start at the last entry older than the cursor.
    let i = lastBelow(list, before);
    const out: IndexEntry[] = [];
    let more = false;
    for (; i >= 0; i--) {
      const e = list[i];
      if (q.game !== undefined && e.game !== q.game) continue;
      if (q.status !== undefined && e.status !== q.status) continue;
      if (q.vs !== undefined && !e.bots.includes(q.vs)) continue;
      if (out.length === q.limit) {
        more = true;
        break;
      }
      out.push(e);
    }
    return { entries: out, next: more ? encodeCursor(out[out.length - 1].seq) : null };
  }

  /** The bot's matches, oldest first (the index's own list: read it, never change it). */
  ofBot(botId: string): readonly IndexEntry[] {
    return this.byBot.get(botId) ?? [];
  }

  private addToBots(entry: IndexEntry): void {
    for (const b of new Set(entry.bots)) {
      const list = this.byBot.get(b);
      if (!list) {
        this.byBot.set(b, [entry]);
        continue;
      }
      // Usually appended at the end; a re-seated old match goes to its place.
      let at = list.length;
      while (at > 0 && list[at - 1].seq > entry.seq) at--;
      list.splice(at, 0, entry);
    }
  }

  private intern(id: string): string {
    const known = this.interned.get(id);
    if (known !== undefined) return known;
    this.interned.set(id, id);
    return id;
  }
}

/** Index of the last entry with seq < before, or -1. */
function lastBelow(list: IndexEntry[], before: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].seq < before) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
