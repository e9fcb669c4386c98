// `arena simulate --workers N`: games per second on N worker threads against
// one worker (this thread), the same seeded games, in turns (one, N, one, N...)
// so load on the machine hits both alike; the median of the rounds.
// Goal: at least 1.8x with 2 workers on 2 cores. "cores busy" is the process's
// CPU time over wall time: one worker already keeps part of the second core
// busy with V8's background compiling and GC, which bounds the ratio. The
// last row is the machine's own ceiling: two separate `arena simulate
// --workers 1` processes side by side, each with half the games (wall time
// from their start to the last one's end).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/docs/package-files';
import { simWorkerScript } from '../src/cli/sim-worker-script';
import { simulateParallel } from '../src/sim/parallel';
import type { BenchSuite } from './harness';

const GAMES = Number(process.env.ARENA_BENCH_SIM_GAMES ?? 8000);
const ROUNDS = Number(process.env.ARENA_BENCH_SIM_ROUNDS ?? 3);
const BOTS = ['random', 'random', 'random', 'random'];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<BenchSuite[]> {
  const cores = availableParallelism();
  const counts = [...new Set([1, 2, cores])];
  const rates = new Map<number, number[]>(counts.map((w) => [w, []]));
  const busy = new Map<number, number[]>(counts.map((w) => [w, []]));
  // A warm-up run of each, not counted (JIT, file cache, thread start-up paths).
  for (const workers of counts) await simulateParallel({ games: Math.min(GAMES, 500), bots: BOTS, seed: 'bench-sim-warm', workers }, simWorkerScript);
  for (let r = 0; r < ROUNDS; r++) {
    for (const workers of counts) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const res = await simulateParallel({ games: GAMES, bots: BOTS, seed: `bench-sim/${r}`, workers }, simWorkerScript);
      const cpu = process.cpuUsage(cpu0);
      rates.get(workers)!.push(GAMES / res.seconds);
      busy.get(workers)!.push((cpu.user + cpu.system) / 1000 / (performance.now() - t0));
    }
  }
  const ceiling: number[] = [];
  for (let r = 0; r < ROUNDS; r++) ceiling.push(await twoProcesses(r));
  const rows = counts.map((w) => ({
    name: w === 1 ? '1 worker' : `${w} workers`,
    value: Math.round(median(rates.get(w)!)),
    unit: 'games/s',
    extra: { coresBusy: median(busy.get(w)!).toFixed(2), games: GAMES, rounds: ROUNDS } as Record<string, string | number>,
  }));
  rows.push({ name: '2 processes side by side (ceiling)', value: Math.round(median(ceiling)), unit: 'games/s', extra: { games: GAMES, rounds: ROUNDS } });
  return [{
    suite: 'simulate on worker threads (random x4)',
    baseline: '1 worker',
    rows,
    notes: [
      `${cores} cores here; goal: 2 workers at least 1.8x one worker on 2 cores (start-up of the threads included)`,
      'the ceiling row pays for two process start-ups as the workers pay for two thread start-ups; a single busy thread also runs faster than each of two (one core boosts, V8 compiles and collects on the idle one)',
    ],
  }];
}

/** Games per second of two `arena simulate --workers 1` processes at once, GAMES/2 games each. */
async function twoProcesses(round: number): Promise<number> {
  const arena = join(packageRoot(), 'bin', 'arena');
  const t0 = performance.now();
  await Promise.all([0, 1].map((i) => new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [arena, 'simulate', '--games', String(GAMES / 2), '--bots', BOTS.join(','), '--seed', `bench-sim-proc/${round}/${i}`, '--workers', '1', '--quiet', '--json'], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`arena simulate exited ${code}`))));
  })));
  return GAMES / ((performance.now() - t0) / 1000);
}
