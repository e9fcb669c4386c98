// kill -9 at random moments: a child process writes to the file store in a
// burst, printing each write it saw acknowledged; the parent kills it after a
// random number of acks (so the kill lands somewhere inside a later write),
// reopens the store, and checks that every acknowledged write is there and
// that the store is consistent (ratings agree with the completed matches).
// The same child also writes while lock-free backups are taken.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDataDir } from '../../../src/service/store/backup';
import { COMPACT_STEPS, openFileStore } from '../../../src/service/store/file-store';
import { openPgStore, type PgStore } from '../../../src/service/store/pg-store';
import { sharedPostgres } from '../../support/postgres';
import { TEST_STORE } from '../../support/test-store';
import type { Store, StoredMatch } from '../../../src/service/store/types';

const CHILD = fileURLToPath(new URL('./store-crash-child.ts', import.meta.url));

interface Line {
  t: 'open' | 'intent' | 'ack' | 'step';
  step?: string;
  op?: string;
  id?: string;
  email?: string;
  name?: string;
  status?: string;
  revokedAt?: string | null;
  userId?: string;
}

/** Everything the children said, across rounds. */
class Ledger {
  users = new Map<string, string>();
  keys = new Set<string>();
  revoked = new Map<string, string>();
  bots = new Set<string>();
  matches = new Map<string, string>();
  // Per record: each value written, with when its write began and when it was acknowledged (lines seen so far).
  private named = new Map<string, Array<{ value: string; began: number; acked: number }>>();
  private seen = 0;

  add(l: Line): void {
    this.seen++;
    if (l.op === 'botName' || l.op === 'handle') {
      const key = `${l.op}:${l.id}`;
      const writes = this.named.get(key) ?? [];
      this.named.set(key, writes);
      if (l.t === 'intent') writes.push({ value: l.name!, began: this.seen, acked: Infinity });
      else {
        const w = writes.findLast((x) => x.value === l.name && x.acked === Infinity);
        if (w) w.acked = this.seen;
      }
      return;
    }
    if (l.t !== 'ack') return;
    if (l.op === 'user') this.users.set(l.id!, l.email!);
    if (l.op === 'key') this.keys.add(l.id!);
    if (l.op === 'revoke') this.revoked.set(l.id!, l.revokedAt!);
    if (l.op === 'bot') this.bots.add(l.id!);
    if (l.op === 'match') this.matches.set(l.id!, l.status!);
  }

  /**
   * Every value the record may hold now (null before any acknowledged write): a value is
   * gone only when a write that began after it was acknowledged has been acknowledged too.
   * Two writes in flight at once (the child writes from two loops) may land in either order.
   */
  allowed(op: 'botName' | 'handle', id: string): string[] | null {
    const writes = this.named.get(`${op}:${id}`) ?? [];
    const acked = writes.filter((w) => w.acked !== Infinity);
    if (acked.length === 0) return null;
    return writes.filter((v) => !acked.some((w) => w.began > v.acked)).map((v) => v.value);
  }

  acks(): number {
    return this.users.size + this.keys.size + this.bots.size + this.matches.size;
  }
}

interface Writer {
  child: ChildProcess;
  exited: Promise<unknown[]>;
  stderr: () => string;
  /** Lets it open the store and write; its lines go to onLine. */
  go: (onLine: (l: Line) => void) => void;
}

/** Starts a writer process that waits (modules loaded) until go() is called. */
function spawnWriter(dir: string, env: Record<string, string> = {}): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  let handler: ((l: Line) => void) | null = null;
  createInterface({ input: child.stdout! }).on('line', (text) => handler?.(JSON.parse(text) as Line));
  const exited = once(child, 'exit');
  exited.catch(() => {});
  child.stdin!.on('error', () => {});
  return {
    child,
    exited,
    stderr: () => err,
    go(onLine) {
      handler = onLine;
      child.stdin!.write('go\n');
    },
  };
}

async function predecessorGone(store: PgStore, pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await store.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [`arena-crash-${pid}`],
    );
    if (rows[0].n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the killed child's database sessions (pid ${pid}) did not end in 10 s`);
}

async function allMatches(store: Store): Promise<StoredMatch[]> {
  const out: StoredMatch[] = [];
  let cursor: string | null = null;
  do {
    const page = await store.listMatches({ limit: 100, cursor });
    out.push(...page.matches);
    cursor = page.next;
  } while (cursor);
  return out;
}

