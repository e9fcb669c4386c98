// `npm run bench -- serve` (part "stores"): an arena with 10,000 registered
// bots on the file store and on PostgreSQL, in the same run: one scheduler
// tick (read the pool and the ratings, form tables, store every new match as
// running) and GET /leaderboard (every rated bot with its owner's handle).
// The bots' URLs point at a closed loopback port, so the matches a tick
// starts abort at once and are recorded; the tick is measured alone, and the
// next one waits until the previous matches are all recorded.
// Both arenas are seeded with the same records (the store transfer modules:
// a data directory written whole, a database loaded in one transaction).
import { generateKeyPair, privateKeyToPem } from '../src/keys/index';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../src/service/server';
import { LiveHub } from '../src/service/live/hub';
import { Scheduler } from '../src/service/scheduler/scheduler';
import { openFileStore } from '../src/service/store/file-store';
import { newId } from '../src/service/store/ids';
import { openPgStore } from '../src/service/store/pg-store';
import { writeDataDir } from '../src/service/store/transfer/data-dir';
import { loadPostgres } from '../src/service/store/transfer/postgres';
import type { ArenaRecords } from '../src/service/store/transfer/records';
import type { Store } from '../src/service/store/types';
import { removePostgres, startPostgres } from '../test/support/postgres';
import { median, type BenchRow, type BenchSuite } from './harness';

const BOTS = Number(process.env.ARENA_BENCH_SERVE_BOTS ?? 10_000);
const BOTS_PER_USER = 5;
const TICKS = Number(process.env.ARENA_BENCH_SERVE_TICKS ?? 3);
const BOARD_READS = Number(process.env.ARENA_BENCH_SERVE_BOARD_READS ?? 5);

function arena(): ArenaRecords {
  const at = new Date().toISOString();
  const r: ArenaRecords = {
    users: [],
    keys: [],
    bots: [],
    ratings: [],
    sessions: [],
    signInTokens: [],
    matches: [],
    ownerData: [],
    challenges: [],
    webhooks: [],
    webhookDeliveries: [],
    platformKeyPem: privateKeyToPem(generateKeyPair().privateKey),
  };
  for (let i = 0; i < BOTS; i++) {
    if (i % BOTS_PER_USER === 0)
      r.users.push({
        id: newId('u'),
        name: `owner${i / BOTS_PER_USER}`,
        email: `owner${i}@example.com`,
        createdAt: at,
      });
    const bot = {
      id: newId('b'),
      ownerId: r.users[r.users.length - 1].id,
      name: `bot${i}`,
      game: 'pioneers' as const,
      url: 'ws://127.0.0.1:9/',
      status: 'active' as const,
      createdAt: at,
      removedAt: null,
    };
    r.bots.push(bot);
    r.ratings.push({
      botId: bot.id,
      game: 'pioneers',
      mu: 25 + (i % 97) / 10,
      sigma: 8 - (i % 13) / 10,
      gamesPlayed: 1 + (i % 50),
    });
  }
  return r;
}

async function measureStore(name: string, store: Store, platformKeyPem: string): Promise<BenchRow[]> {
  const { createPrivateKey } = await import('node:crypto');
  const scheduler = new Scheduler({
    store,
    hub: new LiveHub(),
    platformKey: createPrivateKey(platformKeyPem),
    tickMs: 3_600_000,
    matchTimeoutMs: 60_000,
    deadlineMs: 2000,
    log: () => {},
  });
  const ticks: number[] = [];
  let started = 0;
  try {
    for (let i = 0; i < TICKS; i++) {
      const t0 = performance.now();
      started = (await scheduler.tick()).length;
      ticks.push(performance.now() - t0);
      while (scheduler.runningCount > 0) await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await scheduler.stop();
  }
  const server = await startServer({
    store,
    dataDir: '',
    platformKey: { privateKey: createPrivateKey(platformKeyPem), publicKeyBase64: '', path: '', created: false },
    host: '127.0.0.1',
    port: 0,
    dev: true,
    tickSeconds: 0,
    rateLimits: { key: { perSecond: 1e9, burst: 1e9 }, address: { perSecond: 1e9, burst: 1e9 } },
  });
  const reads: number[] = [];
  let rows = 0;
  try {
    for (let i = 0; i < BOARD_READS + 1; i++) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/leaderboard`);
      const body = (await res.json()) as { rows: unknown[] };
      if (res.status !== 200) throw new Error(`bench serve: /leaderboard answered ${res.status}`);
      rows = body.rows.length;
      if (i > 0) reads.push(performance.now() - t0);
    }
  } finally {
    await server.close();
  }
  return [
    {
      name: `${name}: one scheduler tick`,
      value: median(ticks),
      unit: 'ms',
      extra: { matches_started: started, ticks: ticks.length },
    },
    { name: `${name}: GET /leaderboard`, value: median(reads), unit: 'ms', extra: { rows, reads: reads.length } },
  ];
}

export async function storesSuite(): Promise<BenchSuite> {
  const root = mkdtempSync(join(tmpdir(), 'arena-bench-stores-'));
  const records = arena();
  const rows: BenchRow[] = [];
  const cluster = await startPostgres({ durable: true });
  try {
    let t0 = performance.now();
    await writeDataDir(join(root, 'data'), records);
    const file = await openFileStore(join(root, 'data'));
    process.stderr.write(
      `bench serve: ${BOTS} bots seeded in a data directory in ${Math.round(performance.now() - t0)} ms\n`,
    );
    try {
      rows.push(...(await measureStore('file store', file, records.platformKeyPem!)));
    } finally {
      await file.close();
    }
    t0 = performance.now();
    const pg = await openPgStore(await cluster.createDatabase('bench'));
    try {
      await loadPostgres(pg.db, records);
      await pg.db.query('ANALYZE');
      process.stderr.write(
        `bench serve: ${BOTS} bots loaded into PostgreSQL in ${Math.round(performance.now() - t0)} ms\n`,
      );
      rows.push(...(await measureStore('postgres', pg, records.platformKeyPem!)));
    } finally {
      await pg.close();
    }
  } finally {
    removePostgres(cluster);
    rmSync(root, { recursive: true, force: true });
  }
  return {
    suite: `serve: ${BOTS.toLocaleString('en-US')} registered bots, file store and PostgreSQL`,
    baseline: 'file store: one scheduler tick',
    rows,
    notes: [
      `a tick reads every active bot and rating, seats up to the default match cap (100 tables of 4), and stores each new match as running; median of ${TICKS}`,
      `/leaderboard: every rated bot with its owner's handle (on PostgreSQL in two batch reads, getBots and getUsers); median of ${BOARD_READS} after one warm-up`,
      'PostgreSQL: a local cluster (fsync on) over loopback TCP; both stores in this one process, one after the other',
    ],
  };
}
