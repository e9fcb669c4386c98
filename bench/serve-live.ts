// `npm run bench -- serve-matches` (its first part; alone: `serve-live`): what
// a flush costs the live hub shared through PostgreSQL (one INSERT of the
// round's public events with the public view, and a NOTIFY: one statement),
// against the in-memory hub, in the same run. The same seeded games (built-in
// random bots, no sockets) are published round by round, as the runner
// publishes them, into:
//   1. the in-memory hub, nobody watching (the baseline), and one viewer;
//   2. the Postgres hub, each flush's write awaited before the next round
//      (the round trip and the CPU of one flush: this process and PostgreSQL's);
//   3. the Postgres hub with rounds back to back (writes coalesce while one
//      is in flight): what a flood of flushes costs;
//   4. one game at a round a millisecond, with one viewer on a second hub on
//      the same database: the time from publish to that viewer's message.
// PostgreSQL: a local cluster, fsync on, over loopback TCP.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publicView } from '../engine/index';
import type { PublicView } from '../engine/index';
import type { MatchEvent } from '../src/protocol/index';
import { LiveHub } from '../src/service/live/hub';
import { PgLiveHub } from '../src/service/live/pg-hub';
import { openPgStore } from '../src/service/store/pg-store';
import { rounds } from '../test/support/live-game';
import { removePostgres, startPostgres, type PgCluster } from '../test/support/postgres';
import { median, type BenchSuite } from './harness';

const GAMES = Number(process.env.BENCH_LIVE_GAMES ?? 6);

interface Round {
  events: MatchEvent[];
  view: PublicView;
}

const header = (id: string) => ({
  id,
  game: 'pioneers' as const,
  status: 'running' as const,
  players: [],
  startedAt: new Date().toISOString(),
});
const final = { status: 'completed' as const, players: [], endedAt: new Date().toISOString() };
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const sink = { send: () => {}, close: () => {} };

/** CPU seconds (user + system) of every process of the cluster, from /proc (the postmaster and its backends). */
function clusterCpuS(cluster: PgCluster): number {
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const hz = 100;
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // f[1] = ppid, f[11] = utime, f[12] = stime (fields 4, 14, 15 of proc(5))
      if (Number(pid) === postmaster || Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* gone */
    }
  }
  return ticks / hz;
}

const cpuUs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return d.user + d.system;
};

