// The Store on files in the data directory:
//   lock                    the writer's pid (lock.ts)
//   store.json              snapshot of users, keys, bots, ratings, sessions, sign-in links (doc.ts)
//   journal.<gen>.jsonl     the writes since that snapshot, one line each (journal.ts)
//   matches/index.log       one line per match write (match-log.ts)
//   matches/<id>.json       one file per match
// All writes go through one queue, so they reach the disk in the order they
// were made and each sees the previous one's result. The document is held in
// memory; a write appends what it changed to the journal (fsynced) and only
// then changes the document in memory, so it costs the size of the change.
// When the journal outgrows the snapshot (and a floor), compaction writes a
// new snapshot in the background (see compact()).
//
// completeMatch touches two files and must look atomic. Its match file also
// carries the seats' new ratings (after-values), and the document remembers the
// log offset of the last completion it applied (`ratingsThrough`). The order
// is: log line, match file, journal line (ratings + ratingsThrough). A crash
// before the match file lands leaves the old state (the log's unfinished last
// line is cut at open); a crash after it leaves a completion past
// `ratingsThrough`, and open re-applies its ratings. Setting after-values is
// idempotent, so re-applying is safe.
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { makeDir } from '../../fs/make-dir';
import { fsyncDir, tempPathFor, writeFileAtomic } from './atomic-write';
import { backupDataDir } from './backup';
import { DOC_FILE, emptyDoc, ratingKey, readDoc, type StoreDoc } from './doc';
import { Draft } from './draft';
import { HeadToHeadMemo } from './head-to-head';
import { isSafeId, newId } from './ids';
import {
  currentVersion,
  finishedQualification,
  nextVersion,
  newBotRecord,
  pendingQualification,
  qualifiedStatus,
  statusAfter,
} from './bot-versions';
import { applyEntry, journalFile, JournalWriter, listJournals, replayJournals, type Entry } from './journal';
import { acquireLock, type DirLock } from './lock';
import { LOG_FILE, MATCH_DIR } from './match-files';
import { isTerminal } from './match-index';
import { LogBroken, MatchLog, type PendingCompletion } from './match-log';
import { OwnerFiles } from './owner-files';
import type { BotStrikePage } from '../../protocol';
import {
  StoreConflict,
  StoreNotFound,
  type BotPatch,
  type BotRecord,
  type ChallengeLimits,
  type ChallengeOutcome,
  type ChallengeRecord,
  type QualificationOutcome,
  type KeyRecord,
  type HeadToHeadRow,
  type MatchPage,
  type MatchQuery,
  type MatchSummaryPage,
  type OwnerMatchData,
  type RatingRecord,
  type SessionRecord,
  type SignInTokenRecord,
  type Store,
  type StoredMatch,
  type StrikeQuery,
  type WebhookDeliveryPatch,
  type WebhookDeliveryRecord,
  type WebhookRecord,
  type UserRecord,
} from './types';

/** The steps of a compaction, in order; a crash test kills the process at each. */
export const COMPACT_STEPS = [
  'rotated',
  'snapshot-synced',
  'snapshot-renamed',
  'dir-synced',
  'journals-removed',
] as const;
export type CompactStep = (typeof COMPACT_STEPS)[number];

export interface FileStoreOptions {
  /** The clock for createdAt/revokedAt/removedAt and for pruning expired links and sessions. */
  now?: () => Date;
  /** Start a new, empty store even though the directory holds match files or a journal but no store.json. */
  init?: boolean;
  /** Compact once the journal passes this many bytes (or the snapshot's size, if larger). Default 8 MiB. */
  compactBytes?: number;
  /** Called after each step of a compaction (crash tests kill the process here). */
  onCompactStep?: (step: CompactStep) => void | Promise<void>;
}

const COMPACT_BYTES = 8 * 1024 * 1024;
const DAY_MS = 24 * 3600_000;
/** Expired links and sessions are dropped at most this often (a scan of them all). */
const PRUNE_EVERY_MS = 60_000;

/** store.json is missing but the directory holds a store's other files: starting would silently lose every account. */
export class StoreMissing extends Error {
  constructor(
    readonly dir: string,
    readonly found: string[],
  ) {
    super(
      `${join(dir, DOC_FILE)} is missing, but ${dir} holds ${found.join(' and ')}: the accounts, keys and bots would be lost. ` +
        'Restore the data directory from a copy made by `arena admin backup DIR` (stop the server, replace the directory with the copy), ' +
        'or start a new, empty store here with `arena serve --init`',
    );
    this.name = 'StoreMissing';
  }
}

