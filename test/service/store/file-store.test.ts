// The file store: the Store contract on a real temp directory, plus what only
// files have: persistence across reopen, the lock, crash states, backups.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupDataDir } from '../../../src/service/store/backup';
import { openFileStore, StoreMissing, type FileStore } from '../../../src/service/store/file-store';
import { summaryOf } from '../../../src/service/store/match-index';
import { StoreLocked, type RatingRecord } from '../../../src/service/store/types';
import { parseDoc, type StoreDoc } from '../../../src/service/store/doc';
import { replayJournals } from '../../../src/service/store/journal';
import { storeBytes } from '../support/store-bytes';
import { aborted, completed, ratingsFor, runningMatch } from './store-fixtures';

const PUBKEY = Buffer.alloc(32, 7).toString('base64');

/** The pid of a process that has exited (the kernel does not reuse it at once). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

/** store.json with the journal replayed onto it: what a restart would see. */
async function diskDoc(at: string): Promise<StoreDoc> {
  const doc = parseDoc(await readFile(join(at, 'store.json'), 'utf8'), 'store.json');
  await replayJournals(at, doc, false);
  return doc;
}

/** store.json and the journal files, to put back later (a crash before the next journal line). */
async function saveDoc(at: string): Promise<Map<string, Buffer>> {
  const files = (await readdir(at)).filter((f) => f === 'store.json' || /^journal\.\d+\.jsonl$/.test(f));
  return new Map(await Promise.all(files.map(async (f) => [f, await readFile(join(at, f))] as [string, Buffer])));
}

