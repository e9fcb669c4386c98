// The Store on PostgreSQL (`arena serve --store postgres://…`). Unlike the
// file store it takes no lock: any number of servers and `arena admin`
// commands may use one database at once, and every write that is one step in
// the file store is one statement or one transaction here (a completed match
// with its ratings; a sign-in link's count and add). Tables: pg/sql/.
// Modules: pg/connect.ts (pool, errors), pg/db.ts (queries, transactions),
// pg/migrations.ts, pg/rows.ts (rows as records), pg/matches.ts,
// pg/sign-in.ts, pg/platform-key.ts, pg/matchmaker.ts (one matchmaker per
// database), pg/url.ts (URLs without the driver).
import type pg from 'pg';
import { newId } from './ids';
import { describeTarget, isUniqueViolation, openPool } from './pg/connect';
import { Db } from './pg/db';
import * as matches from './pg/matches';
import * as ownerData from './pg/owner-data';
import * as challenges from './pg/challenges';

import * as webhooks from './pg/webhooks';
import * as botVersions from './pg/bot-versions';
import { newBotRecord } from './bot-versions';
import type { BotStrikePage } from '../../protocol';
import { MigrationsPending, migrate, pendingMigrations, type Migration } from './pg/migrations';
import { BOT_COLS, botOf, botRow, KEY_COLS, keyOf, USER_COLS, userOf } from './pg/rows';
import * as signIn from './pg/sign-in';
import {
  StoreConflict,
  StoreNotFound,
  type BotPatch,
  type BotRecord,
  type ChallengeLimits,
  type ChallengeOutcome,
  type ChallengeRecord,
  type KeyRecord,
  type HeadToHeadRow,
  type MatchPage,
  type MatchQuery,
  type MatchSummaryPage,
  type OwnerMatchData,
  type WebhookDeliveryPatch,
  type WebhookDeliveryRecord,
  type WebhookRecord,
  type QualificationOutcome,
  type RatingRecord,
  type SessionRecord,
  type SignInTokenRecord,
  type Store,
  type StoredMatch,
  type StrikeQuery,
  type UserRecord,
} from './types';

export interface PgStoreOptions {
  /** Apply pending migrations at open (default); false refuses with MigrationsPending. */
  migrate?: boolean;
  now?: () => Date;
  /** How often batched key touches are written (ms). */
  touchFlushMs?: number;
  poolSize?: number;
}

/** Thrown when the database cannot be reached at open: the message names the host, never the password. */
export class DatabaseUnreachable extends Error {
  constructor(
    readonly target: string,
    cause: unknown,
  ) {
    super(
      `cannot reach the database at ${target}: ${(cause as Error)?.message || (cause as { code?: string })?.code || String(cause)}`,
    );
    this.name = 'DatabaseUnreachable';
  }
}

/** Connects, checks the schema (migrating unless told not to) and returns the store. */
export async function openPgStore(url: string, opts: PgStoreOptions = {}): Promise<PgStore> {
  const pool = openPool(url, opts.poolSize);
  try {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw new DatabaseUnreachable(describeTarget(url), err);
    }
    let applied: Migration[] = [];
    // A lost connection emits 'error' on the checked-out client as well as failing the query (see pg/db.ts).
    const heard = () => {};
    client.on('error', heard);
    try {
      if (opts.migrate === false) {
        const { dbVersion, pending } = await pendingMigrations(client);
        if (pending.length > 0) throw new MigrationsPending(dbVersion, pending);
      }
    } finally {
      client.off('error', heard);
      client.release();
    }
    if (opts.migrate !== false) applied = await migrate(pool);
    return new PgStore(new Db(pool, url), applied, opts);
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
}

const lower = (email: string) => email.trim().toLowerCase();

export class PgStore implements Store {
  private readonly touches = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  private closing: Promise<void> | null = null;
  private readonly now: () => Date;

  /** @internal use openPgStore */
  constructor(
    readonly db: Db,
    /** The migrations this open applied (for the start-up line). */
    readonly applied: Migration[],
    opts: PgStoreOptions = {},
  ) {
    this.now = opts.now ?? (() => new Date());
    this.timer = setInterval(() => void this.flushTouches().catch(() => {}), opts.touchFlushMs ?? 5_000);
    this.timer.unref();
  }