/** What in `root` says a store was here (for when store.json is missing). */
export async function storeLeftovers(root: string): Promise<{ found: string[]; journals: number[] }> {
  const found: string[] = [];
  const log = await stat(join(root, MATCH_DIR, LOG_FILE)).catch(() => null);
  const files = log && log.size > 0 ? [] : await readdir(join(root, MATCH_DIR)).catch(() => [] as string[]);
  if ((log && log.size > 0) || files.some((f) => f.endsWith('.json'))) found.push(`${MATCH_DIR}/ (match records)`);
  const journals = await listJournals(root);
  if (journals.length) found.push(`a journal (${journals.map((g) => `journal.${g}.jsonl`).join(', ')})`);
  return { found, journals };
}

/**
 * Opens (creating on first start) the store in `dir`; fails with StoreLocked
 * if another process holds it, and with StoreMissing if store.json is gone but
 * the rest of a store is there (unless `init`).
 */
export async function openFileStore(dir: string, opts: FileStoreOptions = {}): Promise<FileStore> {
  const root = resolve(dir);
  await makeDir(root, 0o700);
  const lock = await acquireLock(root);
  let journal: JournalWriter | null = null;
  try {
    const docPath = join(root, DOC_FILE);
    await rm(tempPathFor(docPath), { force: true });
    let doc = await readDoc(docPath);
    if (!doc) {
      const left = await storeLeftovers(root);
      if (left.found.length && !opts.init) throw new StoreMissing(root, left.found);
      // --init: a journal without its snapshot cannot be replayed; keep it aside, never delete data.
      for (const g of left.journals) await rename(journalFile(root, g), `${journalFile(root, g)}.orphaned`);
      doc = emptyDoc();
      // Written before anything else, so a store that exists always has its store.json.
      await writeFileAtomic(docPath, JSON.stringify(doc));
    }
    const snapshotBytes = (await stat(docPath)).size;
    const replayed = await replayJournals(root, doc, true);
    journal = await JournalWriter.open(root, replayed.gen ?? 1, replayed.size);
    const { log, pending } = await MatchLog.open(root, doc.ratingsThrough);
    const store = new FileStore(root, { data: doc }, log, journal, lock, opts, replayed.bytes, snapshotBytes);
    try {
      await store.redoRatings(pending);
    } catch (err) {
      await log.close().catch(() => {});
      throw err;
    }
    return store;
  } catch (err) {
    await journal?.close().catch(() => {});
    await lock.release().catch(() => {});
    throw err;
  }
}

/** Oldest first; records made in the same millisecond keep their insertion order (a stable sort). */
function byCreated(a: { createdAt: string }, b: { createdAt: string }): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
}

