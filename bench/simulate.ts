// `arena simulate --workers N`: games per second of whole `arena simulate`
// commands, as a user runs them, with N worker threads against one, the same
// seeded games, in turns (one, N, one, N...) so load on the machine hits both
// alike; the median of the rounds. Every row is a fresh process that pays its
// own start-up and JIT warm-up, so none is measured warm against a cold one.
// Goal: at least 1.8x with 2 workers on 2 cores. The last row is the
// machine's own ceiling: two separate `--workers 1` processes side by side,
// each with half the games (wall time from their start to the last one's end).
// A last pair of rows measures the same in this process (already warm) against
// fresh worker threads, which is what a library caller of simulateParallel sees.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/docs/package-files';
import { simWorkerScript } from '../src/cli/sim-worker-script';
import { simulateParallel } from '../src/sim/parallel';
import type { BenchSuite } from './harness';

const GAMES = Number(process.env.ARENA_BENCH_SIM_GAMES ?? 12000);
const ROUNDS = Number(process.env.ARENA_BENCH_SIM_ROUNDS ?? 3);
const BOTS = ['random', 'random', 'random', 'random'];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Wall seconds of `arena simulate` processes started together, one per entry of `runs` (workers, games). */
async function commands(runs: Array<{ workers: number; games: number; seed: string }>): Promise<number> {
  const arena = join(packageRoot(), 'bin', 'arena');
  const t0 = performance.now();
  await Promise.all(runs.map(({ workers, games, seed }) => new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [arena, 'simulate', '--games', String(games), '--bots', BOTS.join(','), '--seed', seed, '--workers', String(workers), '--quiet', '--json'], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`arena simulate exited ${code}`))));
  })));
  return (performance.now() - t0) / 1000;
}

export async function run(): Promise<BenchSuite[]> {
  const cores = availableParallelism();
  const counts = [...new Set([1, 2, cores])];
  const rates = new Map<number, number[]>(counts.map((w) => [w, []]));
  const ceiling: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const workers of counts) rates.get(workers)!.push(GAMES / await commands([{ workers, games: GAMES, seed: `bench-sim/${r}` }]));
    ceiling.push(GAMES / await commands([0, 1].map((i) => ({ workers: 1, games: GAMES / 2, seed: `bench-sim-proc/${r}/${i}` }))));
  }

  // In this process: the calling thread warm (after a first run), worker threads fresh each time.
  const inProcess = new Map<number, number[]>([[1, []], [2, []]]);
  await simulateParallel({ games: Math.min(GAMES, 500), bots: BOTS, seed: 'bench-sim-warm', workers: 1 }, simWorkerScript);
  for (let r = 0; r < ROUNDS; r++) {
    for (const workers of [1, 2]) {
      const res = await simulateParallel({ games: GAMES, bots: BOTS, seed: `bench-sim/${r}`, workers }, simWorkerScript);
      inProcess.get(workers)!.push(GAMES / res.seconds);
    }
  }

  const extra = { games: GAMES, rounds: ROUNDS };
  const rows = counts.map((w) => ({
    name: `arena simulate --workers ${w}`,
    value: Math.round(median(rates.get(w)!)),
    unit: 'games/s',
    extra,
  }));
  rows.push({ name: '2 processes --workers 1 side by side (ceiling)', value: Math.round(median(ceiling)), unit: 'games/s', extra });
  rows.push({ name: 'in this process, warm: 1 (the calling thread)', value: Math.round(median(inProcess.get(1)!)), unit: 'games/s', extra });
  rows.push({ name: 'in this process: 2 fresh worker threads', value: Math.round(median(inProcess.get(2)!)), unit: 'games/s', extra });
  return [{
    suite: 'simulate on worker threads (random x4)',
    baseline: 'arena simulate --workers 1',
    rows,
    notes: [
      `${cores} cores here; goal: --workers 2 at least 1.8x --workers 1 on 2 cores. Whole commands: start-up, JIT warm-up and thread start included on both sides.`,
      'The ceiling row is two whole processes sharing the machine: what two cores give this workload here, whatever the threads do.',
      'The in-process rows put a warm thread against worker threads that start cold (new isolates compile the engine again): a library caller\'s view, not the CLI\'s.',
    ],
  }];
}