  get target(): string {
    return this.db.target;
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private live(): void {
    if (this.closing) throw new Error('the store is closed');
  }

  // ---- users ----

  async createUser(input: { email: string; name?: string }): Promise<UserRecord> {
    this.live();
    const email = typeof input?.email === 'string' ? input.email.trim() : '';
    if (!email) throw new TypeError('email is required');
    const name = input.name ?? '';
    const user: UserRecord = { id: newId('u'), name, email, createdAt: this.stamp() };
    try {
      await this.db.query(
        `INSERT INTO arena_users (id, name, email, email_key, created_at) VALUES ($1, $2, $3, $4, $5)`,
        [user.id, name, email, lower(email), user.createdAt],
      );
    } catch (err) {
      if (isUniqueViolation(err)) {
        if (err.constraint === 'arena_users_handle') throw new StoreConflict('handle', `the handle ${name} is taken`);
        throw new StoreConflict('email', `a user with the e-mail ${email} exists`);
      }
      throw err;
    }
    return user;
  }

  async getUser(id: string): Promise<UserRecord | null> {
    this.live();
    const r = await this.db.query(`SELECT ${USER_COLS} FROM arena_users WHERE id = $1`, [String(id)]);
    return r.rows[0] ? userOf(r.rows[0]) : null;
  }

  async getUserByEmail(email: string): Promise<UserRecord | null> {
    this.live();
    const r = await this.db.query(`SELECT ${USER_COLS} FROM arena_users WHERE email_key = $1`, [lower(String(email))]);
    return r.rows[0] ? userOf(r.rows[0]) : null;
  }

  async setHandle(userId: string, handle: string): Promise<UserRecord> {
    this.live();
    let r;
    try {
      r = await this.db.query(`UPDATE arena_users SET name = $2 WHERE id = $1 RETURNING ${USER_COLS}`, [
        String(userId),
        handle,
      ]);
    } catch (err) {
      if (isUniqueViolation(err)) throw new StoreConflict('handle', `the handle ${handle} is taken`);
      throw err;
    }
    if (!r.rows[0]) throw new StoreNotFound('user', userId);
    return userOf(r.rows[0]);
  }

  async listUsers(): Promise<UserRecord[]> {
    this.live();
    return (await this.db.query(`SELECT ${USER_COLS} FROM arena_users ORDER BY seq`)).rows.map(userOf);
  }

  // ---- keys ----

  async addKey(input: Omit<KeyRecord, 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>): Promise<KeyRecord> {
    this.live();
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
    return this.db.tx(async (sql) => {
      const owner = await sql('SELECT 1 FROM arena_users WHERE id = $1 FOR SHARE', [String(input.userId)]);
      if (!owner.rows[0]) throw new StoreNotFound('user', input.userId);
      // A public key belongs to one user: signatures name no key, so two
      // owners of one key could each replay the other's requests. The lock
      // makes concurrent adds of one public key take turns.
      await sql(`SELECT pg_advisory_xact_lock(hashtext('arena-key:' || $1))`, [key.publicKey]);
      const other = await sql('SELECT 1 FROM arena_keys WHERE public_key = $1 AND user_id <> $2 LIMIT 1', [
        key.publicKey,
        key.userId,
      ]);
      if (other.rows[0]) throw new StoreConflict('public_key', 'this public key belongs to another user');
      await sql(`INSERT INTO arena_keys (${KEY_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
        key.id,
        key.name,
        key.publicKey,
        JSON.stringify(key.scopes),
        key.createdAt,
        null,
        null,
        key.userId,
      ]);
      return { ...key, scopes: [...key.scopes] };
    });
  }

  private withTouch(key: KeyRecord): KeyRecord {
    const at = this.touches.get(key.id);
    if (at && (!key.lastUsedAt || Date.parse(at) > Date.parse(key.lastUsedAt))) key.lastUsedAt = at;
    return key;
  }

  async getKey(id: string): Promise<KeyRecord | null> {
    this.live();
    const r = await this.db.query(`SELECT ${KEY_COLS} FROM arena_keys WHERE id = $1`, [String(id)]);
    return r.rows[0] ? this.withTouch(keyOf(r.rows[0])) : null;
  }

  async listKeys(userId: string): Promise<KeyRecord[]> {
    this.live();
    const r = await this.db.query(`SELECT ${KEY_COLS} FROM arena_keys WHERE user_id = $1 ORDER BY seq`, [
      String(userId),
    ]);
    return r.rows.map((row) => this.withTouch(keyOf(row)));
  }

  async revokeKey(id: string): Promise<KeyRecord> {
    this.live();
    // COALESCE: revoking twice keeps the first time, even when two run at once.
    const r = await this.db.query(
      `UPDATE arena_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${KEY_COLS}`,
      [String(id), this.stamp()],
    );
    if (!r.rows[0]) throw new StoreNotFound('key', id);
    return this.withTouch(keyOf(r.rows[0]));
  }

  touchKey(id: string, at: string): void {
    if (this.closing || typeof id !== 'string' || Number.isNaN(Date.parse(at))) return;
    const prev = this.touches.get(id);
    if (!prev || Date.parse(at) > Date.parse(prev)) this.touches.set(id, at);
  }

  /** Writes batched touches; a later time never moves back, whichever process wrote first. */
  async flushTouches(): Promise<void> {
    if (this.touches.size === 0) return;
    const batch = [...this.touches];
    await this.db.query(
      `UPDATE arena_keys k SET last_used_at = t.at FROM unnest($1::text[], $2::text[]) AS t(id, at)
       WHERE k.id = t.id AND (k.last_used_at IS NULL OR k.last_used_at::timestamptz < t.at::timestamptz)`,
      [batch.map(([id]) => id), batch.map(([, at]) => at)],
    );
    for (const [id, at] of batch) if (this.touches.get(id) === at) this.touches.delete(id);
  }

  // ---- bots ----

  async addBot(
    input: Pick<BotRecord, 'ownerId' | 'name' | 'game' | 'url'> & { qualify?: boolean },
  ): Promise<BotRecord> {
    this.live();
    const bot = newBotRecord(newId('b'), input, this.stamp());
    try {
      await this.db.query(
        `INSERT INTO arena_bots (${BOT_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        botRow(bot),
      );
    } catch (err) {
      if ((err as { code?: string }).code === '23503') throw new StoreNotFound('user', input.ownerId);
      throw err;
    }
    return bot;
  }

  async getBot(id: string): Promise<BotRecord | null> {
    this.live();
    const r = await this.db.query(`SELECT ${BOT_COLS} FROM arena_bots WHERE id = $1`, [String(id)]);
    return r.rows[0] ? botOf(r.rows[0]) : null;
  }

  async getBots(ids: string[]): Promise<BotRecord[]> {
    this.live();
    return (
      await this.db.query(`SELECT ${BOT_COLS} FROM arena_bots WHERE id = ANY($1::text[])`, [ids.map(String)])
    ).rows.map(botOf);
  }

  async getUsers(ids: string[]): Promise<UserRecord[]> {
    this.live();
    return (
      await this.db.query(`SELECT ${USER_COLS} FROM arena_users WHERE id = ANY($1::text[])`, [ids.map(String)])
    ).rows.map(userOf);
  }

  async listBots(ownerId: string, game?: 'pioneers'): Promise<BotRecord[]> {
    this.live();
    const r = await this.db.query(
      `SELECT ${BOT_COLS} FROM arena_bots WHERE owner_id = $1 AND removed_at IS NULL AND ($2::text IS NULL OR game = $2) ORDER BY seq`,
      [String(ownerId), game ?? null],
    );
    return r.rows.map(botOf);
  }

  async updateBot(id: string, patch: BotPatch): Promise<BotRecord> {
    this.live();
    if (patch.status !== undefined && patch.status !== 'active' && patch.status !== 'paused') {
      throw new TypeError(`status must be active or paused, got ${JSON.stringify(patch.status)}`);
    }
    // Only these fields: a patch can never move a bot to another owner. Resuming ('active')
    // returns to what the qualification says (bot-versions.ts qualifiedStatus), in the same statement.
    const r = await this.db.query(
      `UPDATE arena_bots SET name = COALESCE($2, name), url = COALESCE($3, url), challengeable = COALESCE($5, challengeable),
         status = CASE WHEN $4::text IS NULL THEN status WHEN $4 = 'paused' THEN 'paused'
                       WHEN qualification IS NULL THEN 'active'
                       WHEN qualification::json->>'state' IN ('qualifying', 'failed') THEN qualification::json->>'state'
                       ELSE 'active' END
       WHERE id = $1 AND removed_at IS NULL RETURNING ${BOT_COLS}`,
      [
        String(id),
        patch.name ?? null,
        patch.url ?? null,
        patch.status ?? null,
        typeof patch.challengeable === 'boolean' ? patch.challengeable : null,
      ],
    );
    if (!r.rows[0]) throw new StoreNotFound('bot', id);
    return botOf(r.rows[0]);
  }

  async startBotVersion(id: string, input: { url?: string; qualify: boolean }): Promise<BotRecord> {
    this.live();
    return botVersions.startBotVersion(this.db, String(id), input, this.stamp());
  }

  async requalifyBot(id: string): Promise<BotRecord> {
    this.live();
    return botVersions.requalifyBot(this.db, String(id), this.stamp());
  }

  async finishQualification(id: string, version: number, outcome: QualificationOutcome): Promise<BotRecord | null> {
    this.live();
    return botVersions.finishQualification(this.db, String(id), version, outcome, this.stamp());
  }

  async listQualifyingBots(game: 'pioneers'): Promise<BotRecord[]> {
    this.live();
    const r = await this.db.query(
      `SELECT ${BOT_COLS} FROM arena_bots WHERE game = $1 AND status = 'qualifying' AND removed_at IS NULL ORDER BY seq`,
      [game],
    );
    return r.rows.map(botOf);
  }

  async removeBot(id: string): Promise<void> {
    this.live();
    const r = await this.db.query('UPDATE arena_bots SET removed_at = COALESCE(removed_at, $2) WHERE id = $1', [
      String(id),
      this.stamp(),
    ]);
    if (r.rowCount === 0) throw new StoreNotFound('bot', id);
  }

  async listActiveBots(game: 'pioneers'): Promise<BotRecord[]> {
    this.live();
    const r = await this.db.query(
      `SELECT ${BOT_COLS} FROM arena_bots WHERE game = $1 AND status = 'active' AND removed_at IS NULL ORDER BY seq`,
      [game],
    );
    return r.rows.map(botOf);
  }

  // ---- challenges ----

  async addChallenge(
    input: Pick<ChallengeRecord, 'ownerId' | 'botId' | 'opponents'>,
    ttlMs: number,
    limits: ChallengeLimits,
  ): Promise<ChallengeRecord> {
    this.live();
    return challenges.addChallenge(this.db, input, ttlMs, limits, this.now());
  }

  async listChallenges(ownerId: string, limit: number): Promise<ChallengeRecord[]> {
    this.live();
    return challenges.listChallenges(this.db, ownerId, limit);
  }

  async listPendingChallenges(): Promise<ChallengeRecord[]> {
    this.live();
    return challenges.listPendingChallenges(this.db);
  }

  async settleChallenge(id: string, outcome: ChallengeOutcome): Promise<ChallengeRecord | null> {
    this.live();
    return challenges.settleChallenge(this.db, id, outcome, this.stamp());
  }

  // ---- sign-in links and sessions ----

  async addSignInToken(rec: SignInTokenRecord, maxOpen?: number): Promise<{ added: true; replaced: number }> {
    this.live();
    return signIn.addSignInToken(this.db, rec, maxOpen, this.stamp());
  }

  async getSignInToken(tokenHash: string, now: string): Promise<SignInTokenRecord | null> {
    this.live();
    return signIn.getSignInToken(this.db, tokenHash, now);
  }

  async consumeSignInToken(tokenHash: string, now: string): Promise<SignInTokenRecord | null> {
    this.live();
    return signIn.consumeSignInToken(this.db, tokenHash, now);
  }

  async addSession(rec: SessionRecord): Promise<void> {
    this.live();
    return signIn.addSession(this.db, rec, this.stamp());
  }

  async getSession(tokenHash: string, now?: string): Promise<SessionRecord | null> {
    this.live();
    return signIn.getSession(this.db, tokenHash, now);
  }

  async deleteSession(tokenHash: string): Promise<void> {
    this.live();
    return signIn.deleteSession(this.db, tokenHash);
  }

  // ---- ratings and matches ----

  async getRating(botId: string, game: 'pioneers'): Promise<RatingRecord | null> {
    this.live();
    return matches.getRating(this.db, String(botId), game);
  }

  async listRatings(game: 'pioneers'): Promise<RatingRecord[]> {
    this.live();
    return matches.listRatings(this.db, game);
  }

  async putMatch(match: StoredMatch): Promise<void> {
    this.live();
    matches.checkMatch(match);
    if (match.status !== 'running' && match.status !== 'aborted')
      throw new TypeError(`putMatch stores running or aborted matches; use completeMatch for ${match.id}`);
    await this.db.tx((sql) => matches.writeMatch(sql, match, null));
  }

  async completeMatch(match: StoredMatch, ratings: RatingRecord[]): Promise<void> {
    this.live();
    matches.checkCompletion(match, ratings);
    await this.db.tx(async (sql) => {
      await matches.writeMatch(sql, match, ratings);
      await matches.writeRatings(sql, ratings);
    });
  }

  async getMatch(id: string): Promise<StoredMatch | null> {
    this.live();
    return matches.getMatch(this.db, id);
  }

  async listMatches(query: MatchQuery): Promise<MatchPage> {
    this.live();
    return matches.listMatches(this.db, query);
  }

  async listMatchSummaries(query: MatchQuery): Promise<MatchSummaryPage> {
    this.live();
    return matches.listMatchSummaries(this.db, query);
  }

  async headToHead(botId: string, game: 'pioneers'): Promise<HeadToHeadRow[]> {
    this.live();
    return matches.headToHead(this.db, String(botId), game);
  }

  async putOwnerMatchData(matchId: string, botId: string, data: OwnerMatchData): Promise<void> {
    this.live();
    await ownerData.putOwnerMatchData(this.db, matchId, botId, data);
  }

  async getOwnerMatchData(matchId: string, botId: string): Promise<OwnerMatchData | null> {
    this.live();
    return ownerData.getOwnerMatchData(this.db, matchId, botId);
  }

  async listBotStrikes(botId: string, query: StrikeQuery): Promise<BotStrikePage> {
    this.live();
    return ownerData.listBotStrikes(this.db, botId, query);
  }

  async addWebhook(input: Pick<WebhookRecord, 'ownerId' | 'url' | 'events'>, max: number): Promise<WebhookRecord> {
    this.live();
    return webhooks.addWebhook(this.db, input, max, this.stamp());
  }

  async getWebhook(id: string): Promise<WebhookRecord | null> {
    this.live();
    return webhooks.getWebhook(this.db, id);
  }

  async listWebhooks(ownerId: string): Promise<WebhookRecord[]> {
    this.live();
    return webhooks.listWebhooks(this.db, ownerId);
  }

  async removeWebhook(id: string): Promise<void> {
    this.live();
    await webhooks.removeWebhook(this.db, id);
  }

  async addWebhookDelivery(rec: WebhookDeliveryRecord, keep: number): Promise<boolean> {
    this.live();
    return webhooks.addWebhookDelivery(this.db, rec, keep);
  }

  async updateWebhookDelivery(id: string, patch: WebhookDeliveryPatch): Promise<boolean> {
    this.live();
    return webhooks.updateWebhookDelivery(this.db, id, patch);
  }

  async listWebhookDeliveries(webhookId: string): Promise<WebhookDeliveryRecord[]> {
    this.live();
    return webhooks.listWebhookDeliveries(this.db, webhookId);
  }

  async listPendingWebhookDeliveries(): Promise<WebhookDeliveryRecord[]> {
    this.live();
    return webhooks.listPendingWebhookDeliveries(this.db);
  }

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  // ---- backup and close ----

  async backup(dir: string): Promise<void> {
    this.live();
    const { exportStore } = await import('./export-store');
    await exportStore(this, dir);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.timer);
      try {
        await this.flushTouches();
      } finally {
        await this.db.pool.end();
      }
    })();
    return this.closing;
  }
}