async function restoreDoc(at: string, saved: Map<string, Buffer>): Promise<void> {
  for (const f of await readdir(at)) if (/^journal\.\d+\.jsonl$/.test(f) && !saved.has(f)) await rm(join(at, f));
  for (const [f, bytes] of saved) await writeFile(join(at, f), bytes);
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
    for (let i = 0; i < 4; i++)
      bots.push((await s.addBot({ ownerId: u.id, name: `b${i}`, game: 'pioneers', url: `wss://b${i}.example/` })).id);
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
    const u = await s.createUser({ email: 'a@example.com' });
    expect(JSON.parse(await readFile(join(dir, 'nested', 'deeper', 'store.json'), 'utf8')).format).toBe(1);
    const doc = await diskDoc(join(dir, 'nested', 'deeper'));
    expect(Object.values(doc.users)).toEqual([u]);
  });

  it('a bot stored before versions and qualification (no such fields) stays active at version 1; its first new version keeps its start', async () => {
    await mkdir(dir, { recursive: true });
    const at = '2026-01-01T00:00:00.000Z';
    const old: StoreDoc = {
      format: 1,
      rev: 2,
      ratingsThrough: -1,
      journalSeq: 0,
      keys: {},
      sessions: {},
      signInTokens: {},
      challenges: {},
      webhooks: {},
      webhookDeliveries: {},
      users: { u_old: { id: 'u_old', name: 'old', email: 'old@example.com', createdAt: at } },
      bots: {
        b_old: {
          id: 'b_old',
          ownerId: 'u_old',
          name: 'old',
          game: 'pioneers',
          url: 'wss://old.example/',
          status: 'active',
          createdAt: at,
          removedAt: null,
        },
      },
      ratings: { 'pioneers:b_old': { botId: 'b_old', game: 'pioneers', mu: 30, sigma: 4, gamesPlayed: 9 } },
    };
    await writeFile(join(dir, 'store.json'), JSON.stringify(old));
    const s = await openStore();
    expect((await s.listActiveBots('pioneers')).map((b) => b.id)).toEqual(['b_old']);
    expect(await s.listQualifyingBots('pioneers')).toEqual([]);
    expect((await s.updateBot('b_old', { status: 'active' })).status).toBe('active');
    const v2 = await s.startBotVersion('b_old', { qualify: true });
    expect(v2.versions).toEqual([
      {
        version: 1,
        startedAt: at,
        endedAt: v2.qualification!.at,
        gamesAtStart: 0,
        end: { mu: 30, sigma: 4, gamesPlayed: 9 },
      },
      { version: 2, startedAt: v2.qualification!.at, endedAt: null, gamesAtStart: 9, end: null },
    ]);
    expect(v2.status).toBe('qualifying');
  });

  it('keeps everything across close and reopen', async () => {
    const s = await openStore();
    const { u, k, bots, c1, m2 } = await seed(s);
    await s.addSession({
      tokenHash: 'a'.repeat(64),
      userId: u.id,
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
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

  it('webhooks and their deliveries survive a reopen, and a document written before webhooks opens with none', async () => {
    const s = await openStore();
    const u = await s.createUser({ email: 'a@example.com' });
    const w = await s.addWebhook({ ownerId: u.id, url: 'https://hooks.example/a', events: ['bot.failed'] }, 10);
    const at = new Date().toISOString();
    for (let i = 0; i < 3; i++) {
      await s.addWebhookDelivery(
        {
          id: `msg_r${i}`,
          webhookId: w.id,
          ownerId: u.id,
          type: 'bot.failed',
          status: 'pending',
          attempts: 0,
          createdAt: at,
          lastAttemptAt: null,
          nextAttemptAt: at,
          responseStatus: null,
          error: null,
          payload: `{"i":${i}}`,
        },
        2,
      );
    }
    await closeStore(s);
    const t = await openStore();
    // The indexes are rebuilt from the journal: the owner's webhooks, the two kept, newest first.
    expect(await t.listWebhooks(u.id)).toEqual([w]);
    expect((await t.listWebhookDeliveries(w.id)).map((x) => x.id)).toEqual(['msg_r2', 'msg_r1']);
    await t.removeWebhook(w.id);
    expect(await t.listPendingWebhookDeliveries()).toEqual([]);
    await closeStore(t);
    // store.json as written before webhooks existed: no webhook collections at all.
    const old = join(root, 'old');
    await mkdir(old, { recursive: true });
    const doc = {
      format: 1,
      rev: 1,
      users: {},
      keys: {},
      bots: {},
      ratings: {},
      sessions: {},
      signInTokens: {},
      ratingsThrough: -1,
      journalSeq: 0,
    };
    await writeFile(join(old, 'store.json'), JSON.stringify(doc));
    const o = await openStore(old);
    const v = await o.createUser({ email: 'v@example.com' });
    expect(await o.listWebhooks(v.id)).toEqual([]);
    expect(
      (await o.addWebhook({ ownerId: v.id, url: 'https://hooks.example/v', events: ['bot.failed'] }, 10)).ownerId,
    ).toBe(v.id);
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
    const before = storeBytes(dir);
    for (let i = 0; i < 100; i++) s.touchKey(k.id, new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString());
    expect(storeBytes(dir)).toBe(before);
    await s.createUser({ email: 'b@example.com' });
    let doc = await diskDoc(dir);
    expect(doc.keys[k.id].lastUsedAt).toBe('2030-01-01T00:01:39.000Z');
    s.touchKey(k.id, '2030-06-01T00:00:00.000Z');
    await closeStore(s);
    doc = await diskDoc(dir);
    expect(doc.keys[k.id].lastUsedAt).toBe('2030-06-01T00:00:00.000Z');
    const t = await openStore();
    expect((await t.getKey(k.id))!.lastUsedAt).toBe('2030-06-01T00:00:00.000Z');
  });

  it('match writes never touch the main document', async () => {
    const s = await openStore();
    const { bots } = await seed(s);
    const before = storeBytes(dir);
    for (let i = 0; i < 40; i++) {
      const m = runningMatch(bots);
      await s.putMatch(m);
      await s.putMatch(aborted(m));
    }
    expect(storeBytes(dir)).toBe(before);
    expect((await readdir(join(dir, 'matches'))).filter((f) => f.endsWith('.json'))).toHaveLength(42);
  });

  describe('the lock', () => {
    it('refuses a second opener with a clear message, and close releases it', async () => {
      const s = await openStore();
      const err = await openFileStore(dir).then(
        () => null,
        (e: unknown) => e,
      );
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
        const err = await openFileStore(dir).then(
          () => null,
          (e: unknown) => e,
        );
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
      await appendFile(
        join(dir, 'matches', 'index.log'),
        `${JSON.stringify({ id: ghost.id, v: 1, m: summaryOf(ghost) })}\n`,
      );
      await writeFile(join(dir, 'matches', `.${ghost.id}.json.tmp`), '{"v":1,"mat');
      const t = await openStore();
      expect(await t.getMatch(ghost.id)).toBeNull();
      expect((await t.listMatches({ limit: 10 })).matches[0].id).toBe(m2.id);
      expect(await readdir(join(dir, 'matches'))).not.toContain(`.${ghost.id}.json.tmp`);
      // The same id can be written for real afterwards.
      await t.putMatch(ghost);
      expect(await t.getMatch(ghost.id)).toEqual(ghost);
    });

    it("keeps the previous version when a completion's line landed but its file did not", async () => {
      const s = await openStore();
      const { m2 } = await seed(s);
      await closeStore(s);
      const done = completed(m2);
      await appendFile(
        join(dir, 'matches', 'index.log'),
        `${JSON.stringify({ id: m2.id, v: 2, m: summaryOf(done) })}\n`,
      );
      const t = await openStore();
      expect(await t.getMatch(m2.id)).toEqual(m2);
      expect((await t.listMatches({ limit: 10, status: 'running' })).matches.map((m) => m.id)).toEqual([m2.id]);
      expect(await t.getRating(m2.players[0].botId, 'pioneers')).toEqual(ratingsFor(m2)[0]);
      await t.completeMatch(done, ratingsFor(done, 2));
      expect(await t.getRating(m2.players[0].botId, 'pioneers')).toEqual(ratingsFor(done, 2)[0]);
    });

    it('re-applies ratings of completions that the journal missed', async () => {
      const s = await openStore();
      const { bots, m2 } = await seed(s);
      const docBefore = await saveDoc(dir);
      const done2 = completed(m2);
      await s.completeMatch(done2, ratingsFor(done2, 2));
      const m3 = runningMatch([bots[0], bots[3], bots[2]]);
      await s.putMatch(m3);
      const done3 = completed(m3);
      await s.completeMatch(done3, ratingsFor(done3, 3));
      await closeStore(s);
      // As if the process died twice just before appending the ratings to the journal.
      await restoreDoc(dir, docBefore);
      const t = await openStore();
      const want = new Map<string, RatingRecord>();
      for (const r of [...ratingsFor(done2, 2), ...ratingsFor(done3, 3)]) want.set(r.botId, r);
      for (const [botId, r] of want) expect(await t.getRating(botId, 'pioneers')).toEqual(r);
      await closeStore(t);
      // Re-applying is idempotent and recorded: a second open changes nothing.
      const doc = storeBytes(dir);
      await closeStore(await openStore());
      expect(storeBytes(dir)).toBe(doc);
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

  describe('the journal', () => {
    const journals = async (at = dir) => (await readdir(at)).filter((f) => /^journal\.\d+\.jsonl$/.test(f));

    it('a write appends one line and leaves store.json alone; a completed match is one line', async () => {
      const s = await openStore();
      const { bots, m2 } = await seed(s);
      const snap = await readFile(join(dir, 'store.json'), 'utf8');
      const [file] = await journals();
      const lines = async () => (await readFile(join(dir, file), 'utf8')).split('\n').filter(Boolean).length;
      const before = await lines();
      const done = completed(m2);
      await s.completeMatch(done, ratingsFor(done, 2));
      expect(await lines()).toBe(before + 1);
      await s.updateBot(bots[0], { name: 'renamed' });
      expect(await lines()).toBe(before + 2);
      expect(await readFile(join(dir, 'store.json'), 'utf8')).toBe(snap);
    });

    it('compacts into store.json once the journal passes its size, and reopens to the same records', async () => {
      const s = await openFileStore(dir, { compactBytes: 2048 });
      open.push(s);
      const { u, bots } = await seed(s);
      for (let i = 0; i < 60; i++) await s.updateBot(bots[i % 4], { name: `n${i}` });
      await s.settled();
      const doc = JSON.parse(await readFile(join(dir, 'store.json'), 'utf8'));
      expect(doc.journalSeq).toBeGreaterThan(0);
      expect(doc.bots[bots[0]].name).toMatch(/^n\d+$/);
      // Only the file written since the last compaction is left, and it is small.
      const left = await journals();
      expect(left).toHaveLength(1);
      expect((await stat(join(dir, left[0]))).size).toBeLessThan(4096);
      const want = {
        users: await s.listUsers(),
        bots: await s.listBots(u.id),
        ratings: await s.listRatings('pioneers'),
      };
      await closeStore(s);
      const t = await openStore();
      expect({
        users: await t.listUsers(),
        bots: await t.listBots(u.id),
        ratings: await t.listRatings('pioneers'),
      }).toEqual(want);
    });

    it('a journal append that fails is not acknowledged, and the store stops writing until reopened without it', async () => {
      const s = await openStore();
      const { u } = await seed(s);
      // The journal's file handle goes bad under the store (as a disk error would).
      await (s as unknown as { journal: { fh: { close(): Promise<void> } } }).journal.fh.close();
      await expect(s.setHandle(u.id, 'lost')).rejects.toThrow();
      await expect(s.addBot({ ownerId: u.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' })).rejects.toThrow(
        /stopped writing after an earlier failure/,
      );
      await closeStore(s);
      const t = await openStore();
      expect((await t.getUser(u.id))!.name).toBe('ann');
      expect(await t.listBots(u.id)).toHaveLength(4);
    });

    it('refuses a damaged line before the last one, naming the file and byte, and releases the lock', async () => {
      const s = await openStore();
      await seed(s);
      await closeStore(s);
      const [file] = await journals();
      const text = await readFile(join(dir, file), 'utf8');
      const cut = text.indexOf('\n') + 5;
      await writeFile(join(dir, file), `${text.slice(0, cut)}#${text.slice(cut + 1)}`);
      await expect(openFileStore(dir)).rejects.toThrow(new RegExp(`${file} is damaged at byte \\d+; restore`));
      await expect(stat(join(dir, 'lock'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('a backup is store.json (the journal applied) and matches/, without a journal', async () => {
      const s = await openStore();
      const { u } = await seed(s);
      await s.backup(join(root, 'copy'));
      expect((await readdir(join(root, 'copy'))).sort()).toEqual(['matches', 'store.json']);
      const doc = JSON.parse(await readFile(join(root, 'copy', 'store.json'), 'utf8'));
      expect(Object.keys(doc.users)).toEqual([u.id]);
      await closeStore(s);
      await backupDataDir(dir, join(root, 'offline'));
      expect(JSON.parse(await readFile(join(root, 'offline', 'store.json'), 'utf8'))).toEqual(doc);
    });
  });

  describe('a missing store.json (issue 27 item 8)', () => {
    it('is refused when matches/ or a journal is there, naming what is missing and how to restore; --init starts fresh', async () => {
      const s = await openStore();
      const { u } = await seed(s);
      await closeStore(s);
      await rm(join(dir, 'store.json'));
      const err = await openFileStore(dir).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StoreMissing);
      expect((err as Error).message).toMatch(
        /store\.json is missing.*matches\/.*journal\.1\.jsonl.*arena admin backup.*arena serve --init/,
      );
      await expect(stat(join(dir, 'lock'))).rejects.toMatchObject({ code: 'ENOENT' });
      // matches/ alone is enough to refuse.
      for (const f of await readdir(dir)) if (f.startsWith('journal.')) await rm(join(dir, f));
      await expect(openFileStore(dir)).rejects.toBeInstanceOf(StoreMissing);
      const fresh = await openFileStore(dir, { init: true });
      open.push(fresh);
      expect(await fresh.getUser(u.id)).toBeNull();
      expect(await fresh.listMatches({ limit: 10 })).toMatchObject({ matches: [expect.anything(), expect.anything()] });
    });

    it('an empty or new directory starts fresh and has its store.json at once', async () => {
      await mkdir(dir);
      const s = await openStore();
      expect(await s.listUsers()).toEqual([]);
      await closeStore(s);
      expect(JSON.parse(await readFile(join(dir, 'store.json'), 'utf8')).users).toEqual({});
      // A restart of a store that never wrote anything is no reason to refuse.
      await closeStore(await openStore());
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

    it("carries the owners' private data of the matches it copies; a torn strike line is cut at reopen", async () => {
      const s = await openStore();
      const u = await s.createUser({ email: 'priv@example.com' });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await s.addBot({ ownerId: u.id, name: `p${i}`, game: 'pioneers', url: `wss://p${i}.example/` })).id);
      const m = runningMatch(ids);
      await s.putMatch(m);
      await s.putMatch(aborted(m));
      const strike = {
        decisionId: 4,
        kind: 'turn' as const,
        turn: 2,
        seat: 0,
        reason: 'malformed' as const,
        message: 'not JSON',
        answer: '{"x',
        answerBytes: 3,
        strikes: 1,
      };
      const data = {
        endedAt: '2026-11-27T10:00:00.000Z',
        notes: [{ id: 2, seat: 0, kind: 'turn' as const, seq: 3, ms: 1, debug: 'why' }],
        strikes: [strike],
      };
      await s.putOwnerMatchData(m.id, ids[0], data);
      const out = join(root, 'backup');
      await s.backup(out);
      await closeStore(s);
      // A crash mid-append leaves a torn line: reopening cuts it, and later appends stay readable.
      await appendFile(join(dir, 'matches', 'private', 'strikes.log'), '{"b":"torn');
      for (const at of [out, dir]) {
        const copy = await openStore(at);
        expect(await copy.getOwnerMatchData(m.id, ids[0])).toEqual(data);
        expect((await copy.listBotStrikes(ids[0], { limit: 10 })).strikes).toEqual([
          { ...strike, matchId: m.id, at: data.endedAt },
        ]);
        await closeStore(copy);
      }
      const again = await openStore(dir);
      const m2 = runningMatch(ids);
      await again.putMatch(m2);
      await again.putMatch(aborted(m2));
      await again.putOwnerMatchData(m2.id, ids[0], { ...data, strikes: [{ ...strike, decisionId: 9 }] });
      expect((await again.listBotStrikes(ids[0], { limit: 10 })).strikes.map((k) => k.decisionId)).toEqual([9, 4]);
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
      for (let i = 0; i < 8; i++)
        bots.push((await s.addBot({ ownerId: u.id, name: `x${i}`, game: 'pioneers', url: `wss://x${i}.example/` })).id);
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