function indexIn(index: Map<string, Set<string>>, key: string, id: string, add: boolean): void {
  let ids = index.get(key);
  if (add) {
    if (!ids) index.set(key, (ids = new Set()));
    ids.add(id);
  } else if (ids) {
    ids.delete(id);
    if (ids.size === 0) index.delete(key);
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
    const field = (rec as Record<string, unknown>)[k];
    // Most fields are strings, numbers or null: no call for them (listBots copies every bot).
    const v = typeof field === 'object' && field !== null ? copy(field) : field;
    // A key named __proto__ is data here, not the prototype.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
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
  if (!match || typeof match.id !== 'string' || !isSafeId(match.id))
    throw new TypeError(`match id must be 1-64 of A-Z a-z 0-9 _ -, got ${JSON.stringify(match?.id)}`);
  if (!Array.isArray(match.players) || match.players.some((p) => typeof p?.botId !== 'string'))
    throw new TypeError(`match ${match.id} has no valid players`);
  if (!Array.isArray(match.replay)) throw new TypeError(`match ${match.id} has no replay array`);
}

export class FileStore implements Store {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly owner: OwnerFiles;
  private closing: Promise<void> | null = null;
  private broken: Error | null = null;
  /** keyId -> lastUsedAt not yet in the journal: written with the next write, never one of its own. */
  private readonly touches = new Map<string, string>();
  /** Lower-cased e-mail and handle -> user id, so creating an account does not scan them all. */
  private readonly byEmail = new Map<string, string>();
  private readonly byHandle = new Map<string, string>();
  /** ownerId -> their bot ids, oldest first: listBots reads an owner's few, not every bot (bots never change owner). */
  private readonly botsByOwner = new Map<string, string[]>();
  /**
   * ownerId -> their challenge ids, oldest first; and the ids still pending, oldest first (the scheduler reads these
   * every tick).
   */
  private readonly challengesByOwner = new Map<string, string[]>();
  private readonly pendingChallenges = new Set<string>();

  /** ownerId -> webhook ids and webhookId -> delivery ids: an event reads its owner's few webhooks, not every one. */
  private readonly hooksByOwner = new Map<string, Set<string>>();
  private readonly deliveriesByHook = new Map<string, Set<string>>();
  private readonly now: () => Date;
  private lastPrune = -Infinity;
  private compaction: Promise<void> | null = null;
  private compactAt: number;
  /** Store.headToHead's tallies (head-to-head.ts), made at the first call. */
  private h2h: HeadToHeadMemo | null = null;
  /** Lets the next queued write start (see exclusive). */
  private release: () => void = () => {};

  /** @internal use openFileStore */
  constructor(
    readonly dir: string,
    private readonly db: { data: StoreDoc },
    private readonly log: MatchLog,
    private readonly journal: JournalWriter,
    private readonly lock: DirLock,
    private readonly opts: FileStoreOptions,
    /** Bytes in all journal files. */
    private journalBytes: number,
    snapshotBytes: number,
  ) {
    this.now = opts.now ?? (() => new Date());
    this.owner = new OwnerFiles(join(dir, MATCH_DIR));
    this.compactAt = Math.max(opts.compactBytes ?? COMPACT_BYTES, snapshotBytes);
    for (const u of Object.values(db.data.users)) this.indexUser(u, true);
    for (const b of Object.values(db.data.bots)) this.indexBot(b);
    const challenges = Object.values(db.data.challenges).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    for (const c of challenges) this.indexChallenge(c);
    for (const w of Object.values(db.data.webhooks)) indexIn(this.hooksByOwner, w.ownerId, w.id, true);
    for (const x of Object.values(db.data.webhookDeliveries)) indexIn(this.deliveriesByHook, x.webhookId, x.id, true);
  }

  private indexChallenge(c: ChallengeRecord): void {
    let ids = this.challengesByOwner.get(c.ownerId);
    if (!ids) this.challengesByOwner.set(c.ownerId, (ids = []));
    if (!ids.includes(c.id)) ids.push(c.id);
    if (c.status === 'pending') this.pendingChallenges.add(c.id);
    else this.pendingChallenges.delete(c.id);
  }

  /**
   * Keeps the webhook indexes in step with an entry: `add` false before it is applied (what goes), true after (what
   * comes).
   */
  private indexWebhooks(ops: Entry['o'], add: boolean): void {
    const live = this.db.data;
    for (const [coll, id, rec] of ops) {
      if (coll === 'webhooks') {
        const w = (add ? rec : own(live.webhooks, id)) as WebhookRecord | null | undefined;
        if (w) indexIn(this.hooksByOwner, w.ownerId, id, add);
      } else if (coll === 'webhookDeliveries') {
        const x = (add ? rec : own(live.webhookDeliveries, id)) as WebhookDeliveryRecord | null | undefined;
        if (x) indexIn(this.deliveriesByHook, x.webhookId, id, add);
      }
    }
  }

  private indexBot(b: BotRecord): void {
    let ids = this.botsByOwner.get(b.ownerId);
    if (!ids) this.botsByOwner.set(b.ownerId, (ids = []));
    if (!ids.includes(b.id)) ids.push(b.id);
  }

  private indexUser(u: UserRecord, add: boolean): void {
    const e = lower(u.email);
    if (add) {
      this.byEmail.set(e, u.id);
      if (u.name) this.byHandle.set(u.name, u.id);
    } else {
      if (this.byEmail.get(e) === u.id) this.byEmail.delete(e);
      if (u.name && this.byHandle.get(u.name) === u.id) this.byHandle.delete(u.name);
    }
  }

  // ---- the write path ----

  /**
   * Runs fn after every write queued before it; a failing fn does not stop the
   * queue. The next write may start before fn settles if fn calls release()
   * (commit does, once its change is in memory and its line is on its way).
   */
  private exclusive<T>(fn: () => Promise<T>, evenIfBroken = false): Promise<T> {
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const run = this.queue.then(() => {
      this.release = release;
      if (this.closed) throw new Error('the store is closed');
      if (this.broken && !evenIfBroken)
        throw new Error(`the store stopped writing after an earlier failure: ${this.broken.message}`);
      return fn();
    });
    this.queue = Promise.race([
      run.then(
        () => {},
        () => {},
      ),
      released,
    ]);
    run.then(release, release);
    return run;
  }

  /**
   * One write: fn edits a draft of the document (and may throw to change
   * nothing); what it changed, with pending key touches, becomes one journal
   * line. The document in memory changes at once, so the next write (which
   * may start now: `early`) sees it; this resolves once the line is durable,
   * and lines are durable in order, so a write never outlives one it saw.
   * Reads may see a change a moment before it is durable; a crash then loses
   * only writes that were never acknowledged. If an append fails, memory is
   * ahead of the disk: the store stops writing until it is reopened.
   */
  private async commit<T>(fn: (d: StoreDoc) => T, early = true): Promise<T> {
    const live = this.db.data;
    const draft = new Draft(live);
    const result = fn(draft.doc);
    const flushed = new Map(this.touches);
    for (const [id, at] of flushed) {
      const key = own(draft.doc.keys, id);
      if (key && (!key.lastUsedAt || Date.parse(at) > Date.parse(key.lastUsedAt))) key.lastUsedAt = at;
    }
    this.prune(draft.doc);
    const entry: Entry = { s: (live.journalSeq ?? 0) + 1, o: draft.ops() };
    if (draft.doc.ratingsThrough !== live.ratingsThrough) entry.rt = draft.doc.ratingsThrough;
    if (entry.o.length === 0 && entry.rt === undefined) return result;
    const line = `${JSON.stringify(entry)}\n`;
    const durable = this.journal.append(line);
    durable.catch((err: Error) => {
      this.broken ??= err;
    });
    this.journalBytes += Buffer.byteLength(line);
    for (const [coll, id] of entry.o)
      if (coll === 'users' && Object.hasOwn(live.users, id)) this.indexUser(live.users[id], false);
    this.indexWebhooks(entry.o, false);
    applyEntry(live, entry);
    this.indexWebhooks(entry.o, true);
    for (const [coll, _id, rec] of entry.o) if (coll === 'users' && rec) this.indexUser(rec as UserRecord, true);
    for (const [coll, , rec] of entry.o) if (coll === 'bots' && rec) this.indexBot(rec as BotRecord);
    for (const [coll, , rec] of entry.o) if (coll === 'challenges' && rec) this.indexChallenge(rec as ChallengeRecord);
    for (const [id, at] of flushed) if (this.touches.get(id) === at) this.touches.delete(id);
    if (!this.compaction && this.journalBytes >= this.compactAt) await this.startCompaction();
    if (early) this.release();
    await durable;
    return result;
  }

  private mutate<T>(fn: (d: StoreDoc) => T): Promise<T> {
    return this.exclusive(() => this.commit(fn));
  }

  /** Expired sign-in links and sessions are of no use: drop them on the way, now and then (it scans them all). */
  private prune(d: StoreDoc): void {
    const now = this.now().getTime();
    if (Math.abs(now - this.lastPrune) < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const live = this.db.data;
    for (const [h, t] of Object.entries(live.signInTokens))
      if (Date.parse(t.expiresAt) <= now) delete d.signInTokens[h];
    for (const [h, s] of Object.entries(live.sessions)) if (Date.parse(s.expiresAt) <= now) delete d.sessions[h];
  }

  // ---- compaction ----

  private async step(name: CompactStep): Promise<void> {
    await this.opts.onCompactStep?.(name);
  }

  /**
   * Inside the queue: freezes the document as text and moves appends to a new
   * journal file, then writes the snapshot in the background. Every step is
   * crash-safe: until the rename, store.json is the old snapshot and both
   * journal files replay onto it; after it, the new snapshot names the last
   * line it includes (journalSeq) and replay skips those lines in the old
   * file, which is removed last.
   */
  private async startCompaction(): Promise<void> {
    const text = JSON.stringify(this.db.data);
    const covered = this.journalBytes;
    let oldGen: number;
    try {
      oldGen = await this.journal.rotate();
    } catch {
      // The write that got here is in the journal all the same; compaction waits (an append failure has stopped the
      // store already).
      this.compactAt = this.journalBytes * 2;
      return;
    }
    await this.step('rotated');
    this.compaction = this.writeSnapshot(text, oldGen)
      .then(
        () => {
          this.journalBytes -= covered;
          this.compactAt = Math.max(this.opts.compactBytes ?? COMPACT_BYTES, Buffer.byteLength(text));
        },
        () => {
          // Left as it was (the old snapshot and the journal hold everything): try again after as much again.
          this.compactAt = this.journalBytes * 2;
        },
      )
      .finally(() => {
        this.compaction = null;
      });
  }

  private async writeSnapshot(text: string, oldGen: number): Promise<void> {
    const docPath = join(this.dir, DOC_FILE);
    const tmp = tempPathFor(docPath);
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(text);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await this.step('snapshot-synced');
    await rename(tmp, docPath);
    await this.step('snapshot-renamed');
    await fsyncDir(this.dir);
    await this.step('dir-synced');
    for (const g of await listJournals(this.dir)) if (g <= oldGen) await rm(journalFile(this.dir, g), { force: true });
    await fsyncDir(this.dir);
    await this.step('journals-removed');
  }

  /** @internal Waits for a compaction under way (tests). */
  async settled(): Promise<void> {
    await this.compaction;
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private get data(): StoreDoc {
    if (this.closed) throw new Error('the store is closed');
    return this.db.data;
  }

  /** @internal Re-applies completions the document missed (a crash between match file and journal line). */
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
      if (this.byEmail.has(lower(email))) throw new StoreConflict('email', `a user with the e-mail ${email} exists`);
      if (name && this.byHandle.has(name)) throw new StoreConflict('handle', `the handle ${name} is taken`);
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
    const id = this.byEmail.get(lower(String(email)));
    const u = id === undefined ? undefined : own(this.data.users, id);
    return u ? copy(u) : null;
  }

  setHandle(userId: string, handle: string): Promise<UserRecord> {
    return this.mutate((d) => {
      const user = own(d.users, userId);
      if (!user) throw new StoreNotFound('user', userId);
      const holder = this.byHandle.get(handle);
      if (holder !== undefined && holder !== userId) throw new StoreConflict('handle', `the handle ${handle} is taken`);
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
      // Scanned on the live document: reading through the draft would copy every key into the change.
      if (Object.values(this.db.data.keys).some((k) => k.publicKey === input.publicKey && k.userId !== input.userId)) {
        throw new StoreConflict('public_key', 'another account registered this public key');
      }
      const key: KeyRecord = {
        id: newId('k'),
        name: input.name,
        publicKey: input.publicKey,
        scopes: [...input.scopes],
        createdAt: this.stamp(),
        lastUsedAt: null,
        revokedAt: null,
        userId: input.userId,
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
    return Object.values(this.data.keys)
      .filter((k) => k.userId === userId)
      .map((k) => this.withTouch(k));
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

  addBot(input: Pick<BotRecord, 'ownerId' | 'name' | 'game' | 'url'> & { qualify?: boolean }): Promise<BotRecord> {
    return this.mutate((d) => {
      if (!own(d.users, input.ownerId)) throw new StoreNotFound('user', input.ownerId);
      const bot = newBotRecord(newId('b'), input, this.stamp());
      d.bots[bot.id] = bot;
      return copy(bot);
    });
  }

  async getBot(id: string): Promise<BotRecord | null> {
    const b = own(this.data.bots, id);
    return b ? copy(b) : null;
  }

  async listBots(ownerId: string, game?: 'pioneers'): Promise<BotRecord[]> {
    const bots = this.data.bots;
    return (this.botsByOwner.get(ownerId) ?? [])
      .map((id) => bots[id])
      .filter((b) => b && b.ownerId === ownerId && !b.removedAt && (game === undefined || b.game === game))
      .map(copy);
  }

  updateBot(id: string, patch: BotPatch): Promise<BotRecord> {
    if (patch.status !== undefined && patch.status !== 'active' && patch.status !== 'paused') {
      return Promise.reject(new TypeError(`status must be active or paused, got ${JSON.stringify(patch.status)}`));
    }
    return this.mutate((d) => {
      const bot = own(d.bots, id);
      if (!bot || bot.removedAt) throw new StoreNotFound('bot', id);
      // Only these three fields: a patch can never move a bot to another owner.
      if (patch.name !== undefined) bot.name = patch.name;
      if (patch.url !== undefined) bot.url = patch.url;
      // Resuming returns to what the qualification says: never past a qualifier not passed.
      if (patch.status !== undefined)
        bot.status = patch.status === 'paused' ? 'paused' : qualifiedStatus(bot.qualification);
      // Stored only when false, so records from before challenges and after read the same.
      if (patch.challengeable === false) bot.challengeable = false;
      else if (patch.challengeable === true) delete bot.challengeable;
      return copy(bot);
    });
  }

  startBotVersion(id: string, input: { url?: string; qualify: boolean }): Promise<BotRecord> {
    return this.mutate((d) => {
      const bot = own(d.bots, id);
      if (!bot || bot.removedAt) throw new StoreNotFound('bot', id);
      const key = ratingKey(bot.game, id);
      const at = this.stamp();
      const next = nextVersion(bot, own(d.ratings, key) ?? null, at);
      if (input.url !== undefined) bot.url = input.url;
      bot.version = next.version;
      bot.versions = next.versions;
      bot.qualification = input.qualify ? pendingQualification(next.version, at) : null;
      bot.status = statusAfter(bot, bot.qualification);
      if (next.rating) d.ratings[key] = next.rating;
      return copy(bot);
    });
  }

  requalifyBot(id: string): Promise<BotRecord> {
    return this.mutate((d) => {
      const bot = own(d.bots, id);
      if (!bot || bot.removedAt) throw new StoreNotFound('bot', id);
      if (bot.qualification?.state === 'qualifying')
        throw new StoreConflict('qualifying', `bot ${id} is waiting for its qualifier already`);
      bot.qualification = pendingQualification(currentVersion(bot), this.stamp());
      bot.status = statusAfter(bot, bot.qualification);
      return copy(bot);
    });
  }

  finishQualification(id: string, version: number, outcome: QualificationOutcome): Promise<BotRecord | null> {
    return this.mutate((d) => {
      const bot = own(d.bots, id);
      if (!bot) throw new StoreNotFound('bot', id);
      const q = finishedQualification(bot, version, outcome, this.stamp());
      if (!q) return null;
      bot.qualification = q;
      bot.status = statusAfter(bot, q);
      return copy(bot);
    });
  }

  async listQualifyingBots(game: 'pioneers'): Promise<BotRecord[]> {
    return Object.values(this.data.bots)
      .filter((b) => b.game === game && b.status === 'qualifying' && !b.removedAt)
      .map(copy);
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
    return Object.values(this.data.bots)
      .filter((b) => b.game === game && b.status === 'active' && !b.removedAt)
      .map(copy);
  }

  // ---- challenges ----

  addChallenge(
    input: Pick<ChallengeRecord, 'ownerId' | 'botId' | 'opponents'>,
    ttlMs: number,
    limits: ChallengeLimits,
  ): Promise<ChallengeRecord> {
    // One commit: the counts and the add cannot be split by a concurrent request.
    return this.mutate((d) => {
      if (!own(d.users, input.ownerId)) throw new StoreNotFound('user', input.ownerId);
      const now = this.now().getTime();
      const live = this.db.data.challenges;
      const mine = (this.challengesByOwner.get(input.ownerId) ?? []).map((id) => live[id]).filter(Boolean);
      const pending = mine.filter((c) => c.status === 'pending' && Date.parse(c.expiresAt) > now).length;
      if (pending >= limits.maxPending)
        throw new StoreConflict(
          'pending_challenges',
          `this account has ${pending} challenges waiting, the most it may have`,
        );
      const today = mine.filter((c) => Date.parse(c.createdAt) > now - DAY_MS).length;
      if (today >= limits.maxPerDay)
        throw new StoreConflict(
          'daily_challenges',
          `this account made ${today} challenges in the last 24 hours, the most it may`,
        );
      const rec: ChallengeRecord = {
        id: newId('c'),
        ownerId: input.ownerId,
        botId: input.botId,
        opponents: [...input.opponents],
        status: 'pending',
        matchId: null,
        reason: null,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + ttlMs).toISOString(),
        endedAt: null,
      };
      d.challenges[rec.id] = rec;
      return copy(rec);
    });
  }

  async listChallenges(ownerId: string, limit: number): Promise<ChallengeRecord[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new RangeError('limit must be 1..100');
    const live = this.data.challenges;
    return (this.challengesByOwner.get(ownerId) ?? [])
      .slice(-limit)
      .reverse()
      .map((id) => copy(live[id]));
  }

  async listPendingChallenges(): Promise<ChallengeRecord[]> {
    const live = this.data.challenges;
    return [...this.pendingChallenges].map((id) => copy(live[id]));
  }

  settleChallenge(id: string, outcome: ChallengeOutcome): Promise<ChallengeRecord | null> {
    return this.exclusive(async () => {
      const known = own(this.db.data.challenges, id);
      if (!known) throw new StoreNotFound('challenge', id);
      if (known.status !== 'pending') return null;
      return this.commit((d) => {
        const c = d.challenges[id];
        c.status = outcome.status;
        c.endedAt = this.stamp();
        if (outcome.status === 'played') c.matchId = outcome.matchId;
        else c.reason = outcome.reason;
        return copy(c);
      });
    });
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
        // Scanned on the live document (the draft would copy every link); deleted through the draft.
        const open = Object.values(this.db.data.signInTokens)
          .filter((t) => t.email === rec.email && !t.usedAt && Date.parse(t.expiresAt) > at)
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
        // A stranger's request must not spend the owner's allowance: the oldest links give way instead.
        for (const t of open.slice(0, Math.max(0, open.length - Math.max(1, maxOpen) + 1))) {
          delete d.signInTokens[t.tokenHash];
          replaced++;
        }
      }
      d.signInTokens[rec.tokenHash] = {
        tokenHash: rec.tokenHash,
        email: rec.email,
        createdAt: rec.createdAt,
        expiresAt: rec.expiresAt,
        usedAt: rec.usedAt ?? null,
      };
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
      d.sessions[rec.tokenHash] = {
        tokenHash: rec.tokenHash,
        userId: rec.userId,
        createdAt: rec.createdAt,
        expiresAt: rec.expiresAt,
      };
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
    return Object.values(this.data.ratings)
      .filter((r) => r.game === game)
      .map(copy);
  }

  putMatch(match: StoredMatch): Promise<void> {
    try {
      checkMatch(match);
      if (match.status !== 'running' && match.status !== 'aborted')
        throw new TypeError(`putMatch stores running or aborted matches; use completeMatch for ${match.id}`);
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
      if (match.status !== 'completed')
        throw new TypeError(`completeMatch needs a completed match, ${match.id} is ${match.status}`);
      const seated = new Set(match.players.map((p) => p.botId));
      for (const r of ratings) {
        if (!seated.has(r.botId) || r.game !== match.game)
          throw new TypeError(`rating of ${r.botId} (${r.game}) is not for a seat of ${match.id}`);
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
        // The match is final on disk but its ratings are not in the journal:
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
    const matches = await Promise.all(
      entries.map(async (e) => {
        const env = await this.log.envelope(e.id);
        if (!env) throw new Error(`match ${e.id} is indexed but its file is missing`);
        return env.match;
      }),
    );
    return { matches, next };
  }

  async listMatchSummaries(query: MatchQuery): Promise<MatchSummaryPage> {
    if (this.closed) throw new Error('the store is closed');
    const { entries, next } = this.log.index.query(query);
    return { matches: await Promise.all(entries.map((e) => this.log.summary(e))), next };
  }

  headToHead(botId: string, game: 'pioneers'): Promise<HeadToHeadRow[]> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    this.h2h ??= new HeadToHeadMemo(
      (id) => this.log.index.ofBot(id),
      (e) => this.log.summary(e),
    );
    return this.h2h.rows(botId, game);
  }

  // ---- the owners' private match data (owner-files.ts) ----

  putOwnerMatchData(matchId: string, botId: string, data: OwnerMatchData): Promise<void> {
    return this.exclusive(async () => {
      const entry = isSafeId(matchId) ? this.log.index.get(matchId) : undefined;
      if (!entry) throw new StoreNotFound('match', matchId);
      // The pair names a file: a bot id must be a safe one (ids.ts) as well as seated.
      if (!entry.bots.includes(botId) || !isSafeId(botId))
        throw new TypeError(`bot ${botId} is not seated in ${matchId}`);
      if (await this.owner.get(matchId, botId)) return; // first write wins
      await this.owner.ready();
      await this.owner.put(matchId, botId, data);
    });
  }

  async getOwnerMatchData(matchId: string, botId: string): Promise<OwnerMatchData | null> {
    if (this.closed) throw new Error('the store is closed');
    if (typeof matchId !== 'string' || typeof botId !== 'string') return null;
    return this.owner.get(matchId, botId);
  }

  async listBotStrikes(botId: string, query: StrikeQuery): Promise<BotStrikePage> {
    if (this.closed) throw new Error('the store is closed');
    if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 100)
      throw new RangeError(`limit must be 1..100, got ${query.limit}`);
    // The index is built once, in the write queue, so no append can slip between its scan and its use.
    if (!this.owner.isReady) await this.exclusive(() => this.owner.ready(), true);
    return this.owner.list(botId, query);
  }

  // ---- webhooks ----

  addWebhook(input: Pick<WebhookRecord, 'ownerId' | 'url' | 'events'>, max: number): Promise<WebhookRecord> {
    return this.mutate((d) => {
      if (!own(d.users, input.ownerId)) throw new StoreNotFound('user', input.ownerId);
      const have = this.hooksByOwner.get(input.ownerId)?.size ?? 0;
      if (have >= max) throw new StoreConflict('webhooks', `this account has ${have} webhooks, the most it may have`);
      const hook: WebhookRecord = {
        id: newId('wh'),
        ownerId: input.ownerId,
        url: input.url,
        events: [...input.events],
        createdAt: this.stamp(),
      };
      d.webhooks[hook.id] = hook;
      return copy(hook);
    });
  }

  async getWebhook(id: string): Promise<WebhookRecord | null> {
    const w = typeof id === 'string' ? own(this.data.webhooks, id) : undefined;
    return w ? copy(w) : null;
  }

  async listWebhooks(ownerId: string): Promise<WebhookRecord[]> {
    const hooks = this.data.webhooks;
    return [...(this.hooksByOwner.get(ownerId) ?? [])]
      .map((id) => hooks[id])
      .filter(Boolean)
      .sort(byCreated)
      .map(copy);
  }

  removeWebhook(id: string): Promise<void> {
    return this.exclusive(async () => {
      if (!own(this.db.data.webhooks, id)) return;
      await this.commit((d) => {
        delete d.webhooks[id];
        for (const x of this.deliveriesByHook.get(id) ?? []) delete d.webhookDeliveries[x];
      });
    });
  }

  addWebhookDelivery(rec: WebhookDeliveryRecord, keep: number): Promise<boolean> {
    return this.exclusive(async () => {
      if (!own(this.db.data.webhooks, rec.webhookId)) return false;
      if (own(this.db.data.webhookDeliveries, rec.id)) throw new StoreConflict('delivery', `delivery ${rec.id} exists`);
      // Newest first, the new one included: everything past `keep` goes.
      const older = this.deliveriesOf(rec.webhookId).reverse();
      await this.commit((d) => {
        d.webhookDeliveries[rec.id] = copy(rec);
        for (const x of older.slice(Math.max(0, keep - 1))) delete d.webhookDeliveries[x.id];
      });
      return true;
    });
  }

  updateWebhookDelivery(id: string, patch: WebhookDeliveryPatch): Promise<boolean> {
    return this.exclusive(async () => {
      if (!own(this.db.data.webhookDeliveries, id)) return false;
      await this.commit((d) => {
        const x = d.webhookDeliveries[id];
        x.status = patch.status;
        x.attempts = patch.attempts;
        x.lastAttemptAt = patch.lastAttemptAt;
        x.nextAttemptAt = patch.nextAttemptAt;
        x.responseStatus = patch.responseStatus;
        x.error = patch.error;
      });
      return true;
    });
  }

  async listWebhookDeliveries(webhookId: string): Promise<WebhookDeliveryRecord[]> {
    return this.deliveriesOf(webhookId).reverse().map(copy);
  }

  /** The webhook's deliveries, oldest first (live records: copy before handing out). */
  private deliveriesOf(webhookId: string): WebhookDeliveryRecord[] {
    const all = this.data.webhookDeliveries;
    return [...(this.deliveriesByHook.get(webhookId) ?? [])]
      .map((id) => all[id])
      .filter(Boolean)
      .sort(byCreated);
  }

  async listPendingWebhookDeliveries(): Promise<WebhookDeliveryRecord[]> {
    return Object.values(this.data.webhookDeliveries)
      .filter((x) => x.status === 'pending')
      .map(copy);
  }

  // ---- backup and close ----

  async backup(dir: string): Promise<void> {
    if (this.closed) throw new Error('the store is closed');
    // Holding the queue while the consistent part is read: no retries needed.
    // The copy's store.json is the document in memory (a compacted snapshot),
    // so a backup is one file plus matches/, as before the journal.
    await backupDataDir(this.dir, dir, {
      hold: (fn) =>
        this.exclusive(async () => {
          if (this.touches.size > 0) await this.commit(() => {}, false);
          await this.journal.drain();
          return fn(JSON.stringify(this.db.data));
        }),
    });
  }

  close(): Promise<void> {
    this.closing ??= this.exclusive(async () => {
      try {
        if (this.touches.size > 0 && !this.broken) await this.commit(() => {}, false);
      } finally {
        this.closed = true;
        await this.compaction;
        await this.journal.close().catch(() => {});
        await this.log.close().catch(() => {});
        await this.owner.close().catch(() => {});
        await this.lock.release();
      }
    }, true); // a store that stopped writing must still let go of its files and lock
    return this.closing;
  }
}
