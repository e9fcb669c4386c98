// `npm run bench -- scale`: one fixed set of matches (loopback bots that
// answer at once, in this process) played by 1 and then by 2 `arena serve
// --role worker` processes on one PostgreSQL database (durable, as in
// production). The bench queues the matches itself, as the scheduler does
// (QueueDispatch.start), keeping every worker slot full (a closed loop), so
// enqueue-to-start is the queue's pickup latency, not a backlog.
// Reports matches/s; CPU seconds of the workers, PostgreSQL (the postmaster
// and its backends) and this process (bots and queueing), from /proc; matches
// per worker CPU second, 2 workers against 1 (goal: at least 0.85: no
// contention in the database or the queue); and, from pg_stat_database
// (the bench's own queries taken out), database round trips (transactions)
// and rows written per match and per decision.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import pg from 'pg';
import { generateKeyPair } from '../src/keys/index';
import { LiveHub } from '../src/service/live/hub';
import { migrateQueue } from '../src/service/queue/queue-schema';
import { QueueDispatch } from '../src/service/queue/queue-dispatch';
import { busyBots } from '../src/service/queue/match-jobs';
import { MatchPlayer } from '../src/service/scheduler/match-player';
import { openPgStore, type PgStore } from '../src/service/store/pg-store';
import type { BotRecord } from '../src/service/store/types';
import { legalPlayer } from '../test/support/policies';
import { removePostgres, startPostgres, type PgCluster } from '../test/support/postgres';
import { answer, startTestBot, type TestBot } from '../test/support/test-bot';
import type { BenchRow, BenchSuite } from './harness';

const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/dist\/?$/, '/');
const MATCHES = Number(process.env.BENCH_SCALE_MATCHES ?? 120);
/** Matches at once in all: 1 worker plays them all, 2 workers half each (the same load, spread over processes). */
const SLOTS = 4;
const WARMUP = Number(process.env.BENCH_SCALE_WARMUP ?? 40);
/** Enough that every slot of 2 workers can seat 4 idle bots, with room to spare. */
const BOTS = 48;
const TICKS = 100; // /proc stat clock ticks per second (USER_HZ on Linux)

function cpuOf(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** CPU seconds of the postmaster and every process it started (backends, writers). */
function postgresCpu(cluster: PgCluster): number {
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = cpuOf(postmaster);
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(f.slice(f.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmaster) total += cpuOf(Number(d));
    } catch {
      /* gone */
    }
  }
  return total;
}

const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

interface DbStats {
  xacts: number;
  rows: number;
}
async function dbStats(c: pg.Client, db: string): Promise<DbStats> {
  // Backends report their counters about once a second: wait for the last ones.
  await new Promise((r) => setTimeout(r, 1_200));
  const r = await c.query(
    `SELECT xact_commit + xact_rollback AS x, tup_inserted + tup_updated + tup_deleted AS w FROM pg_stat_database WHERE datname = $1`,
    [db],
  );
  // This query's own transaction counts too: the caller subtracts its reads.
  return { xacts: Number(r.rows[0].x), rows: Number(r.rows[0].w) };
}

