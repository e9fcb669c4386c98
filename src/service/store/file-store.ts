// The Store on files in the data directory:
//   lock                    the writer's pid (lock.ts)
//   store.json              users, keys, bots, ratings, sessions, sign-in links (lowdb, doc.ts)
//   matches/index.log       one line per match write (match-log.ts)
//   matches/<id>.json       one file per match
// All writes go through one queue, so they reach the disk in the order they
// were made and each sees the previous one's result.
//
// completeMatch touches two files and must look atomic. Its match file also
// carries the seats' new ratings (after-values), and store.json remembers the
// log offset of the last completion it applied (`ratingsThrough`). The order
// is: log line, match file, store.json. A crash before the match file lands
// leaves the old state (the log's unfinished last line is cut at open); a
// crash after it leaves a completion past `ratingsThrough`, and open re-applies
// its ratings. Setting after-values is idempotent, so re-applying is safe.
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { makeDir } from '../../fs/make-dir';
import type { Low } from 'lowdb';
import { tempPathFor } from './atomic-write';
import { backupDataDir } from './backup';
import { DOC_FILE, openDoc, ratingKey, type StoreDoc } from './doc';
import { isSafeId, newId } from './ids';
import { acquireLock, type DirLock } from './lock';
import { isTerminal } from './match-index';
import { LogBroken, MatchLog, type PendingCompletion } from './match-log';
import {
  StoreConflict,
  StoreNotFound,
  type BotRecord,
  type KeyRecord,
  type MatchPage,
  type MatchQuery,
  type MatchSummaryPage,
  type RatingRecord,
  type SessionRecord,
  type SignInTokenRecord,
  type Store,
  type StoredMatch,
  type UserRecord,
} from './types';

export interface FileStoreOptions {
  /** The clock for createdAt/revokedAt/removedAt and for pruning expired links and sessions. */
  now?: () => Date;
}

/** Opens (creating on first start) the store in `dir`; fails with StoreLocked if another process holds it. */
export async function openFileStore(dir: string, opts: FileStoreOptions = {}): Promise<FileStore> {
  const root = resolve(dir);
  await makeDir(root, 0o700);
  const lock = await acquireLock(root);
  try {
    const docPath = join(root, DOC_FILE);
    await rm(tempPathFor(docPath), { force: true });
    const db = await openDoc(docPath);
    const { log, pending } = await MatchLog.open(root, db.data.ratingsThrough);
    const store = new FileStore(root, db, log, lock, opts.now ?? (() => new Date()));
    try {
      await store.redoRatings(pending);
    } catch (err) {
      await log.close().catch(() => {});
      throw err;
    }
    return store;
  } catch (err) {
    await lock.release().catch(() => {});
    throw err;
  }
}

