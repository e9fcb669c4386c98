// The store's main document (store.json): the small records. The file is a
// snapshot; changes since it was written are in the journal (journal.ts), and
// the full document lives in memory. Matches are not in it (match-log.ts), so
// its size follows users and bots, never the number of matches played.
//
// lowdb is gone from here: it reads and writes a document whole, which is the
// cost the journal removes. What is left (one strict parse, one durable
// replace with a crash hook between its steps) is a few lines of our own.
import type {
  BotRecord,
  ChallengeRecord,
  KeyRecord,
  RatingRecord,
  SessionRecord,
  SignInTokenRecord,
  UserRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from './types';
import { readTextIfExists } from '../../fs/read-if-exists';

export const DOC_FILE = 'store.json';
const FORMAT = 1;

export interface StoreDoc {
  format: typeof FORMAT;
  /** Incremented by every write (a journal entry is one write). */
  rev: number;
  users: Record<string, UserRecord>;
  keys: Record<string, KeyRecord>;
  bots: Record<string, BotRecord>;
  /** By `${game}:${botId}`. */
  ratings: Record<string, RatingRecord>;
  sessions: Record<string, SessionRecord>;
  signInTokens: Record<string, SignInTokenRecord>;
  /** By id; absent in documents written before challenges (read as empty). */
  challenges: Record<string, ChallengeRecord>;
  /** Absent in documents written before webhooks (parseDoc adds them empty). */
  webhooks: Record<string, WebhookRecord>;
  webhookDeliveries: Record<string, WebhookDeliveryRecord>;
  /**
   * Byte offset, in the match log, of the last completion whose ratings are in
   * this document (-1: none). Completions after it are re-applied at open.
   */
  ratingsThrough: number;
  /**
   * The last journal entry this snapshot includes (0: none; absent in
   * documents written before the journal). Entries up to it are skipped when
   * the journal is replayed, so replaying after a crash is idempotent.
   */
  journalSeq?: number;
}

export const COLLECTIONS = [
  'users',
  'keys',
  'bots',
  'ratings',
  'sessions',
  'signInTokens',
  'challenges',
  'webhooks',
  'webhookDeliveries',
] as const;
/** Collections added after format 1 was first written: a document without them has none yet. */
const LATER_COLLECTIONS = ['challenges', 'webhooks', 'webhookDeliveries'] as const;
export type Collection = (typeof COLLECTIONS)[number];

export function emptyDoc(): StoreDoc {
  return {
    format: FORMAT,
    rev: 0,
    users: {},
    keys: {},
    bots: {},
    ratings: {},
    sessions: {},
    signInTokens: {},
    challenges: {},
    webhooks: {},
    webhookDeliveries: {},
    ratingsThrough: -1,
    journalSeq: 0,
  };
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
  if (d && typeof d === 'object') for (const k of LATER_COLLECTIONS) d[k] ??= {};
  if (
    !d ||
    typeof d !== 'object' ||
    d.format !== FORMAT ||
    typeof d.rev !== 'number' ||
    typeof d.ratingsThrough !== 'number' ||
    (d.journalSeq !== undefined && !Number.isSafeInteger(d.journalSeq)) ||
    COLLECTIONS.some((k) => !d[k] || typeof d[k] !== 'object')
  ) {
    throw new Error(`${file} is not an arena store document (format ${FORMAT}); restore it from a backup`);
  }
  d.journalSeq ??= 0;
  return d as StoreDoc;
}

/** store.json, or null if there is none. */
export async function readDoc(file: string): Promise<StoreDoc | null> {
  const text = await readTextIfExists(file);
  return text === null ? null : parseDoc(text, file);
}