/** Ratings are exactly what the completed matches imply: mu = 25 + games played. */
async function expectRatingsAgree(store: Store, bots: Iterable<string>, matches: StoredMatch[]): Promise<void> {
  for (const b of bots) {
    const played = matches.filter((m) => m.status === 'completed' && m.players.some((p) => p.botId === b)).length;
    const r = await store.getRating(b, 'pioneers');
    expect(r?.gamesPlayed ?? 0, `games of ${b}`).toBe(played);
    if (r) expect(r.mu).toBe(25 + played);
  }
}

const RANK: Record<string, number> = { running: 0, aborted: 1, completed: 1 };

/** Every acknowledged write is in the store, and its ratings agree with its completed matches. */
async function expectLedger(store: Store, ledger: Ledger): Promise<void> {
  for (const [id, email] of ledger.users) expect((await store.getUser(id))?.email, `user ${id}`).toBe(email);
  for (const id of ledger.keys) expect(await store.getKey(id), `key ${id}`).not.toBeNull();
  for (const [id, at] of ledger.revoked) expect((await store.getKey(id))?.revokedAt, `revoked ${id}`).toBe(at);
  for (const id of ledger.bots) {
    const bot = await store.getBot(id);
    expect(bot, `bot ${id}`).not.toBeNull();
    const names = ledger.allowed('botName', id);
    if (names) expect(names, `name of ${id}`).toContain(bot!.name);
  }
  for (const id of ledger.users.keys()) {
    const handles = ledger.allowed('handle', id);
    if (handles) expect(handles, `handle of ${id}`).toContain((await store.getUser(id))!.name);
  }
  const matches = await allMatches(store);
  const byId = new Map(matches.map((m) => [m.id, m]));
  expect(byId.size, 'a match listed twice').toBe(matches.length);
  for (const [id, status] of ledger.matches) {
    const m = byId.get(id);
    expect(m, `match ${id} (${status})`).toBeDefined();
    if (RANK[status] > 0) expect(m!.status, `match ${id}`).toBe(status);
    expect(await store.getMatch(id)).toEqual(m);
  }
  await expectRatingsAgree(
    store,
    (await store.listActiveBots('pioneers')).map((b) => b.id),
    matches,
  );
}

