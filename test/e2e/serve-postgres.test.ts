// `arena serve` and `arena admin` on a real PostgreSQL database: --store and
// $ARENA_DATABASE_URL, migrations (--no-migrate, migrate-db), the platform key
// kept in the database, admin while servers run, two servers on one
// database, export/import counts, and an unreachable database.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPublicKey, generateKeyPair, signRequest } from '../../src/keys/index';
import { runCli } from '../support/run-cli';
import { openPgStore } from '../../src/service/store/pg-store';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/service/store/pg/migrations';
import { completed, ratingsFor, runningMatch } from '../service/store/store-fixtures';
import { usePostgres } from '../support/use-postgres';
import { startServe, stopServe } from '../support/serve-process';

const cluster = usePostgres();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-serve-pg-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// No data directory anywhere: HOME points at an empty directory, and nothing under it may appear.
const env = () => ({ HOME: join(dir, 'home'), ARENA_CONFIG_DIR: join(dir, 'config') });
const admin = (args: string[], extra: Record<string, string> = {}) =>
  runCli(['admin', ...args], { env: { ...env(), ...extra }, cwd: dir });

const pairs = new Map<string, ReturnType<typeof generateKeyPair>>();
function pubKeyFile(name: string): string {
  const file = join(dir, `${name}.pub`);
  const pair = generateKeyPair();
  pairs.set(name, pair);
  writeFileSync(file, formatPublicKey(pair.publicKey, 'ssh', name) + '\n');
  return file;
}

