// The store's main document (store.json): the small records, read and written
// whole through lowdb. Matches are not in it (match-log.ts), so its size
// follows users and bots, never the number of matches played.
import { readFile } from 'node:fs/promises';
import { Low, type Adapter } from 'lowdb';
import { writeFileAtomic } from './atomic-write';
import type { BotRecord, KeyRecord, RatingRecord, SessionRecord, SignInTokenRecord, UserRecord } from './types';

export const DOC_FILE = 'store.json';
const FORMAT = 1;

export interface StoreDoc {
  format: typeof FORMAT;
  /** Incremented by every write: a lock-free backup uses it to see that it read one version. */
  rev: number;
  users: Record<string, UserRecord>;
  keys: Record<string, KeyRecord>;
  bots: Record<string, BotRecord>;
  /** By `${game}:${botId}`. */
  ratings: Record<string, RatingRecord>;
  sessions: Record<string, SessionRecord>;
  signInTokens: Record<string, SignInTokenRecord>;
  /**
   * Byte offset, in the match log, of the last completion whose ratings are in
   * this document (-1: none). Completions after it are re-applied at open.
   */
  ratingsThrough: number;
}

export function emptyDoc(): StoreDoc {
  return { format: FORMAT, rev: 0, users: {}, keys: {}, bots: {}, ratings: {}, sessions: {}, signInTokens: {}, ratingsThrough: -1 };
}

export function ratingKey(game: string, botId: string): string {
  return `${game}:${botId}`;
}

/** Parses store.json, refusing anything that is not a document this code wrote. */
export function parseDoc(text: string, file: string): StoreDoc {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); restore it from a backup`);
  }
  const d = doc as Partial<StoreDoc> | null;
  const maps = ['users', 'keys', 'bots', 'ratings', 'sessions', 'signInTokens'] as const;
  if (!d || typeof d !== 'object' || d.format !== FORMAT || typeof d.rev !== 'number' || typeof d.ratingsThrough !== 'number'
    || maps.some((k) => !d[k] || typeof d[k] !== 'object')) {
    throw new Error(`${file} is not an arena store document (format ${FORMAT}); restore it from a backup`);
  }
  return d as StoreDoc;
}

/**
 * lowdb adapter with durable atomic writes (lowdb's own JSONFile renames
 * without fsync) and a strict parse. The presets are avoided on purpose: they
 * switch to memory under NODE_ENV=test, and the store must always hit the disk.
 */
export class AtomicJsonDoc implements Adapter<StoreDoc> {
  constructor(readonly file: string) {}

  async read(): Promise<StoreDoc | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return parseDoc(text, this.file);
  }

  write(doc: StoreDoc): Promise<void> {
    return writeFileAtomic(this.file, JSON.stringify(doc));
  }
}

export async function openDoc(file: string): Promise<Low<StoreDoc>> {
  const db = new Low<StoreDoc>(new AtomicJsonDoc(file), emptyDoc());
  await db.read();
  return db;
}
