// The file store: the Store contract on a real temp directory, plus what only
// files have: persistence across reopen, the lock, crash states, backups.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupDataDir } from '../../src/service/store/backup';
import { openFileStore, type FileStore } from '../../src/service/store/file-store';
import { summaryOf } from '../../src/service/store/match-index';
import { StoreLocked, type RatingRecord } from '../../src/service/store/types';
import { aborted, completed, ratingsFor, runningMatch } from './store-fixtures';

const PUBKEY = Buffer.alloc(32, 7).toString('base64');

/** The pid of a process that has exited (the kernel does not reuse it at once). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'arena-store-'));
}

// The Store contract runs on this store and the others in store-contract.test.ts.

describe('file store on disk', () => {
  let root: string;
  let dir: string;
  const open: FileStore[] = [];
  beforeEach(async () => {
    root = await tempDir();
    dir = join(root, 'data');
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    await rm(root, { recursive: true, force: true });
  });
  async function openStore(at = dir): Promise<FileStore> {
    const s = await openFileStore(at);
    open.push(s);
    return s;
  }
  async function closeStore(s: FileStore): Promise<void> {
    await s.close();
    open.splice(open.indexOf(s), 1);
  }
  async function seed(s: FileStore) {
    const u = await s.createUser({ email: 'Ann@Example.com', name: 'ann' });
    const k = await s.addKey({ userId: u.id, name: 'laptop', publicKey: PUBKEY, scopes: ['bots.read'] });
    const bots = [];
    for (let i = 0; i < 4; i++) bots.push((await s.addBot({ ownerId: u.id, name: `b${i}`, game: 'pioneers', url: `wss://b${i}.example/` })).id);
    const m1 = runningMatch(bots);
    await s.putMatch(m1);
    const c1 = completed(m1);
    await s.completeMatch(c1, ratingsFor(c1));
    const m2 = runningMatch(bots.slice(0, 3));
    await s.putMatch(m2);
    return { u, k, bots, c1, m2 };
  }

  it('creates the data directory on first start and writes real files even under NODE_ENV=test', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const s = await openStore(join(dir, 'nested', 'deeper'));
    await s.createUser({ email: 'a@example.com' });
    const doc = JSON.parse(await readFile(join(dir, 'nested', 'deeper', 'store.json'), 'utf8'));
    expect(Object.values(doc.users)).toHaveLength(1);
  });

  it('keeps everything across close and reopen', async () => {
    const s = await openStore();
    const { u, k, bots, c1, m2 } = await seed(s);
    await s.addSession({ tokenHash: 'a'.repeat(64), userId: u.id, createdAt: new Date().toISOString(), expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    await s.removeBot(bots[3]);
    const page1 = await s.listMatches({ limit: 1 });
    await closeStore(s);
    const t = await openStore();
    expect(await t.getUserByEmail('ann@example.com')).toEqual(u);
    expect(await t.getKey(k.id)).toEqual(k);
    expect((await t.listBots(u.id)).map((b) => b.id)).toEqual(bots.slice(0, 3));
    expect((await t.getBot(bots[3]))!.removedAt).not.toBeNull();
    expect(await t.getSession('a'.repeat(64))).not.toBeNull();
    expect(await t.getMatch(c1.id)).toEqual(c1);
    expect(await t.getMatch(m2.id)).toEqual(m2);
    for (const r of ratingsFor(c1)) expect(await t.getRating(r.botId, 'pioneers')).toEqual(r);
    // Order and cursors survive the restart.
    expect(page1.matches[0].id).toBe(m2.id);
    expect((await t.listMatches({ limit: 1, cursor: page1.next })).matches.map((m) => m.id)).toEqual([c1.id]);
  });

  it('reads summaries back from the log after reopen, whatever the characters in bot names', async () => {
    const s = await openStore();
    const { bots } = await seed(s);
    const names = ['ünïcødé 🎲', '名前', 'plain', '"quoted"\nnewline'];
    const ms = names.map((name) => {
      const m = runningMatch(bots);
      m.players[0].botName = name;
      return m;
    });
    for (const m of ms) await s.putMatch(m);
    await s.putMatch(aborted(ms[1]));
    const want = await s.listMatchSummaries({ limit: 100 });
    await closeStore(s);
    const t = await openStore();
    const got = await t.listMatchSummaries({ limit: 100 });
    expect(got).toEqual(want);
    expect(got.matches.slice(0, 4).map((m) => m.players[0].botName)).toEqual([...names].reverse());
    expect(got.matches[2].status).toBe('aborted');
  });

  it('touchKey writes nothing by itself; the next write or close flushes it', async () => {
    const s = await openStore();
    const { k } = await seed(s);
    const before = await readFile(join(dir, 'store.json'), 'utf8');
    for (let i = 0; i < 100; i++) s.touchKey(k.id, new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString());
    expect(await readFile(join(dir, 'store.json'), 'utf8')).toBe(before);
    await s.createUser({ email: 'b@example.com' });
    let doc = JSON.parse(await readFile(join(dir, 'store.json'), 'utf8'));
    expect(doc.keys[k.id].lastUsedAt).toBe('2030-01-01T00:01:39.000Z');
    s.touchKey(k.id, '2030-06-01T00:00:00.000Z');
    await closeStore(s);
    doc = JSON.parse(await readFile(join(dir, 'store.json'), 'utf8'));
    expect(doc.keys[k.id].lastUsedAt).toBe('2030-06-01T00:00:00.000Z');
    const t = await openStore();
    expect((await t.getKey(k.id))!.lastUsedAt).toBe('2030-06-01T00:00:00.000Z');
  });

  it('match writes never touch the main document', async () => {
    const s = await openStore();
    const { bots } = await seed(s);
    const before = await readFile(join(dir, 'store.json'));
    for (let i = 0; i < 40; i++) {
      const m = runningMatch(bots);
      await s.putMatch(m);
      await s.putMatch(aborted(m));
    }
    expect((await readFile(join(dir, 'store.json'))).equals(before)).toBe(true);
    expect((await readdir(join(dir, 'matches'))).filter((f) => f.endsWith('.json'))).toHaveLength(42);
  });

  describe('the lock', () => {
    it('refuses a second opener with a clear message, and close releases it', async () => {
      const s = await openStore();
      const err = await openFileStore(dir).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(StoreLocked);
      expect((err as StoreLocked).pid).toBe(process.pid);
      expect((err as Error).message).toContain(dir);
      expect((err as Error).message).toMatch(/in use by another arena process \(pid \d+\)/);
      // The refused opener changed nothing: the first still works.
      await s.createUser({ email: 'a@example.com' });
      await closeStore(s);
      await expect(stat(join(dir, 'lock'))).rejects.toMatchObject({ code: 'ENOENT' });
      const t = await openStore();
      expect(await t.listUsers()).toHaveLength(1);
    });

    it('takes over a lock left by a process that no longer exists', async () => {
      const pid = await deadPid();
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'lock'), `${pid}\n`);
      const s = await openStore();
      expect(await readFile(join(dir, 'lock'), 'utf8')).toBe(`${process.pid}\n`);
      await s.createUser({ email: 'a@example.com' });
    });

    it('refuses while the process named in the lock is alive', async () => {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' });
      try {
        await once(child, 'spawn');
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, 'lock'), `${child.pid}\n`);
        const err = await openFileStore(dir).then(() => null, (e: unknown) => e);
        expect(err).toBeInstanceOf(StoreLocked);
        expect((err as StoreLocked).pid).toBe(child.pid);
        expect(await readFile(join(dir, 'lock'), 'utf8')).toBe(`${child.pid}\n`);
      } finally {
        child.kill('SIGKILL');
        await once(child, 'exit').catch(() => {});
      }
    });

    it('treats an unreadable lock as stale', async () => {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'lock'), 'garbage');
      await openStore();
      expect(await readFile(join(dir, 'lock'), 'utf8')).toBe(`${process.pid}\n`);
    });
  });

  describe('crash states', () => {
    it('cuts a torn last log line', async () => {
      const s = await openStore();
      const { bots, m2 } = await seed(s);
      await closeStore(s);
      await appendFile(join(dir, 'matches', 'index.log'), '{"id":"m_torn","v":1,"m":{"id":"m_to');
      const t = await openStore();
      expect((await t.listMatches({ limit: 10 })).matches).toHaveLength(2);
      const m3 = runningMatch(bots);
      await t.putMatch(m3);
      await closeStore(t);
      const u = await openStore();
      expect((await u.listMatches({ limit: 10 })).matches.map((m) => m.id)).toEqual([m3.id, m2.id, expect.any(String)]);
    });

    it('drops a new match whose log line landed but whose file did not', async () => {
      const s = await openStore();
      const { bots, m2 } = await seed(s);
      await closeStore(s);
      const ghost = runningMatch(bots);
      await appendFile(join(dir, 'matches', 'index.log'), `${JSON.stringify({ id: ghost.id, v: 1, m: summaryOf(ghost) })}\n`);
      await writeFile(join(dir, 'matches', `.${ghost.id}.json.tmp`), '{"v":1,"mat');
      const t = await openStore();
      expect(await t.getMatch(ghost.id)).toBeNull();
      expect((await t.listMatches({ limit: 10 })).matches[0].id).toBe(m2.id);
      expect(await readdir(join(dir, 'matches'))).not.toContain(`.${ghost.id}.json.tmp`);
      // The same id can be written for real afterwards.
      await t.putMatch(ghost);
      expect(await t.getMatch(ghost.id)).toEqual(ghost);
    });

    it('keeps the previous version when a completion\'s line landed but its file did not', async () => {
      const s = await openStore();
      const { m2 } = await seed(s);
      await closeStore(s);
      const done = completed(m2);
      await appendFile(join(dir, 'matches', 'index.log'), `${JSON.stringify({ id: m2.id, v: 2, m: summaryOf(done) })}\n`);
      const t = await openStore();
      expect(await t.getMatch(m2.id)).toEqual(m2);
      expect((await t.listMatches({ limit: 10, status: 'running' })).matches.map((m) => m.id)).toEqual([m2.id]);
      expect(await t.getRating(m2.players[0].botId, 'pioneers')).toEqual(ratingsFor(m2)[0]);
      await t.completeMatch(done, ratingsFor(done, 2));
      expect(await t.getRating(m2.players[0].botId, 'pioneers')).toEqual(ratingsFor(done, 2)[0]);
    });

    it('re-applies ratings of completions that store.json missed', async () => {
      const s = await openStore();
      const { bots, m2 } = await seed(s);
      const docBefore = await readFile(join(dir, 'store.json'));
      const done2 = completed(m2);
      await s.completeMatch(done2, ratingsFor(done2, 2));
      const m3 = runningMatch([bots[0], bots[3], bots[2]]);
      await s.putMatch(m3);
      const done3 = completed(m3);
      await s.completeMatch(done3, ratingsFor(done3, 3));
      await closeStore(s);
      // As if the process died twice just before writing store.json.
      await writeFile(join(dir, 'store.json'), docBefore);
      const t = await openStore();
      const want = new Map<string, RatingRecord>();
      for (const r of [...ratingsFor(done2, 2), ...ratingsFor(done3, 3)]) want.set(r.botId, r);
      for (const [botId, r] of want) expect(await t.getRating(botId, 'pioneers')).toEqual(r);
      await closeStore(t);
      // Re-applying is idempotent and recorded: a second open changes nothing.
      const doc = await readFile(join(dir, 'store.json'), 'utf8');
      await closeStore(await openStore());
      expect(await readFile(join(dir, 'store.json'), 'utf8')).toBe(doc);
    });

    it('refuses a corrupt store.json without overwriting it, and releases the lock', async () => {
      const s = await openStore();
      await seed(s);
      await closeStore(s);
      await writeFile(join(dir, 'store.json'), '{"format":1,"users":');
      await expect(openFileStore(dir)).rejects.toThrow(/store\.json is not valid JSON.*backup/);
      expect(await readFile(join(dir, 'store.json'), 'utf8')).toBe('{"format":1,"users":');
      await expect(stat(join(dir, 'lock'))).rejects.toMatchObject({ code: 'ENOENT' });
    });
  });

  describe('backup', () => {
    async function contents(s: FileStore) {
      const users = await s.listUsers();
      const keys = (await Promise.all(users.map((u) => s.listKeys(u.id)))).flat();
      const bots = (await Promise.all(users.map((u) => s.listBots(u.id)))).flat();
      const matches = await s.listMatches({ limit: 100 });
      return { users, keys, bots, ratings: await s.listRatings('pioneers'), matches };
    }

    it('copies an open store into a new directory; the copy opens with the same content', async () => {
      const s = await openStore();
      await seed(s);
      const out = join(root, 'backup');
      await s.backup(out);
      const want = await contents(s);
      // The original keeps working.
      await s.createUser({ email: 'after@example.com' });
      const copy = await openStore(out);
      expect(await contents(copy)).toEqual(want);
    });

    it('copies a stopped store, and refuses a non-empty target', async () => {
      const s = await openStore();
      await seed(s);
      const want = await contents(s);
      await closeStore(s);
      const out = join(root, 'backup');
      await backupDataDir(dir, out);
      await expect(backupDataDir(dir, out)).rejects.toThrow(/not empty/);
      await expect(backupDataDir(join(root, 'nothing'), join(root, 'b2'))).rejects.toThrow(/no arena store/);
      expect(await contents(await openStore(out))).toEqual(want);
    });

    it('a lock-free copy taken during a burst of writes is consistent', async () => {
      const s = await openStore();
      const { u } = await seed(s);
      const bots: string[] = [];
      for (let i = 0; i < 8; i++) bots.push((await s.addBot({ ownerId: u.id, name: `x${i}`, game: 'pioneers', url: `wss://x${i}.example/` })).id);
      let stop = false;
      const games = new Map<string, number>();
      const burst = (async () => {
        for (let i = 0; !stop || i < 10; i++) {
          const seats = [0, 1, 2, 3].map((j) => bots[(i + j * 2) % 8]);
          const m = runningMatch([...new Set(seats)]);
          await s.putMatch(m);
          if (i % 3 === 2) {
            await s.putMatch(aborted(m));
            continue;
          }
          const done = completed(m);
          const ratings = done.players.map((p) => {
            const n = (games.get(p.botId) ?? 0) + 1;
            games.set(p.botId, n);
            return { botId: p.botId, game: 'pioneers' as const, mu: 25 + n, sigma: 8, gamesPlayed: n };
          });
          await s.completeMatch(done, ratings);
          await s.createUser({ email: `burst${i}@example.com` });
        }
      })();
      const out = join(root, 'backup');
      await backupDataDir(dir, out);
      stop = true;
      await burst;
      const copy = await openStore(out);
      // Every rating in the copy matches exactly the completed matches in the copy.
      const all = [];
      let cursor: string | null = null;
      do {
        const page = await copy.listMatches({ limit: 100, cursor });
        all.push(...page.matches);
        cursor = page.next;
      } while (cursor);
      for (const b of bots) {
        const played = all.filter((m) => m.status === 'completed' && m.players.some((p) => p.botId === b)).length;
        const r = await copy.getRating(b, 'pioneers');
        expect(r?.gamesPlayed ?? 0).toBe(played);
        if (r) expect(r.mu).toBe(25 + played);
      }
    });
  });
});