function startWorker(url: string, concurrency: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin/arena'),
      'serve',
      '--role',
      'worker',
      '--store',
      url,
      '--dev',
      '--port',
      '0',
      '--concurrency',
      String(concurrency),
      '--log-format',
      'json',
    ],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_OPTIONS: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      if (/listening on/.test(err)) resolve(child);
      for (const line of d.split('\n'))
        if (/match\.(abort|error)|queue\./.test(line)) process.stderr.write(`worker: ${line}\n`);
      if (err.length > 100_000) err = err.slice(-10_000);
    });
    child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${err.slice(-2000)}`)));
  });
}

interface Run {
  workers: number;
  each: number;
  seconds: number;
  workerCpu: number;
  pgCpu: number;
  benchCpu: number;
  completed: number;
  decisions: number;
  xacts: number;
  rows: number;
  waitP50: number;
  waitP99: number;
}

async function runWith(cluster: PgCluster, workers: number, each: number, bots: TestBot[]): Promise<Run> {
  const name = `scale${workers}x${each}`;
  const url = await cluster.createDatabase(name);
  const store: PgStore = await openPgStore(url);
  const stats = new pg.Client({ connectionString: cluster.url() });
  await stats.connect();
  const procs: ChildProcess[] = [];
  try {
    const owner = await store.createUser({ email: 'bench@example.com', name: 'bench' });
    const records: BotRecord[] = [];
    for (const [i, b] of bots.entries())
      records.push(await store.addBot({ ownerId: owner.id, name: `b${i}`, game: 'pioneers', url: b.url }));
    const log = () => {};
    await migrateQueue(store.db, log);
    const dispatch = new QueueDispatch({ db: store.db, store, matchTimeoutMs: 600_000, log });
    const player = new MatchPlayer({
      store,
      hub: new LiveHub(),
      platformKey: generateKeyPair().privateKey,
      matchTimeoutMs: 600_000,
      log,
    });
    let n = 0;
    // As the scheduler: a bot plays one match at a time (busyBots), so the bench seats only idle ones.
    let busy = new Set<string>();
    const enqueue = () => {
      const seats = records.filter((b) => !busy.has(b.id)).slice(0, 4);
      for (const b of seats) busy.add(b.id);
      return dispatch.start(player.prepare(`m${String(n++).padStart(5, '0')}`, seats, true));
    };
    const running = async () => {
      const now = await busyBots(store.db);
      busy = now.botIds;
      return now.running;
    };
    for (let i = 0; i < workers; i++) procs.push(await startWorker(url, each));
    // Warm-up, not measured: WARMUP matches, so each worker process has compiled its hot code (JIT is per process).
    const slots = workers * each;
    for (let done = 0; done < WARMUP; done += slots) {
      for (let i = 0; i < slots; i++) await enqueue();
      while ((await running()) > 0) await new Promise((r) => setTimeout(r, 20));
    }
    const first = n;

    const before = await dbStats(stats, name);
    const cpu0 = { w: procs.reduce((s, p) => s + cpuOf(p.pid!), 0), pg: postgresCpu(cluster), me: selfCpu() };
    const t0 = performance.now();
    let polls = 0;
    let enqueues = 0;
    for (;;) {
      const now = await running();
      polls++;
      if (n - first >= MATCHES && now === 0) break;
      for (let i = now; i < slots && n - first < MATCHES; i++) {
        await enqueue();
        enqueues++;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu1 = { w: procs.reduce((s, p) => s + cpuOf(p.pid!), 0), pg: postgresCpu(cluster), me: selfCpu() };
    const after = await dbStats(stats, name);

    const measured = (
      await store.db.query<{ record: string; w: number }>(
        `SELECT m.record, extract(epoch FROM j.started_at - j.enqueued_at)::float8 * 1000 AS w FROM arena_matches m JOIN arena_match_jobs j ON j.match_id = m.id WHERE m.id >= $1 ORDER BY m.id`,
        [`m${String(first).padStart(5, '0')}`],
      )
    ).rows;
    let decisions = 0;
    let completed = 0;
    for (const row of measured) {
      const rec = JSON.parse(row.record) as { status: string; replay: Array<{ kind: string }> };
      if (rec.status === 'completed') completed++;
      decisions += rec.replay.filter((e) => e.kind === 'action').length;
    }
    const waits = measured.map((r) => Number(r.w)).sort((a, b) => a - b);
    const q = (p: number) => waits[Math.min(waits.length - 1, Math.floor(p * waits.length))];
    // The bench's own transactions: each poll, each enqueue (one each), and the stats read itself; its rows: the
    // enqueues'.
    const enqueueRows = 3; // match row, job row, graphile job row
    return {
      workers,
      each,
      seconds,
      completed,
      decisions,
      workerCpu: cpu1.w - cpu0.w,
      pgCpu: cpu1.pg - cpu0.pg,
      benchCpu: cpu1.me - cpu0.me,
      xacts: after.xacts - before.xacts - polls - enqueues - 1,
      rows: after.rows - before.rows - enqueues * enqueueRows,
      waitP50: q(0.5),
      waitP99: q(0.99),
    };
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
    await stats.end();
    await store.close();
  }
}

export async function run(): Promise<BenchSuite[]> {
  const cluster = await startPostgres({ durable: true });
  const bots: TestBot[] = [];
  try {
    for (let i = 0; i < BOTS; i++) {
      const play = legalPlayer();
      bots.push(
        await startTestBot({
          behaviour: (ctx) => answer(ctx, play(ctx.request.view, ctx.request.kind, ctx.request.matchId)),
        }),
      );
    }
    const one = await runWith(cluster, 1, SLOTS, bots);
    const two = await runWith(cluster, 2, SLOTS / 2, bots);
    // The control: one worker with the load per process of the two (where the difference is Node's, not the
    // database's).
    const control = await runWith(cluster, 1, SLOTS / 2, bots);
    const row = (r: Run): BenchRow => ({
      name: `${r.workers} worker${r.workers > 1 ? 's' : ''}, ${r.each} matches each`,
      value: r.completed / r.workerCpu,
      unit: 'matches/worker-CPU-s',
      extra: {
        'matches/s': +(r.completed / r.seconds).toFixed(2),
        completed: `${r.completed}/${MATCHES}`,
        'cpu workers s': +r.workerCpu.toFixed(2),
        'cpu postgres s': +r.pgCpu.toFixed(2),
        'cpu bots+queue s': +r.benchCpu.toFixed(2),
        'db round trips/match': +(r.xacts / r.completed).toFixed(1),
        'per decision': +(r.xacts / r.decisions).toFixed(4),
        'rows written/match': +(r.rows / r.completed).toFixed(1),
        'rows/decision': +(r.rows / r.decisions).toFixed(4),
        'decisions/match': Math.round(r.decisions / r.completed),
        'enqueue-to-start p50 ms': +r.waitP50.toFixed(1),
        'p99 ms': +r.waitP99.toFixed(1),
      },
    });
    const perCpu = (r: Run) => r.completed / r.workerCpu;
    const ratio = perCpu(two) / perCpu(one);
    const sameLoad = perCpu(two) / perCpu(control);
    return [
      {
        suite: 'scale',
        baseline: row(one).name,
        headline: `matches per worker CPU second, 2 workers against 1: x${ratio.toFixed(2)} (goal at least x0.85); against 1 worker with the same matches per process: x${sameLoad.toFixed(2)}; matches/s ${(one.completed / one.seconds).toFixed(2)} -> ${(two.completed / two.seconds).toFixed(2)}`,
        verdict: { perWorkerCpuRatio: +ratio.toFixed(3), sameLoadPerProcessRatio: +sameLoad.toFixed(3) },
        rows: [row(one), row(two), row(control)],
        notes: [
          "round trips = transactions in pg_stat_database (a statement outside a transaction is one), the bench's own polls and enqueues taken out; rows = tuples inserted, updated or deleted",
          'the bots and the queueing run in this process; PostgreSQL is durable (fsync on)',
        ],
      },
    ];
  } finally {
    await Promise.all(bots.map((b) => b.close()));
    removePostgres(cluster);
  }
}