describe(`${TEST_STORE} store under kill -9`, () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'arena-crash-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps every acknowledged write through 20 kills at random moments', async () => {
    // The postgres project runs this on a database of a cluster with fsync on.
    const dir = TEST_STORE === 'postgres' ? await (await sharedPostgres()).createDatabase() : join(root, 'data');
    const ledger = new Ledger();
    let writesAfterKill = 0;
    // The next writers start (and load their modules) while this round runs and is checked.
    const ROUNDS = 20;
    const AHEAD = 2;
    const warm = Array.from({ length: AHEAD }, () => spawnWriter(dir));
    for (let round = 0; round < ROUNDS; round++) {
      const writer = warm.shift()!;
      if (round + AHEAD < ROUNDS) warm.push(spawnWriter(dir));
      const killAfter = 1 + Math.floor(Math.random() * 40);
      let acks = 0;
      let opened = false;
      writer.go((l) => {
        ledger.add(l);
        if (l.t === 'open') opened = true;
        if (l.t === 'ack' && ++acks === killAfter) writer.child.kill('SIGKILL');
      });
      const stderr = writer.stderr;
      const [code, signal] = (await writer.exited) as [number | null, string | null];
      expect(signal, `round ${round}: the child ended by itself (${code}): ${stderr()}`).toBe('SIGKILL');
      expect(opened, `round ${round}: the child could not open the store (stale lock?)`).toBe(true);

      const store = TEST_STORE === 'postgres' ? await openPgStore(dir) : await openFileStore(dir);
      try {
        // A killed client's statement runs on in its server session until that session sees the socket gone (one
        // blocked on a lock waits for it), so it may still commit: wait until the child's sessions have ended, as a
        // restarted server's writes come after its predecessor's (docs/operating.md, PostgreSQL).
        if (TEST_STORE === 'postgres') await predecessorGone(store as PgStore, writer.child.pid!);
        await expectLedger(store, ledger);
        // The reopened store takes writes.
        await store.createUser({ email: `parent-${round}@example.com` });
        writesAfterKill++;
      } finally {
        await store.close();
      }
    }
    expect(writesAfterKill).toBe(ROUNDS);
    // Enough happened for the kills to have landed inside all kinds of writes.
    expect(ledger.acks()).toBeGreaterThan(100);
    expect([...ledger.matches.values()]).toContain('completed');
    // The children compacted their journals (16 KiB) on the way, so kills also landed in compactions.
    if (TEST_STORE === 'file')
      expect(JSON.parse(await readFile(join(dir, 'store.json'), 'utf8')).journalSeq).toBeGreaterThan(0);
  }, 120_000);

  // The file store's own (journal, compaction, backups).
  it.skipIf(TEST_STORE === 'postgres')(
    'keeps every acknowledged write when killed at each step of a compaction',
    async () => {
      const dir = join(root, 'compacting');
      const ledger = new Ledger();
      const warm = COMPACT_STEPS.map((step) =>
        spawnWriter(dir, { ARENA_CRASH_AT_STEP: step, ARENA_CRASH_COMPACT_BYTES: '4096' }),
      );
      for (const [i, step] of COMPACT_STEPS.entries()) {
        const writer = warm[i];
        let died = '';
        writer.go((l) => {
          ledger.add(l);
          if (l.t === 'step') died = l.step!;
        });
        const [, signal] = (await writer.exited) as [number | null, string | null];
        expect([signal, died], writer.stderr()).toEqual(['SIGKILL', step]);
        const store = await openFileStore(dir);
        try {
          await expectLedger(store, ledger);
          await store.createUser({ email: `after-${step}@example.com` });
        } finally {
          await store.close();
        }
        const names = await readdir(dir);
        // Once the new snapshot is in place it includes the old journal: nothing is replayed twice (checked above), and
        // the old file may go.
        if (step === 'journals-removed') expect(names.filter((n) => n.startsWith('journal.'))).toHaveLength(1);
        expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
      }
      expect(ledger.acks()).toBeGreaterThan(COMPACT_STEPS.length);
    },
    60_000,
  );

  // The file store's own (journal, compaction, backups).
  it.skipIf(TEST_STORE === 'postgres')(
    'a torn last journal line is cut at open; every acknowledged write before it stays',
    async () => {
      const dir = join(root, 'torn');
      const ledger = new Ledger();
      const writer = spawnWriter(dir, { ARENA_CRASH_COMPACT_BYTES: String(1 << 30) });
      let acks = 0;
      writer.go((l) => {
        ledger.add(l);
        if (l.t === 'ack' && ++acks === 30) writer.child.kill('SIGKILL');
      });
      await writer.exited;
      const journal = join(dir, (await readdir(dir)).find((n) => /^journal\.\d+\.jsonl$/.test(n))!);
      const whole = await readFile(journal);
      // What a kill or power cut in the middle of an append leaves: the start of a line, no newline.
      const torn = '{"s":999999,"o":[["users","u_torn",{"id":"u_torn","name":"","em';
      await appendFile(journal, torn);
      const store = await openFileStore(dir);
      try {
        await expectLedger(store, ledger);
        expect(await store.getUser('u_torn')).toBeNull();
        expect((await readFile(journal)).equals(whole)).toBe(true);
        const u = await store.createUser({ email: 'after-torn@example.com' });
        await store.close();
        const again = await openFileStore(dir);
        expect(await again.getUser(u.id)).toEqual(u);
        await again.close();
      } finally {
        await store.close();
      }
    },
    30_000,
  );

  // The file store's own (journal, compaction, backups).
  it.skipIf(TEST_STORE === 'postgres')(
    'lock-free backups taken while another process writes open consistent',
    async () => {
      const dir = join(root, 'live');
      const acked: Line[] = [];
      let ready!: () => void;
      const enough = new Promise<void>((r) => {
        ready = r;
      });
      const { child, stderr, exited, go } = spawnWriter(dir);
      go((l) => {
        if (l.t === 'ack') acked.push(l);
        if (acked.length === 30) ready();
      });
      try {
        await Promise.race([
          enough,
          exited.then(() => {
            throw new Error(`the writer ended early: ${stderr()}`);
          }),
        ]);
        for (let i = 0; i < 3; i++) {
          const before = acked.filter((l) => l.op === 'match' || l.op === 'user');
          const out = join(root, `backup-${i}`);
          await backupDataDir(dir, out);
          const copy = await openFileStore(out);
          try {
            const matches = await allMatches(copy);
            const byId = new Map(matches.map((m) => [m.id, m]));
            for (const l of before) {
              if (l.op === 'user') expect(await copy.getUser(l.id!)).not.toBeNull();
              else expect(byId.has(l.id!), `match ${l.id} acked before the backup`).toBe(true);
            }
            for (const m of matches) expect(await copy.getMatch(m.id)).toEqual(m);
            const users = await copy.listUsers();
            const bots = (await Promise.all(users.map((u) => copy.listBots(u.id)))).flat().map((b) => b.id);
            await expectRatingsAgree(copy, bots, matches);
          } finally {
            await copy.close();
          }
        }
      } finally {
        child.kill('SIGKILL');
        await exited;
      }
    },
    60_000,
  );
});
