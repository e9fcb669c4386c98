// `npm run bench -- serve`, part "accounts": the file store's write time by the
// number of accounts (issue 32). Each store gets N accounts with one bot each
// through the store's own API (what `arena admin user add` and POST /bots do,
// one journal line each, fsynced), timed; then a completed match (putMatch
// running, then completeMatch with four rating updates) is written 30 times,
// alternately to each store so a burst of disk load hits all alike. Before the
// journal every such write rewrote the whole store.json, so it grew with N.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileStore, type FileStore } from '../src/service/store/index';
import type { RatingRecord, StoredMatch } from '../src/service/store/types';
import { median, type BenchRow, type BenchSuite } from './harness';

const SIZES = [10, 10_000, 100_000] as const;
const WRITES = Number(process.env.ARENA_BENCH_ACCOUNTS_WRITES ?? 30);
/** 100,000 accounts are set up only if it goes as fast as this (the minute). */
const SETUP_BUDGET_MS = Number(process.env.ARENA_BENCH_ACCOUNTS_BUDGET_MS ?? 60_000);
const SETUP_CONCURRENCY = 32;

interface Sized {
  n: number;
  store: FileStore;
  bots: string[];
  setupMs: number;
  writes: number[];
}

async function setUp(
  root: string,
  n: number,
  budgetMs: number,
): Promise<Sized | { n: number; reached: number; ms: number }> {
  const store = await openFileStore(join(root, `n${n}`));
  const bots: string[] = [];
  const t0 = performance.now();
  let next = 0;
  let over = false;
  // SETUP_CONCURRENCY sign-ups at once, as concurrent requests would come: their journal lines share fsyncs.
  const worker = async () => {
    while (next < n && !over) {
      const i = next++;
      const u = await store.createUser({ email: `user${i}@example.com`, name: `user${i}` });
      bots.push(
        (await store.addBot({ ownerId: u.id, name: `bot ${i}`, game: 'pioneers', url: `https://bot${i}.example/` })).id,
      );
      if (i % 1000 === 999 && performance.now() - t0 > budgetMs) over = true;
    }
  };
  await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, worker));
  if (over) {
    await store.close();
    return { n, reached: bots.length, ms: performance.now() - t0 };
  }
  return { n, store, bots, setupMs: performance.now() - t0, writes: [] };
}

function matchOf(bots: string[]): StoredMatch {
  const seats = new Set<string>();
  while (seats.size < 4) seats.add(bots[Math.floor(Math.random() * bots.length)]);
  const now = new Date().toISOString();
  return {
    id: `m_${randomBytes(9).toString('base64url')}`,
    game: 'pioneers',
    status: 'running',
    players: [...seats].map((botId, seat) => ({
      seat,
      botId,
      botName: `bot ${seat}`,
      placement: null,
      ratingDelta: null,
    })),
    startedAt: now,
    endedAt: null,
    seed: randomBytes(16).toString('hex'),
    replay: [],
    rulesVersion: 'bench-1',
    seatCount: 4,
    vp: null,
  };
}

function finish(m: StoredMatch): StoredMatch {
  const at = new Date().toISOString();
  return {
    ...m,
    status: 'completed',
    endedAt: at,
    vp: [10, 8, 6, 4],
    replay: Array.from({ length: 200 }, (_, seq) => ({
      seq,
      at,
      kind: 'talk' as const,
      seat: seq % 4,
      data: { message: `event ${seq}` },
    })),
    players: m.players.map((p, seat) => ({ ...p, placement: seat + 1, ratingDelta: 1.5 - seat })),
  };
}

async function ratingsOf(store: FileStore, m: StoredMatch): Promise<RatingRecord[]> {
  return Promise.all(
    m.players.map(async (p, seat) => {
      const n = ((await store.getRating(p.botId, 'pioneers'))?.gamesPlayed ?? 0) + 1;
      return { botId: p.botId, game: 'pioneers' as const, mu: 25 + 1 - seat, sigma: 8, gamesPlayed: n };
    }),
  );
}

function diskBytes(dir: string, pattern: RegExp): number {
  return readdirSync(dir)
    .filter((f) => pattern.test(f))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

export async function accountsSuite(): Promise<BenchSuite> {
  const root = mkdtempSync(join(tmpdir(), 'arena-bench-accounts-'));
  const stores: Sized[] = [];
  const skipped: string[] = [];
  try {
    for (const n of SIZES) {
      const budget = n >= 100_000 ? SETUP_BUDGET_MS : Infinity;
      const got = await setUp(root, n, budget);
      if (!('store' in got)) {
        skipped.push(
          `${n.toLocaleString('en-US')} accounts: not set up within ${SETUP_BUDGET_MS / 1000} s (${got.reached.toLocaleString('en-US')} in ${(got.ms / 1000).toFixed(1)} s), left out`,
        );
        continue;
      }
      process.stderr.write(`bench serve: ${n} accounts with a bot each set up in ${Math.round(got.setupMs)} ms\n`);
      stores.push(got);
    }
    for (let i = -5; i < WRITES; i++) {
      for (const s of i % 2 ? stores : [...stores].reverse()) {
        const running = matchOf(s.bots);
        const done = finish(running);
        const ratings = await ratingsOf(s.store, done);
        const t0 = performance.now();
        await s.store.putMatch(running);
        await s.store.completeMatch(done, ratings);
        if (i >= 0) s.writes.push(performance.now() - t0);
      }
    }
    const name = (n: number) => `completed-match write with ${n.toLocaleString('en-US')} accounts`;
    const rows: BenchRow[] = stores.map((s) => ({
      name: name(s.n),
      value: median(s.writes),
      unit: 'ms',
      extra: {
        setup_s: (s.setupMs / 1000).toFixed(1),
        store_json_KB: Math.round(statSync(join(s.store.dir, 'store.json')).size / 1024),
        journal_KB: Math.round(diskBytes(s.store.dir, /^journal\.\d+\.jsonl$/) / 1024),
        writes: s.writes.length,
      },
    }));
    return {
      suite: 'serve: store write time by accounts (one bot each)',
      baseline: name(SIZES[0]),
      rows,
      notes: [
        `medians of ${WRITES} completed matches per row, written alternately to the stores: putMatch (running) then completeMatch (a 200-event replay and four rating updates)`,
        `setup_s: creating the accounts and their bots through the store API, ${SETUP_CONCURRENCY} sign-ups at once (one journal line per write; lines appended during an fsync share the next); goal: 10,000 in under 30 s`,
        'goal: every row within 1.5x of the 10-account row',
        ...skipped,
      ],
    };
  } finally {
    for (const s of stores) await s.store.close().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  }
}
