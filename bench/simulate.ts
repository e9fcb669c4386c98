// `arena simulate --workers N`: games per second of whole `arena simulate`
// commands, as a user runs them, with N worker threads against one, the same
// seeded games, in turns (one, N, one, N...) so load on the machine hits both
// alike; the median of the rounds, and the median of each round's own ratio
// (pairedRatio), which a slow moment of the shared machine sways less. Every
// row is a fresh process that pays its own start-up and JIT warm-up, so none
// is measured warm against a cold one.
// Goal: at least 1.8x with 2 workers on 2 cores.
//
// Two run lengths, each its own table. A long run is the rate the goal is
// about: what a bot author measuring thousands of games waits for. A short
// run shows the fixed cost of every worker thread: each is a new V8 isolate
// that runs the engine interpreted while it compiles it again (about 0.3 s of
// a 250-game first block alone, more with two isolates compiling at once),
// which one thread pays once, with the compiler on the other core.
// The last row of each table is the machine's own ceiling: two separate
// `--workers 1` processes side by side, each with half the games (wall time
// from their start to the last one's end).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/docs/package-files';
import { simWorkerScript } from '../src/cli/sim-worker-script';
import { simulateParallel } from '../src/sim/parallel';
import { median, type BenchSuite } from './harness';

const LONG = Number(process.env.ARENA_BENCH_SIM_GAMES ?? 40000);
const SHORT = Number(process.env.ARENA_BENCH_SIM_SHORT_GAMES ?? 8000);
const ROUNDS = Number(process.env.ARENA_BENCH_SIM_ROUNDS ?? 3);
const BOTS = ['random', 'random', 'random', 'random'];

/** Wall seconds of `arena simulate` processes started together, one per entry of `runs` (workers, games). */
async function commands(runs: Array<{ workers: number; games: number; seed: string }>): Promise<number> {
  const arena = join(packageRoot(), 'bin', 'arena');
  const t0 = performance.now();
  await Promise.all(
    runs.map(
      ({ workers, games, seed }) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [
              arena,
              'simulate',
              '--games',
              String(games),
              '--bots',
              BOTS.join(','),
              '--seed',
              seed,
              '--workers',
              String(workers),
              '--quiet',
              '--json',
            ],
            { stdio: ['ignore', 'ignore', 'inherit'] },
          );
          child.on('error', reject);
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`arena simulate exited ${code}`))));
        }),
    ),
  );
  return (performance.now() - t0) / 1000;
}

/** One table: whole commands with 1, 2 and every core's workers, and the two-process ceiling, over `games` games. */
async function wholeCommands(games: number, label: string, cores: number): Promise<BenchSuite> {
  const counts = [...new Set([1, 2, cores])];
  const rates = new Map<number, number[]>(counts.map((w) => [w, []]));
  const ceiling: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const workers of counts)
      rates.get(workers)!.push(games / (await commands([{ workers, games, seed: `bench-sim/${games}/${r}` }])));
    ceiling.push(
      games /
        (await commands(
          [0, 1].map((i) => ({ workers: 1, games: games / 2, seed: `bench-sim-proc/${games}/${r}/${i}` })),
        )),
    );
  }
  // Each round's own ratio to the one-worker run just before it, so a slow moment of the machine shows in both sides of
  // a pair.
  const paired = (xs: number[]) => ({
    games,
    rounds: ROUNDS,
    pairedRatio: median(xs.map((x, r) => x / rates.get(1)![r])).toFixed(3),
  });
  const rows = counts.map((w) => ({
    name: `arena simulate --workers ${w}`,
    value: Math.round(median(rates.get(w)!)),
    unit: 'games/s',
    extra: paired(rates.get(w)!),
  }));
  rows.push({
    name: '2 processes --workers 1 side by side (ceiling)',
    value: Math.round(median(ceiling)),
    unit: 'games/s',
    extra: paired(ceiling),
  });
  return {
    suite: `simulate on worker threads (random x4), ${label}: ${games.toLocaleString('en-US')} games`,
    baseline: 'arena simulate --workers 1',
    rows,
    notes: [],
  };
}

export async function run(): Promise<BenchSuite[]> {
  const cores = availableParallelism();
  const long = await wholeCommands(LONG, 'a long run', cores);
  long.notes = [
    `${cores} cores here; goal: --workers 2 at least 1.8x --workers 1 on 2 cores. Whole commands: start-up, JIT warm-up and thread start included on both sides.`,
    'The ceiling row is two whole processes sharing the machine: what two cores give this workload here, whatever the threads do.',
  ];
  const short = await wholeCommands(SHORT, 'a short run', cores);
  short.notes = [
    'Every worker thread is a new isolate that compiles the engine again while it plays its first block interpreted; one thread compiles on the idle core, two compete with each other for both. A fixed cost per run, so short runs gain less.',
  ];

  // In this process: the calling thread warm (after a first run), worker threads fresh each time.
  const inProcess = new Map<number, number[]>([
    [1, []],
    [2, []],
  ]);
  await simulateParallel(
    { games: Math.min(SHORT, 500), bots: BOTS, seed: 'bench-sim-warm', workers: 1 },
    simWorkerScript,
  );
  for (let r = 0; r < ROUNDS; r++) {
    for (const workers of [1, 2]) {
      const res = await simulateParallel(
        { games: SHORT, bots: BOTS, seed: `bench-sim/${r}`, workers },
        simWorkerScript,
      );
      inProcess.get(workers)!.push(SHORT / res.seconds);
    }
  }
  short.rows.push({
    name: 'in this process, warm: 1 (the calling thread)',
    value: Math.round(median(inProcess.get(1)!)),
    unit: 'games/s',
    extra: { games: SHORT, rounds: ROUNDS },
  });
  short.rows.push({
    name: 'in this process: 2 fresh worker threads',
    value: Math.round(median(inProcess.get(2)!)),
    unit: 'games/s',
    extra: { games: SHORT, rounds: ROUNDS },
  });
  short.notes.push(
    "The in-process rows put a warm thread against worker threads that start cold: a library caller's view, not the CLI's.",
  );
  return [long, short];
}