function own<T>(map: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/**
 * A caller's own copy of a stored record, so it cannot change the store by
 * editing what it got. Records are plain JSON (the document is JSON), and this
 * is several times cheaper than structuredClone, which signed requests paid
 * for twice (the key, then each bot).
 */
function copy<T>(rec: T): T {
  if (Array.isArray(rec)) return rec.map(copy) as T;
  if (typeof rec !== 'object' || rec === null) return rec;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(rec)) {
    const v = copy((rec as Record<string, unknown>)[k]);
    // A key named __proto__ is data here, not the prototype.
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out as T;
}

const lower = (email: string) => email.trim().toLowerCase();

// Token hashes become keys of the document: keep them to plain URL-safe text.
const SAFE_HASH = /^[A-Za-z0-9_+/=-]{8,256}$/;
function checkHash(tokenHash: string): void {
  if (typeof tokenHash !== 'string' || !SAFE_HASH.test(tokenHash) || tokenHash === '__proto__') {
    throw new TypeError('token hash must be 8-256 characters of base64 or hex');
  }
}

function checkMatch(match: StoredMatch): void {
  if (!match || typeof match.id !== 'string' || !isSafeId(match.id)) throw new TypeError(`match id must be 1-64 of A-Z a-z 0-9 _ -, got ${JSON.stringify(match?.id)}`);
  if (!Array.isArray(match.players) || match.players.some((p) => typeof p?.botId !== 'string')) throw new TypeError(`match ${match.id} has no valid players`);
  if (!Array.isArray(match.replay)) throw new TypeError(`match ${match.id} has no replay array`);
}

export class FileStore implements Store {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private closing: Promise<void> | null = null;
  private broken: Error | null = null;
  /** keyId -> lastUsedAt not yet in store.json. */
  private readonly touches = new Map<string, string>();

  /** @internal use openFileStore */
  constructor(
    readonly dir: string,
    private readonly db: Low<StoreDoc>,
    private readonly log: MatchLog,
    private readonly lock: DirLock,
    private readonly now: () => Date,
  ) {}

  // ---- the write path ----

  /** Runs fn after every write queued before it; a failing fn does not stop the queue. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.closed) throw new Error('the store is closed');
      if (this.broken) throw new Error(`the store stopped writing after an earlier failure: ${this.broken.message}`);
      return fn();
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Changes store.json: fn edits a copy (and may throw to change nothing); the
   * copy, with pending key touches, becomes the document once it is on disk.
   */
  private async commit<T>(fn: (d: StoreDoc) => T): Promise<T> {
    const draft = structuredClone(this.db.data);
    const result = fn(draft);
    const flushed = new Map(this.touches);
    for (const [id, at] of flushed) {
      const key = own(draft.keys, id);
      if (key && (!key.lastUsedAt || Date.parse(at) > Date.parse(key.lastUsedAt))) key.lastUsedAt = at;
    }
    this.prune(draft);
    draft.rev++;
    await this.db.adapter.write(draft);
    this.db.data = draft;
    for (const [id, at] of flushed) if (this.touches.get(id) === at) this.touches.delete(id);
    return result;
  }

  private mutate<T>(fn: (d: StoreDoc) => T): Promise<T> {
    return this.exclusive(() => this.commit(fn));
  }

  /** Expired sign-in links and sessions are of no use: drop them on the way. */
  private prune(d: StoreDoc): void {
    const now = this.now().getTime();
    for (const [h, t] of Object.entries(d.signInTokens)) if (Date.parse(t.expiresAt) <= now) delete d.signInTokens[h];
    for (const [h, s] of Object.entries(d.sessions)) if (Date.parse(s.expiresAt) <= now) delete d.sessions[h];
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private get data(): StoreDoc {
    if (this.closed) throw new Error('the store is closed');
    return this.db.data;
  }

  /** @internal Re-applies completions the document missed (a crash between match file and store.json). */
  async redoRatings(pending: PendingCompletion[]): Promise<void> {
    if (pending.length === 0) return;
    const envs: { id: string; off: number; ratings: RatingRecord[] }[] = [];
    for (const p of pending) {
      const env = await this.log.envelope(p.id);
      if (!env) throw new Error(`match ${p.id} is in the match log but its file is missing; restore from a backup`);
      envs.push({ ...p, ratings: env.ratings ?? [] });
    }
    await this.mutate((d) => {
      for (const e of envs) {
        for (const r of e.ratings) d.ratings[ratingKey(r.game, r.botId)] = r;
        d.ratingsThrough = e.off;
      }
    });
  }

  // ---- users ----

  createUser(input: { email: string; name?: string }): Promise<UserRecord> {
    const email = typeof input?.email === 'string' ? input.email.trim() : '';
    if (!email) return Promise.reject(new TypeError('email is required'));
    const name = input.name ?? '';
    return this.mutate((d) => {
      const users = Object.values(d.users);
      if (users.some((u) => lower(u.email) === lower(email))) throw new StoreConflict('email', `a user with the e-mail ${email} exists`);
      if (name && users.some((u) => u.name === name)) throw new StoreConflict('handle', `the handle ${name} is taken`);
      const user: UserRecord = { id: newId('u'), name, email, createdAt: this.stamp() };
      d.users[user.id] = user;
      return copy(user);
    });
  }

  async getUser(id: string): Promise<UserRecord | null> {
    const u = own(this.data.users, id);
    return u ? copy(u) : null;
  }

  async getUserByEmail(email: string): Promise<UserRecord | null> {
    const want = lower(String(email));
    const u = Object.values(this.data.users).find((x) => lower(x.email) === want);
    return u ? copy(u) : null;
  }

  setHandle(userId: string, handle: string): Promise<UserRecord> {
    return this.mutate((d) => {
      const user = own(d.users, userId);
      if (!user) throw new StoreNotFound('user', userId);
      if (Object.values(d.users).some((u) => u.id !== userId && u.name === handle)) throw new StoreConflict('handle', `the handle ${handle} is taken`);
      user.name = handle;
      return copy(user);
    });
  }

  async listUsers(): Promise<UserRecord[]> {
    return Object.values(this.data.users).map(copy);
  }

  // ---- keys ----

  addKey(input: Omit<KeyRecord, 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>): Promise<KeyRecord> {
    return this.mutate((d) => {
      if (!own(d.users, input.userId)) throw new StoreNotFound('user', input.userId);
      // A signature names no server or account: one public key, one account (revoked keys included).
      if (Object.values(d.keys).some((k) => k.publicKey === input.publicKey && k.userId !== input.userId)) {
        throw new StoreConflict('public_key', 'another account registered this public key');
      }
      const key: KeyRecord = {
        id: newId('k'), name: input.name, publicKey: input.publicKey, scopes: [...input.scopes],
        createdAt: this.stamp(), lastUsedAt: null, revokedAt: null, userId: input.userId,
      };
      d.keys[key.id] = key;
      return copy(key);
    });
  }

  private withTouch(key: KeyRecord): KeyRecord {
    const out = copy(key);
    const at = this.touches.get(key.id);
    if (at && (!out.lastUsedAt || Date.parse(at) > Date.parse(out.lastUsedAt))) out.lastUsedAt = at;
    return out;
  }

  async getKey(id: string): Promise<KeyRecord | null> {
    const k = own(this.data.keys, id);
    return k ? this.withTouch(k) : null;
  }

  async listKeys(userId: string): Promise<KeyRecord[]> {
    return Object.values(this.data.keys).filter((k) => k.userId === userId).map((k) => this.withTouch(k));
  }

  revokeKey(id: string): Promise<KeyRecord> {
    return this.exclusive(async () => {
      const known = own(this.db.data.keys, id);
      if (!known) throw new StoreNotFound('key', id);
      if (known.revokedAt) return this.withTouch(known);
      return this.commit((d) => {
        d.keys[id].revokedAt = this.stamp();
        return this.withTouch(d.keys[id]);
      });
    });
  }

  touchKey(id: string, at: string): void {
    if (this.closed || !own(this.db.data.keys, id) || Number.isNaN(Date.parse(at))) return;
    const prev = this.touches.get(id);
    if (!prev || Date.parse(at) > Date.parse(prev)) this.touches.set(id, at);
  }

  // ---- bots ----

  addBot(input: Pick<BotRecord, 'ownerId' | 'name' | 'game' | 'url'>): Promise<BotRecord> {
    return this.mutate((d) => {
      if (!own(d.users, input.ownerId)) throw new StoreNotFound('user', input.ownerId);
      const bot: BotRecord = {
        id: newId('b'), ownerId: input.ownerId, name: input.name, game: input.game, url: input.url,
        status: 'active', createdAt: this.stamp(), removedAt: null,
      };
      d.bots[bot.id] = bot;
      return copy(bot);
    });
  }

  async getBot(id: string): Promise<BotRecord | null> {
    const b = own(this.data.bots, id);
    return b ? copy(b) : null;
  }

  async listBots(ownerId: string, game?: 'pioneers'): Promise<BotRecord[]> {
    return Object.values(this.data.bots)
      .filter((b) => b.ownerId === ownerId && !b.removedAt && (game === undefined || b.game === game))
      .map(copy);
  }

  updateBot(id: string, patch: Partial<Pick<BotRecord, 'name' | 'url' | 'status'>>): Promise<BotRecord> {
    if (patch.status !== undefined && patch.status !== 'active' && patch.status !== 'paused') {
      return Promise.reject(new TypeError(`status must be active or paused, got ${JSON.stringify(patch.status)}`));
    }
    return this.mutate((d) => {
      const bot = own(d.bots, id);
      if (!bot || bot.removedAt) throw new StoreNotFound('bot', id);
      // Only these three fields: a patch can never move a bot to another owner.
      if (patch.name !== undefined) bot.name = patch.name;
      if (patch.url !== undefined) bot.url = patch.url;
      if (patch.status !== undefined) bot.status = patch.status;
      return copy(bot);
    });
  }

  removeBot(id: string): Promise<void> {
    return this.exclusive(async () => {
      const known = own(this.db.data.bots, id);
      if (!known) throw new StoreNotFound('bot', id);
      if (known.removedAt) return;
      await this.commit((d) => {
        d.bots[id].removedAt = this.stamp();
      });
    });
  }

  async listActiveBots(game: 'pioneers'): Promise<BotRecord[]> {
    return Object.values(this.data.bots).filter((b) => b.game === game && b.status === 'active' && !b.removedAt).map(copy);
  }

  // ---- sign-in links and sessions ----

  addSignInToken(rec: SignInTokenRecord, maxOpen?: number): Promise<{ added: true; replaced: number }> {
    try {
      checkHash(rec.tokenHash);
    } catch (err) {
      return Promise.reject(err);
    }
    // One commit: concurrent requests for one address never leave more than maxOpen open.
    return this.mutate((d) => {
      if (own(d.signInTokens, rec.tokenHash)) throw new StoreConflict('token', 'this sign-in token exists');
      let replaced = 0;
      if (maxOpen !== undefined) {
        const at = Date.parse(rec.createdAt);
        const open = Object.values(d.signInTokens)
          .filter((t) => t.email === rec.email && !t.usedAt && Date.parse(t.expiresAt) > at)
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
        // A stranger's request must not spend the owner's allowance: the oldest links give way instead.
        for (const t of open.slice(0, Math.max(0, open.length - Math.max(1, maxOpen) + 1))) {
          delete d.signInTokens[t.tokenHash];
          replaced++;
        }
      }
      d.signInTokens[rec.tokenHash] = { tokenHash: rec.tokenHash, email: rec.email, createdAt: rec.createdAt, expiresAt: rec.expiresAt, usedAt: rec.usedAt ?? null };
      return { added: true as const, replaced };
    });
  }

  async getSignInToken(tokenHash: string, now: string): Promise<SignInTokenRecord | null> {
    const t = own(this.data.signInTokens, tokenHash);
    if (!t || t.usedAt || Date.parse(t.expiresAt) <= Date.parse(now)) return null;
    return copy(t);
  }

  consumeSignInToken(tokenHash: string, now: string): Promise<SignInTokenRecord | null> {
    // Inside the queue: of two concurrent uses of one link, exactly one wins.
    return this.exclusive(async () => {
      const t = own(this.db.data.signInTokens, tokenHash);
      if (!t || t.usedAt || Date.parse(t.expiresAt) <= Date.parse(now)) return null;
      return this.commit((d) => {
        d.signInTokens[tokenHash].usedAt = now;
        return copy(d.signInTokens[tokenHash]);
      });
    });
  }

  addSession(rec: SessionRecord): Promise<void> {
    try {
      checkHash(rec.tokenHash);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.mutate((d) => {
      if (own(d.sessions, rec.tokenHash)) throw new StoreConflict('session', 'this session exists');
      d.sessions[rec.tokenHash] = { tokenHash: rec.tokenHash, userId: rec.userId, createdAt: rec.createdAt, expiresAt: rec.expiresAt };
    });
  }

  async getSession(tokenHash: string, now?: string): Promise<SessionRecord | null> {
    const s = own(this.data.sessions, tokenHash);
    if (!s) return null;
    if (now !== undefined && Date.parse(s.expiresAt) <= Date.parse(now)) return null;
    return copy(s);
  }

  deleteSession(tokenHash: string): Promise<void> {
    return this.exclusive(async () => {
      if (!own(this.db.data.sessions, tokenHash)) return;
      await this.commit((d) => {
        delete d.sessions[tokenHash];
      });
    });
  }

  // ---- ratings and matches ----

  async getRating(botId: string, game: 'pioneers'): Promise<RatingRecord | null> {
    const r = own(this.data.ratings, ratingKey(game, botId));
    return r ? copy(r) : null;
  }

  async listRatings(game: 'pioneers'): Promise<RatingRecord[]> {
    return Object.values(this.data.ratings).filter((r) => r.game === game).map(copy);
  }

  putMatch(match: StoredMatch): Promise<void> {
    try {
      checkMatch(match);
      if (match.status !== 'running' && match.status !== 'aborted') throw new TypeError(`putMatch stores running or aborted matches; use completeMatch for ${match.id}`);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.exclusive(async () => {
      this.refuseFinal(match.id);
      await this.writeMatch(match, null);
    });
  }

  completeMatch(match: StoredMatch, ratings: RatingRecord[]): Promise<void> {
    try {
      checkMatch(match);
      if (match.status !== 'completed') throw new TypeError(`completeMatch needs a completed match, ${match.id} is ${match.status}`);
      const seated = new Set(match.players.map((p) => p.botId));
      for (const r of ratings) {
        if (!seated.has(r.botId) || r.game !== match.game) throw new TypeError(`rating of ${r.botId} (${r.game}) is not for a seat of ${match.id}`);
      }
    } catch (err) {
      return Promise.reject(err);
    }
    return this.exclusive(async () => {
      this.refuseFinal(match.id);
      const off = await this.writeMatch(match, ratings);
      try {
        await this.commit((d) => {
          for (const r of ratings) d.ratings[ratingKey(r.game, r.botId)] = copy(r);
          d.ratingsThrough = off;
        });
      } catch (err) {
        // The match is final on disk but its ratings are not in store.json:
        // only a reopen (which re-applies them) makes the two agree again.
        this.broken = err as Error;
        throw err;
      }
    });
  }

  private refuseFinal(id: string): void {
    const known = this.log.index.get(id);
    if (known && isTerminal(known.status)) throw new StoreConflict('match', `match ${id} is already ${known.status}`);
  }

  private async writeMatch(match: StoredMatch, ratings: RatingRecord[] | null): Promise<number> {
    try {
      const { off } = await this.log.write(match, ratings);
      return off;
    } catch (err) {
      if (err instanceof LogBroken) this.broken = err;
      throw err;
    }
  }

  async getMatch(id: string): Promise<StoredMatch | null> {
    if (this.closed) throw new Error('the store is closed');
    if (typeof id !== 'string' || !isSafeId(id) || !this.log.index.get(id)) return null;
    const env = await this.log.envelope(id);
    return env ? env.match : null;
  }

  async listMatches(query: MatchQuery): Promise<MatchPage> {
    if (this.closed) throw new Error('the store is closed');
    const { entries, next } = this.log.index.query(query);
    const matches = await Promise.all(entries.map(async (e) => {
      const env = await this.log.envelope(e.id);
      if (!env) throw new Error(`match ${e.id} is indexed but its file is missing`);
      return env.match;
    }));
    return { matches, next };
  }

  async listMatchSummaries(query: MatchQuery): Promise<MatchSummaryPage> {
    if (this.closed) throw new Error('the store is closed');
    const { entries, next } = this.log.index.query(query);
    return { matches: await Promise.all(entries.map((e) => this.log.summary(e))), next };
  }

  // ---- backup and close ----

  async backup(dir: string): Promise<void> {
    if (this.closed) throw new Error('the store is closed');
    // Holding the queue while the copy's consistent part is read: no retries needed.
    await backupDataDir(this.dir, dir, { hold: (fn) => this.exclusive(async () => {
      if (this.touches.size > 0) await this.commit(() => {});
      return fn();
    }) });
  }

  close(): Promise<void> {
    this.closing ??= this.exclusive(async () => {
      try {
        if (this.touches.size > 0 && !this.broken) await this.commit(() => {});
      } finally {
        this.closed = true;
        await this.log.close().catch(() => {});
        await this.lock.release();
      }
    });
    return this.closing;
  }
}
