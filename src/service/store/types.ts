// The service's storage contract. Routes and the scheduler talk to this
// interface only; the file store (lowdb + one file per match) implements it,
// and a contract suite in test/service/store-contract.ts runs against any
// implementation (a PostgreSQL one later).
import type { ApiKeyMeta, Bot, MatchRecord, User } from '../../protocol';

export interface UserRecord extends User {
  createdAt: string;
}

/** An API key as stored: the public metadata plus its owner. */
export interface KeyRecord extends ApiKeyMeta {
  userId: string;
}

/** A bot as stored. Removed bots stay (old match records name them) but are hidden from their owner's lists. */
export interface BotRecord extends Bot {
  removedAt: string | null;
}

/** Weng-Lin rating of one bot in one game. */
export interface RatingRecord {
  botId: string;
  game: 'pioneers';
  mu: number;
  sigma: number;
  gamesPlayed: number;
}

/** A dashboard session; only a hash of the cookie's token is stored. */
export interface SessionRecord {
  tokenHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

/** A single-use e-mail sign-in link; only a hash of its token is stored. */
export interface SignInTokenRecord {
  tokenHash: string;
  email: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** A match as stored: the arena's record plus the bot ids seated (for queries). */
export type StoredMatch = MatchRecord;

export interface MatchQuery {
  game?: 'pioneers';
  status?: MatchRecord['status'];
  botId?: string;
  /** 1..100 */
  limit: number;
  /** Opaque, from a previous page's `next`. */
  cursor?: string | null;
}

export interface MatchPage {
  matches: StoredMatch[];
  next: string | null;
}

/** Thrown by the store when a uniqueness rule (handle, e-mail, ids) would break. */
export class StoreConflict extends Error {
  constructor(
    readonly what: string,
    message: string,
  ) {
    super(message);
    this.name = 'StoreConflict';
  }
}

/** Thrown when the data directory is held by another process. */
export class StoreLocked extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number | null,
  ) {
    super(`the data directory ${dir} is in use by another arena process${pid ? ` (pid ${pid})` : ''}; stop it first, or use another --data`);
    this.name = 'StoreLocked';
  }
}

/**
 * Every method is atomic and durable when its promise resolves (a 2xx may be
 * sent after it), except touchKey, which may be batched.
 */
export interface Store {
  // Users
  createUser(input: { email: string; name?: string }): Promise<UserRecord>;
  getUser(id: string): Promise<UserRecord | null>;
  getUserByEmail(email: string): Promise<UserRecord | null>;
  /** Throws StoreConflict('handle') when another user has it. */
  setHandle(userId: string, handle: string): Promise<UserRecord>;
  listUsers(): Promise<UserRecord[]>;

  // API keys
  addKey(input: Omit<KeyRecord, 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>): Promise<KeyRecord>;
  getKey(id: string): Promise<KeyRecord | null>;
  listKeys(userId: string): Promise<KeyRecord[]>;
  /** Revoking twice keeps the first time. */
  revokeKey(id: string): Promise<KeyRecord>;
  /** Remembers the last use; may be flushed later (no write per request). */
  touchKey(id: string, at: string): void;

  // Bots
  addBot(input: Pick<BotRecord, 'ownerId' | 'name' | 'game' | 'url'>): Promise<BotRecord>;
  /** Includes removed bots (records name them). */
  getBot(id: string): Promise<BotRecord | null>;
  /** The owner's bots that are not removed, oldest first. */
  listBots(ownerId: string, game?: 'pioneers'): Promise<BotRecord[]>;
  updateBot(id: string, patch: Partial<Pick<BotRecord, 'name' | 'url' | 'status'>>): Promise<BotRecord>;
  removeBot(id: string): Promise<void>;
  /** Every `active`, not removed bot of the game (the scheduler's pool). */
  listActiveBots(game: 'pioneers'): Promise<BotRecord[]>;

  // Sessions and sign-in links
  addSignInToken(rec: SignInTokenRecord): Promise<void>;
  /** Marks it used and returns it, or null when unknown, used or expired. Single use. */
  consumeSignInToken(tokenHash: string, now: string): Promise<SignInTokenRecord | null>;
  addSession(rec: SessionRecord): Promise<void>;
  getSession(tokenHash: string): Promise<SessionRecord | null>;
  deleteSession(tokenHash: string): Promise<void>;

  // Ratings and matches
  getRating(botId: string, game: 'pioneers'): Promise<RatingRecord | null>;
  listRatings(game: 'pioneers'): Promise<RatingRecord[]>;
  /** Stores a new or updated match (running, or aborted). */
  putMatch(match: StoredMatch): Promise<void>;
  /** The completed match and its seats' new ratings, in one atomic step. */
  completeMatch(match: StoredMatch, ratings: RatingRecord[]): Promise<void>;
  getMatch(id: string): Promise<StoredMatch | null>;
  listMatches(query: MatchQuery): Promise<MatchPage>;

  /** A consistent copy of the whole store into an empty or new directory. */
  backup(dir: string): Promise<void>;
  /** Flushes pending touches and releases the lock. */
  close(): Promise<void>;
}