export async function run(): Promise<BenchSuite[]> {
  const games: Round[][] = [];
  let viewMs = 0;
  for (let g = 0; g < GAMES; g++) {
    games.push(
      [...rounds(`bench-live-${g}`)].map((r) => {
        const t = performance.now();
        const view = publicView(r.game);
        viewMs += performance.now() - t;
        return { events: r.events, view };
      }),
    );
  }
  const flushes = games.reduce((n, g) => n + g.length, 0);
  const events = games.reduce((n, g) => n + g.reduce((m, r) => m + r.events.length, 0), 0);

  // 1. In memory.
  const memory = (viewers: number) => {
    const hub = new LiveHub();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    games.forEach((game, i) => {
      const ch = hub.open(header(`mem-${viewers}-${i}`));
      for (let v = 0; v < viewers; v++) ch.subscribe(sink, null);
      for (const r of game) ch.publish(r.events, () => r.view);
      hub.close(ch.header.id, final);
    });
    return { us: ((performance.now() - t0) * 1000) / flushes, cpuUs: cpuUs(c0) / flushes };
  };
  memory(1); // warm-up
  const mem0 = memory(0);
  const mem1 = memory(1);

  const cluster = await startPostgres({ durable: true });
  try {
    const url = await cluster.createDatabase('bench');
    const storeA = await openPgStore(url);
    const storeB = await openPgStore(url);
    const a = await PgLiveHub.start(storeA.db);
    const b = await PgLiveHub.start(storeB.db);
    /**
     * publicView calls the Postgres hub made (the games' views are precomputed: their cost is the publicView row's, per
     * call).
     */
    let views = 0;
    try {
      // 2. One flush at a time: publish, then wait for its write.
      const awaited = async (prefix: string) => {
        views = 0;
        const publishUs: number[] = [];
        const walls: number[] = [];
        const pg0 = clusterCpuS(cluster);
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        for (const [i, game] of games.entries()) {
          const ch = a.open(header(`${prefix}-${i}`));
          await a.flushed();
          for (const r of game) {
            const t = performance.now();
            ch.publish(r.events, () => (views++, r.view));
            publishUs.push((performance.now() - t) * 1000);
            await a.flushed();
            walls.push((performance.now() - t) * 1000);
          }
          a.close(ch.header.id, final);
          await a.flushed();
        }
        return {
          wallUs: ((performance.now() - t0) * 1000) / flushes,
          cpuUs: cpuUs(c0) / flushes,
          pgCpuUs: ((clusterCpuS(cluster) - pg0) * 1e6) / flushes,
          publishUs: median(publishUs),
          p50: median(walls),
          p99: pct(walls, 99),
          viewsPerFlush: views / flushes,
        };
      };
      await awaited('warm');
      const pgAwaited = await awaited('awaited');

      // 3. At the runner's pace (the next round after one turn of the event loop), nobody watching.
      views = 0;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (const [i, game] of games.entries()) {
        const ch = a.open(header(`fast-${i}`));
        for (const r of game) {
          ch.publish(r.events, () => (views++, r.view));
          await new Promise((res) => setImmediate(res));
        }
        a.close(ch.header.id, final);
      }
      await a.flushed();
      const fastWallUs = ((performance.now() - t0) * 1000) / flushes;
      const fastCpuUs = cpuUs(c0) / flushes;
      const fastViews = views / flushes;

      // 4. A round every millisecond or so (a match against bots that think), one viewer on B: publish to message.
      const lag: number[] = [];
      {
        const id = 'paced';
        const ch = a.open(header(id));
        await a.flushed();
        const sent = new Map<number, number>();
        let mirror: Awaited<ReturnType<PgLiveHub['find']>>;
        while (!(mirror = await b.find(id))) await new Promise((r) => setTimeout(r, 1));
        let done!: () => void;
        const ended = new Promise<void>((r) => (done = r));
        mirror.subscribe(
          {
            send: (chunk) => {
              const now = performance.now();
              for (const m of chunk.matchAll(/^id: (\d+)$/gm)) {
                const at = sent.get(Number(m[1]));
                if (at !== undefined) lag.push(now - at);
              }
            },
            close: () => done(),
          },
          mirror.lastSeq,
        );
        for (const r of games[0]) {
          const now = performance.now();
          for (const e of r.events) sent.set(e.seq, now);
          ch.publish(r.events, () => r.view);
          await new Promise((res) => setTimeout(res, 1));
        }
        a.close(id, final);
        await a.flushed();
        await ended;
      }
      return [
        {
          suite: `serve-matches (live hub): cost per flush, ${GAMES} games, ${flushes.toLocaleString('en-US')} flushes, ${events.toLocaleString('en-US')} events`,
          baseline: 'in-memory hub, no viewer: publish',
          headline: `A flush through PostgreSQL (INSERT + NOTIFY, awaited): ${pgAwaited.p50.toFixed(0)} us wall (p99 ${pgAwaited.p99.toFixed(0)}), ${(pgAwaited.cpuUs + pgAwaited.pgCpuUs).toFixed(0)} us CPU (arena ${pgAwaited.cpuUs.toFixed(0)} + PostgreSQL ${pgAwaited.pgCpuUs.toFixed(0)}); the in-memory hub ${mem0.us.toFixed(1)} us (${mem1.us.toFixed(1)} with a viewer)`,
          rows: [
            {
              name: 'in-memory hub, no viewer: publish',
              value: mem0.us,
              unit: 'us',
              extra: { cpuUs: mem0.cpuUs.toFixed(1) },
            },
            {
              name: 'in-memory hub, one viewer: publish',
              value: mem1.us,
              unit: 'us',
              extra: { cpuUs: mem1.cpuUs.toFixed(1) },
            },
            {
              name: 'postgres hub: publish (on the decision path)',
              value: pgAwaited.publishUs,
              unit: 'us',
              extra: { note: 'median; the write is sent from it, and runs after it' },
            },
            {
              name: 'publicView, one call',
              value: (viewMs * 1000) / flushes,
              unit: 'us',
              extra: {
                note: 'not in the other rows (views precomputed); the in-memory hub calls it per flush watched, the postgres hub per write',
                awaitedCallsPerFlush: pgAwaited.viewsPerFlush.toFixed(3),
                backToBackCallsPerFlush: fastViews.toFixed(3),
              },
            },
            {
              name: 'postgres hub: flush awaited, p50 wall',
              value: pgAwaited.p50,
              unit: 'us',
              extra: { p99: pgAwaited.p99.toFixed(0) },
            },
            { name: 'postgres hub: CPU per flush, arena process', value: pgAwaited.cpuUs, unit: 'us' },
            { name: 'postgres hub: CPU per flush, PostgreSQL', value: pgAwaited.pgCpuUs, unit: 'us' },
            {
              name: 'postgres hub, rounds back to back: wall per flush',
              value: fastWallUs,
              unit: 'us',
              extra: { cpuUs: fastCpuUs.toFixed(0), note: 'writes coalesce while one is in flight' },
            },
            {
              name: 'viewer on another hub, a round a ms: publish to message, p50',
              value: median(lag) * 1000,
              unit: 'us',
              extra: { p99us: (pct(lag, 99) * 1000).toFixed(0), events: lag.length },
            },
          ],
          notes: [
            'One flush is one decision round of a match: its new events (1.5 on average here) and the public view after them.',
            'Awaited: each write waits for the previous, as a lone match on an idle machine; CPU is this process (both hubs, idle listeners) and every PostgreSQL process over the loop, from /proc.',
            "Back to back: the next round starts after one turn of the event loop (faster than any bot answers); the player's writes then carry several rounds each.",
            "Publish to message: both hubs in this process, each with its own connections; the viewer's hub wakes on the NOTIFY and reads the new rows.",
          ],
        },
      ];
    } finally {
      await a.stop();
      await b.stop();
      await storeA.close();
      await storeB.close();
    }
  } finally {
    removePostgres(cluster);
  }
}
