// builtin:search against greedy: first places in 4-seat games search + greedy
// x3 (seats rotating as `arena simulate` does), next to greedy's own share in
// greedy x4 games of the same seeds (the baseline: 25% for an equal bot),
// and the time per decision of each bot, measured in the same run: mean, p99,
// max and how many took over 5 ms, with how many of those overlapped a
// garbage collection and how many had the process off the CPU for half their
// time (the machine is shared), and for search the most work one decision
// did (in its budget's counted decisions, the same on any machine) times the
// run's median time per counted decision. ARENA_BENCH_SEARCH_GAMES sets the
// count (default 1,000).
import { createBuiltinBot, newGame, nextSeat, outcome, submit, type BuiltinBot, type BuiltinBotName } from '../engine';
import { gameSeed } from '../src/sim/simulate';
import { watchGc, type BenchSuite, type GcPause } from './harness';

const GAMES = Number(process.env.ARENA_BENCH_SEARCH_GAMES ?? 1000);
const SEED = 'bench-search';
/** The goal for one decision of the search bot. */
const LIMIT_MS = 5;

interface Run {
  firsts: number;
  times: Float64Array;
  count: number;
  /** Counted work of each decision (search only; 0 otherwise). */
  work: Float64Array;
  /** Decisions over LIMIT_MS: when, how long, and the process's CPU time meanwhile. */
  slow: Array<{ start: number; ms: number; cpuMs: number }>;
}

/** Games of `hero` (rotating seats) against greedy x3; times every decision of the hero. */
async function play(hero: BuiltinBotName, games: number): Promise<Run> {
  const run: Run = {
    firsts: 0,
    times: new Float64Array(games * 120),
    count: 0,
    work: new Float64Array(games * 120),
    slow: [],
  };
  for (let i = 0; i < games; i++) {
    const seed = gameSeed(SEED, i);
    // Rotation as in src/sim/simulate.ts: the hero (bot 0) sits at seat i % 4.
    const heroSeat = i % 4;
    const bots: BuiltinBot[] = [0, 1, 2, 3].map((s) =>
      createBuiltinBot(s === heroSeat ? hero : 'greedy', `${seed}:${s}`),
    );
    const g = newGame(seed, 4, { events: false });
    for (let s = nextSeat(g); s !== -1; s = nextSeat(g)) {
      // The CPU clock is read outside the timed span, for the hero only.
      const c0 = s === heroSeat ? process.cpuUsage() : undefined;
      const t0 = performance.now();
      const a = bots[s].decide(g, s);
      const dt = performance.now() - t0;
      if (c0) {
        const c = process.cpuUsage(c0);
        if (run.count === run.times.length) {
          run.times = grow(run.times);
          run.work = grow(run.work);
        }
        run.work[run.count] = (bots[s] as { last?: { used: number } }).last?.used ?? 0;
        run.times[run.count++] = dt;
        if (dt > LIMIT_MS) run.slow.push({ start: t0, ms: dt, cpuMs: (c.user + c.system) / 1000 });
      }
      const r = submit(g, s, a);
      if (!r.ok) throw new Error(`${bots[s].name} at seat ${s} answered illegally: ${r.reason.code}`);
    }
    if (outcome(g)!.winner === heroSeat) run.firsts++;
    // Lets the gc observer collect its entries between games.
    await new Promise((r) => setImmediate(r));
  }
  return run;
}

function grow(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

function stats(r: Run, pauses: readonly GcPause[]) {
  const t = r.times.slice(0, r.count).sort();
  const mean = t.reduce((a, b) => a + b, 0) / t.length;
  const withGc = r.slow.filter((d) => pauses.some((p) => p.start < d.start + d.ms && p.start + p.ms > d.start)).length;
  const offCpu = r.slow.filter((d) => d.cpuMs < d.ms / 2).length;
  // Time per counted decision, over the decisions that did real work.
  const perUnit: number[] = [];
  let maxWork = 0;
  for (let i = 0; i < r.count; i++) {
    if (r.work[i] >= 50) perUnit.push(r.times[i] / r.work[i]);
    maxWork = Math.max(maxWork, r.work[i]);
  }
  perUnit.sort((a, b) => a - b);
  const msPerUnit = perUnit.length ? perUnit[perUnit.length >> 1] : 0;
  return {
    mean,
    p99: t[Math.floor(t.length * 0.99)],
    max: t[t.length - 1],
    over: r.slow.length,
    withGc,
    offCpu,
    maxWork,
    msPerUnit,
  };
}

export async function run(): Promise<BenchSuite[]> {
  const gc = watchGc();
  // Warm-up (JIT) for both bots, not counted.
  await play('search', 8);
  const greedy = await play('greedy', GAMES);
  const search = await play('search', GAMES);
  await new Promise((r) => setTimeout(r, 10));
  gc.stop();
  const gs = stats(greedy, gc.pauses),
    ss = stats(search, gc.pauses);
  const row = (name: string, r: Run, s: ReturnType<typeof stats>) => ({
    name,
    value: r.firsts / GAMES,
    unit: 'first places',
    extra: {
      firsts: r.firsts,
      games: GAMES,
      decisions: r.count,
      msPerDecision: s.mean.toFixed(3),
      p99Ms: s.p99.toFixed(3),
      maxMs: s.max.toFixed(2),
      over5Ms: s.over,
      over5MsInGc: s.withGc,
      over5MsOffCpu: s.offCpu,
      ...(s.maxWork > 0 ? { maxWork: s.maxWork, maxWorkMs: (s.maxWork * s.msPerUnit).toFixed(2) } : {}),
    },
  });
  return [
    {
      suite: 'search bot vs greedy x3 (4 seats, seats rotating)',
      baseline: 'greedy + greedy x3',
      rows: [row('greedy + greedy x3', greedy, gs), row('search + greedy x3', search, ss)],
      notes: [
        'value: share of games the first bot wins; an equal bot wins 25%. Goal for search: at least 40% over 1,000 games.',
        `times are per decision of the first bot only (search/greedy mean time x${(ss.mean / gs.mean).toFixed(0)}); goal for search: every decision within ${LIMIT_MS} ms, so max within ${LIMIT_MS} ms and over5Ms 0`,
        `over5Ms: decisions over ${LIMIT_MS} ms; over5MsInGc: those that overlapped a garbage collection; over5MsOffCpu: those for half of which the process had no CPU (another process on a shared machine). greedy's own over5Ms shows how noisy the machine was`,
        'maxWork: the most counted work (simulated decisions, static evaluations, drawn worlds) of one search decision, the same on any machine; maxWorkMs: that work at the median time per counted decision of this run, the worst decision on a quiet machine',
      ],
    },
  ];
}