describe('serve and admin on PostgreSQL', () => {
  it('admin bootstraps a new database; two servers share it with one platform key; admin works while they run', async () => {
    const url = await cluster().createDatabase();
    const add = await admin(['user', 'add', '--email', 'ops@example.com', '--handle', 'ops', '--store', url]);
    expect(add.code, add.stderr).toBe(0);
    const key = await admin(['key', 'add', '--user', 'ops@example.com', '--public-key', pubKeyFile('ops')], {
      ARENA_DATABASE_URL: url,
    });
    expect(key.code, key.stderr).toBe(0);

    const a = await startServe(['--store', url, '--dev', '--port', '0', '--tick', '0'], env());
    const b = await startServe(['--dev', '--port', '0', '--tick', '0'], { ...env(), ARENA_DATABASE_URL: url });
    try {
      expect(a.stderr()).toContain(`database 127.0.0.1:${cluster().port}/`);
      expect(a.stderr()).not.toContain('data directory');
      expect(b.stderr()).toContain('from $ARENA_DATABASE_URL');
      expect(a.platformKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(b.platformKey).toBe(a.platformKey);
      const svc = await (await fetch(`${b.url}/.well-known/svc.json`)).json();
      expect(JSON.stringify(svc)).toContain(a.platformKey);
      // No lock: admin writes while both servers run, and both see it.
      const more = await admin(['user', 'add', '--email', 'ada@example.com', '--store', url]);
      expect(more.code, more.stderr).toBe(0);
      const users = await admin(['users', '--json', '--store', url]);
      expect(JSON.parse(users.stdout).users.map((u: { email: string }) => u.email)).toEqual([
        'ops@example.com',
        'ada@example.com',
      ]);
      expect((await fetch(`${a.url}/leaderboard`)).status).toBe(200);
      // A signed request answered by one server is a replay for the other: the replay check is in the database.
      const headers = signRequest(pairs.get('ops')!.privateKey, key.stdout.trim(), { method: 'GET', path: '/keys' });
      expect((await fetch(`${a.url}/keys`, { headers })).status).toBe(200);
      const replayed = await fetch(`${b.url}/keys`, { headers });
      expect(replayed.status).toBe(401);
      expect(JSON.stringify(await replayed.json())).toMatch(/replay|already/i);
      // Export from the live database.
      const out = await admin(['export', '--to', join(dir, 'export1'), '--store', url]);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toBe('2 users, 1 keys, 0 bots, 0 ratings, 0 matches, 0 sessions, 0 sign-in links\n');
    } finally {
      expect((await stopServe(a)).code).toBe(0);
      expect((await stopServe(b)).code).toBe(0);
    }
    // Import it elsewhere; a second import into the same database is refused and changes nothing.
    const url2 = await cluster().createDatabase();
    const imp = await admin(['import', '--from', join(dir, 'export1'), '--to', url2]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.stdout).toBe('2 users, 1 keys, 0 bots, 0 ratings, 0 matches, 0 sessions, 0 sign-in links\n');
    const twice = await admin(['import', '--from', join(dir, 'export1'), '--to', url2]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already holds rows in arena_users; import only into an empty database/);
    const c = await startServe(['--store', url2, '--dev', '--port', '0', '--tick', '0'], env());
    try {
      expect(c.platformKey).toBe(a.platformKey);
    } finally {
      await stopServe(c);
    }
    expect(existsSync(join(dir, 'home', '.local', 'share', 'arena'))).toBe(false);
  }, 120_000);

  it('one matchmaker per database: a second server with matchmaking on serves the API and leaves the matches to the first', async () => {
    const url = await cluster().createDatabase();
    const a = await startServe(['--store', url, '--dev', '--port', '0', '--tick', '1'], env());
    // A match the store has as running while the matchmaker lives (as if it ran it).
    const store = await openPgStore(url);
    const m = runningMatch(['b_x1', 'b_x2', 'b_x3']);
    await store.putMatch(m);
    try {
      const b = await startServe(['--store', url, '--dev', '--port', '0', '--tick', '1'], env());
      try {
        expect(a.stderr()).toContain('matchmaking every 1 s');
        expect(b.stderr()).toContain('matchmaking: another server on this database runs it');
        expect((await fetch(`${b.url}/leaderboard`)).status).toBe(200);
        // The second server did not take it for a dead process's match; nor does one without matchmaking.
        const d = await startServe(['--store', url, '--dev', '--port', '0', '--tick', '0'], env());
        await stopServe(d);
        expect((await store.getMatch(m.id))!.status).toBe('running');
      } finally {
        expect((await stopServe(b)).code).toBe(0);
      }
    } finally {
      expect((await stopServe(a)).code).toBe(0);
    }
    // The lease went with the first server: the next one is the matchmaker.
    const c = await startServe(['--store', url, '--dev', '--port', '0', '--tick', '1'], env());
    expect(c.stderr()).toContain('matchmaking every 1 s');
    expect((await stopServe(c)).code).toBe(0);
    // ...and, at its start, recorded the match its predecessor left running as aborted.
    expect((await store.getMatch(m.id))!.status).toBe('aborted');
    await store.close();
  }, 60_000);

  it("the leaderboard on a database: rated bots with their owners' handles, removed bots left out", async () => {
    const url = await cluster().createDatabase();
    const store = await openPgStore(url);
    const ann = await store.createUser({ email: 'ann@example.com', name: 'ann' });
    const bob = await store.createUser({ email: 'bob@example.com', name: 'bob' });
    const ids = [];
    for (const [owner, name] of [
      [ann, 'x'],
      [bob, 'y'],
      [ann, 'z'],
    ] as const)
      ids.push((await store.addBot({ ownerId: owner.id, name, game: 'pioneers', url: `wss://${name}.example/` })).id);
    const m = runningMatch(ids);
    await store.completeMatch(completed(m), ratingsFor(m));
    await store.removeBot(ids[2]);
    await store.close();
    const s = await startServe(['--store', url, '--dev', '--port', '0', '--tick', '0'], env());
    try {
      const body = (await (await fetch(`${s.url}/leaderboard`)).json()) as { rows: Array<Record<string, unknown>> };
      expect(body.rows.map(({ rating: _r, ...row }) => row)).toEqual([
        { rank: 1, botId: ids[0], name: 'x', owner: 'ann', gamesPlayed: 1 },
        { rank: 2, botId: ids[1], name: 'y', owner: 'bob', gamesPlayed: 1 },
      ]);
      expect(body.rows[0].rating).toBe(3.3);
    } finally {
      await stopServe(s);
    }
  }, 60_000);

  it('--no-migrate refuses and names what is pending; migrate-db migrates once; then --no-migrate starts', async () => {
    const url = await cluster().createDatabase();
    const refused = await runCli(['serve', '--store', url, '--no-migrate', '--dev', '--port', '0'], {
      env: env(),
      cwd: dir,
    });
    expect(refused.code).toBe(1);
    const names = MIGRATIONS.map((m) => `${String(m.version).padStart(4, '0')}-${m.name}`);
    expect(refused.stderr).toContain(
      `schema is version 0, this arena needs ${SCHEMA_VERSION}; pending: ${names.join(', ')}.`,
    );
    const m1 = await admin(['migrate-db', '--store', url]);
    expect(m1.code, m1.stderr).toBe(0);
    expect(m1.stdout).toBe(names.map((n) => `applied ${n}\n`).join(''));
    const m2 = await admin(['migrate-db'], { ARENA_DATABASE_URL: url });
    expect(m2.stdout).toBe('');
    expect(m2.stderr).toContain(`already at schema version ${SCHEMA_VERSION}; nothing to do`);
    const s = await startServe(['--store', url, '--no-migrate', '--dev', '--port', '0', '--tick', '0'], env());
    await stopServe(s);
  }, 60_000);

  it('an unreachable database: one line naming the host (never the password), exit 1', async () => {
    const port = cluster().port + 1;
    for (const args of [
      ['serve', '--dev', '--port', '0'],
      ['admin', 'users'],
      ['admin', 'migrate-db'],
    ]) {
      const r = await runCli([...args, '--store', `postgres://arena:hunter2@127.0.0.1:${port}/arena`], {
        env: env(),
        cwd: dir,
      });
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`cannot reach the database at 127.0.0.1:${port}/arena`);
      expect(r.stderr).not.toContain('hunter2');
    }
  });

  it('bad --store values are usage errors', async () => {
    const r = await runCli(['admin', 'users', '--store', '/srv/arena'], { env: env(), cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--store takes a PostgreSQL URL/);
    const both = await runCli(['admin', 'users', '--store', cluster().url(), '--data', dir], { env: env(), cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/not both/);
  });
});
