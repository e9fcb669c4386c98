// What only the Postgres store has: migrations and the schema version, many
// processes on one database, the platform key in the database, and the new
// sign-in-link and public-key rules (until the contract carries them).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, MigrationsPending, SCHEMA_VERSION, SchemaTooNew } from '../../../src/service/store/pg/migrations';
import { loadOrCreateDbPlatformKey } from '../../../src/service/store/pg/platform-key';
import { DatabaseUnreachable, openPgStore } from '../../../src/service/store/pg-store';
import { StoreConflict } from '../../../src/service/store/types';
import { usePostgres } from '../../support/use-postgres';
import { completed, ratingsFor, runningMatch } from './store-fixtures';

const cluster = usePostgres();
const PUBKEY = Buffer.alloc(32, 7).toString('base64');
const iso = (ms: number) => new Date(ms).toISOString();
const hash = (s: string) => Buffer.from(s.padEnd(16, '.')).toString('hex');

async function sql(url: string, text: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}

describe('Postgres store', () => {
  it('migration 3 keeps bots stored before it active at version 1, with no qualification', async () => {
    const url = await cluster().createDatabase();
    const { MIGRATIONS } = await import('../../../src/service/store/pg/migrations');
    await sql(
      url,
      'CREATE TABLE arena_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const m of MIGRATIONS.filter((x) => x.version <= 2))
      await sql(url, `${m.sql}; INSERT INTO arena_schema (version, name) VALUES (${m.version}, '${m.name}')`);
    await sql(
      url,
      `INSERT INTO arena_users (id, name, email, email_key, created_at) VALUES ('u_1', 'old', 'old@example.com', 'old@example.com', '2026-01-01T00:00:00.000Z')`,
    );
    await sql(
      url,
      `INSERT INTO arena_bots (id, owner_id, name, game, url, status, created_at, removed_at) VALUES ('b_1', 'u_1', 'old', 'pioneers', 'wss://old.example/', 'active', '2026-01-01T00:00:00.000Z', NULL)`,
    );
    const store = await openPgStore(url);
    try {
      expect(await store.getBot('b_1')).toMatchObject({ status: 'active', version: 1, qualification: null });
      expect((await store.listActiveBots('pioneers')).map((b) => b.id)).toEqual(['b_1']);
    } finally {
      await store.close();
    }
  });

  it('migrates a new database at open; --no-migrate refuses one behind and names what is pending', async () => {
    const url = await cluster().createDatabase();
    const err = await openPgStore(url, { migrate: false }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MigrationsPending);
    // Every migration, named by its number and name (0001-initial, 0002-owner-data, ...).
    const names = MIGRATIONS.map((m) => `${String(m.version).padStart(4, '0')}-${m.name}`);
    expect(names.slice(0, 2)).toEqual(['0001-initial', '0002-owner-data']);
    expect((err as Error).message).toContain(
      `version 0, this arena needs ${SCHEMA_VERSION}; pending: ${names.join(', ')}.`,
    );
    // It changed nothing.
    expect((await sql(url, `SELECT to_regclass('arena_users')::text AS t`)).rows[0].t).toBeNull();
    const s = await openPgStore(url);
    expect(s.applied.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
    await s.close();
    const again = await openPgStore(url, { migrate: false });
    expect(again.applied).toEqual([]);
    await again.close();
  });

  it('refuses a schema newer than this program, saying both versions', async () => {
    const url = await cluster().createDatabase();
    await (await openPgStore(url)).close();
    await sql(url, `INSERT INTO arena_schema (version, name) VALUES (${SCHEMA_VERSION + 1}, 'future')`);
    for (const migrate of [true, false]) {
      const err = await openPgStore(url, { migrate }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SchemaTooNew);
      expect((err as Error).message).toContain(
        `version ${SCHEMA_VERSION + 1}, newer than this arena's ${SCHEMA_VERSION}`,
      );
    }
  });

  it("two stores (two processes) on one database: no lock, each sees the other's writes; concurrent migrations take turns", async () => {
    const url = await cluster().createDatabase();
    const [a, b] = await Promise.all([openPgStore(url), openPgStore(url)]);
    try {
      expect([a.applied.length, b.applied.length].sort()).toEqual([0, SCHEMA_VERSION]);
      const u = await a.createUser({ email: 'ann@example.com', name: 'ann' });
      expect(await b.getUser(u.id)).toEqual(u);
      const bots = [];
      for (let i = 0; i < 3; i++)
        bots.push((await b.addBot({ ownerId: u.id, name: `b${i}`, game: 'pioneers', url: `wss://b${i}.example/` })).id);
      const m = runningMatch(bots);
      await a.putMatch(m);
      const done = completed(m);
      // The same completion from both: exactly one lands, with its ratings.
      const results = await Promise.allSettled([
        a.completeMatch(done, ratingsFor(done)),
        b.completeMatch(done, ratingsFor(done, 2)),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason).toBeInstanceOf(StoreConflict);
      const played = (await a.listRatings('pioneers')).map((r) => r.gamesPlayed);
      expect(new Set(played).size).toBe(1);
      // A touch made in one process reaches the other once flushed.
      const k = await a.addKey({ userId: u.id, name: 'k', publicKey: PUBKEY, scopes: ['bots.read'] });
      a.touchKey(k.id, '2030-01-01T00:00:00.000Z');
      await a.flushTouches();
      expect((await b.getKey(k.id))!.lastUsedAt).toBe('2030-01-01T00:00:00.000Z');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('batch reads: getBots and getUsers answer the ids that exist, removed bots included', async () => {
    const store = await openPgStore(await cluster().createDatabase());
    try {
      const a = await store.createUser({ email: 'a@example.com', name: 'ann' });
      const b = await store.createUser({ email: 'b@example.com' });
      const x = await store.addBot({ ownerId: a.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' });
      const y = await store.addBot({ ownerId: b.id, name: 'y', game: 'pioneers', url: 'wss://y.example/' });
      await store.removeBot(y.id);
      const bots = await store.getBots([x.id, y.id, 'b_nope', x.id]);
      expect(bots.map((r) => r.id).sort()).toEqual([x.id, y.id].sort());
      expect(bots.find((r) => r.id === y.id)).toEqual(await store.getBot(y.id));
      expect(await store.getUsers([a.id, 'u_nope'])).toEqual([a]);
      expect(await store.getBots([])).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('keeps one platform key in the database, made once', async () => {
    const url = await cluster().createDatabase();
    const [a, b] = await Promise.all([openPgStore(url), openPgStore(url)]);
    try {
      const [ka, kb] = await Promise.all([loadOrCreateDbPlatformKey(a.db), loadOrCreateDbPlatformKey(b.db)]);
      expect(ka.publicKeyBase64).toBe(kb.publicKeyBase64);
      expect([ka.created, kb.created].filter(Boolean)).toHaveLength(1);
      expect((await loadOrCreateDbPlatformKey(a.db)).publicKeyBase64).toBe(ka.publicKeyBase64);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('an unreachable database: one error naming the host, not the password', async () => {
    const port = cluster().port;
    // A loopback port nothing listens on: the cluster's own port plus one is taken by nothing we start.
    const err = await openPgStore(`postgres://arena:secret-pw@127.0.0.1:${port + 1}/nope`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DatabaseUnreachable);
    expect((err as Error).message).toContain(`127.0.0.1:${port + 1}/nope`);
    expect((err as Error).message).not.toContain('secret-pw');
  });

  describe('the new rules', () => {
    it('with maxOpen a new link replaces the oldest open one, atomically, even for concurrent asks', async () => {
      const url = await cluster().createDatabase();
      const store = await openPgStore(url);
      try {
        const now = Date.now();
        const link = (t: string, at: number) => ({
          tokenHash: hash(t),
          email: 'full@example.com',
          createdAt: iso(at),
          expiresAt: iso(at + 15 * 60_000),
          usedAt: null,
        });
        expect(await store.addSignInToken(link('m1', now), 2)).toEqual({ added: true, replaced: 0 });
        expect(await store.addSignInToken(link('m2', now + 1000), 2)).toEqual({ added: true, replaced: 0 });
        expect(await store.addSignInToken(link('m3', now + 2000), 2)).toEqual({ added: true, replaced: 1 });
        // The oldest (m1) no longer works; the two newest do.
        expect(await store.consumeSignInToken(hash('m1'), iso(now + 3000))).toBeNull();
        const results = await Promise.all(['m4', 'm5', 'm6'].map((t) => store.addSignInToken(link(t, now + 4000), 2)));
        expect(results.every((r) => r.added)).toBe(true);
        const open = (
          await sql(
            url,
            `SELECT count(*)::int AS n FROM arena_sign_in_tokens WHERE email = 'full@example.com' AND used_at IS NULL`,
          )
        ).rows[0].n;
        expect(open).toBe(2);
        // A used link leaves room.
        await store.consumeSignInToken(hash('m6'), iso(now + 5000));
        expect((await store.addSignInToken(link('m7', now + 6000), 2)).replaced).toBeLessThanOrEqual(1);
      } finally {
        await store.close();
      }
    });

    it('a public key belongs to one user: another user adding it (revoked or not) conflicts; the owner may add it again', async () => {
      const url = await cluster().createDatabase();
      const store = await openPgStore(url);
      try {
        const a = await store.createUser({ email: 'a@example.com' });
        const b = await store.createUser({ email: 'b@example.com' });
        const k = await store.addKey({ userId: a.id, name: 'laptop', publicKey: PUBKEY, scopes: ['bots.read'] });
        await store.addKey({ userId: a.id, name: 'again', publicKey: PUBKEY, scopes: ['bots.read'] });
        const err = await store.addKey({ userId: b.id, name: 'stolen', publicKey: PUBKEY, scopes: ['bots.read'] }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(StoreConflict);
        expect((err as StoreConflict).what).toBe('public_key');
        await store.revokeKey(k.id);
        await expect(
          store.addKey({ userId: b.id, name: 'stolen', publicKey: PUBKEY, scopes: ['bots.read'] }),
        ).rejects.toBeInstanceOf(StoreConflict);
        expect(await store.listKeys(b.id)).toEqual([]);
      } finally {
        await store.close();
      }
    });
  });
});
