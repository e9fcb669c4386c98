// `arena simulate --workers N`: the games of a run split across worker
// threads. Game i depends only on the seed and i, and the tallies are integer
// sums, so any number of workers gives exactly the one-worker result. Work
// goes out in small blocks of game indexes, handed to whichever worker is
// free, so a worker that drew long games does not hold up the rest.
import { Worker } from 'node:worker_threads';
import {
  addTally,
  checkOptions,
  emptyTally,
  simResult,
  simulateSliced,
  type BuiltinName,
  type SimulateOptions,
  type SimulateResult,
} from './simulate';
import type { FromWorker, ToWorker, WorkerSetup } from './worker-messages';

export interface ParallelOptions extends SimulateOptions {
  /** Worker threads; 1 plays on this thread. */
  workers: number;
}

/**
 * Where the worker's script comes from (src/cli/sim-worker-script.ts finds it): a file of the bundle, or the code the
 * single executable carries.
 */
export type WorkerScript = { file: string } | { code: string };

/**
 * Rough one-thread milliseconds a game costs per seat of each bot, warm
 * (random x4: about 0.4 ms a game; one search seat: about 20 ms). Used only to
 * pick a default thread count; on a slower machine the games and a worker's
 * warm-up slow down alike, so the break-even stays at about the same number of games.
 */
const SEAT_MS: Readonly<Record<BuiltinName, number>> = { random: 0.1, greedy: 0.2, search: 20 };

/**
 * A worker thread is a new isolate that compiles the engine again, and plays
 * slowly for about half a second first: a run shorter than this on one thread
 * is over sooner there (the default `arena simulate`, 100 games, took 0.44 s
 * on one thread and 0.62 s on two).
 */
const THREADS_PAY_AFTER_MS = 1000;

/** `--workers` when none is given: every core, unless the run is too short to pay for starting threads. */
export function defaultWorkers(games: number, bots: readonly string[], cores: number): number {
  // An unknown bot counts nothing here: simulateParallel refuses it with the message.
  const gameMs = bots.reduce((ms, b) => ms + ((SEAT_MS as Readonly<Record<string, number | undefined>>)[b] ?? 0), 0);
  return games * gameMs < THREADS_PAY_AFTER_MS ? 1 : Math.max(1, cores);
}

/** How many threads a run of `games` with `workers` asked for plays on: never more than there are games. */
export function threadCount(workers: number, games: number): number {
  return Math.min(workers, games);
}

export async function simulateParallel(opts: ParallelOptions, script: () => WorkerScript): Promise<SimulateResult> {
  const names = checkOptions(opts);
  if (!Number.isInteger(opts.workers) || opts.workers < 1)
    throw new Error(`workers must be a positive integer, got ${opts.workers}`);
  const workers = threadCount(opts.workers, opts.games);
  if (workers === 1) return simulateSliced(opts);

  const start = performance.now();
  // About eight blocks a worker: small enough to balance, large enough that messages cost nothing.
  const block = Math.max(1, Math.min(250, Math.ceil(opts.games / (workers * 8))));
  const progressEvery = Math.max(1, Math.min(50, block >> 1));
  const source = script();
  // Set to 1 on abort; each worker reads it before every game, so a block in play stops at the next game.
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const setup: WorkerSetup = { bots: names, seed: opts.seed, progressEvery, stop, duplicate: opts.duplicate === true };
  const total = emptyTally(names.length);
  let next = 0;
  let done = 0;
  const pool: Worker[] = [];
  const signal = opts.signal;
  const onAbort = () => Atomics.store(stop, 0, 1);
  signal?.addEventListener('abort', onAbort, { once: true });

  try {
    await new Promise<void>((resolve, reject) => {
      let running = workers;
      let failed = false;
      const fail = (err: Error) => {
        if (failed) return;
        failed = true;
        reject(err);
      };
      const progress = (games: number) => {
        done += games;
        if (games > 0) opts.onProgress?.(done);
      };
      const hand = (w: Worker) => {
        if (next < opts.games && !signal?.aborted) {
          const to = Math.min(opts.games, next + block);
          w.postMessage({ type: 'play', from: next, to } satisfies ToWorker);
          next = to;
        } else {
          w.postMessage({ type: 'stop' } satisfies ToWorker);
        }
      };
      for (let i = 0; i < workers; i++) {
        const w =
          'code' in source
            ? new Worker(source.code, { eval: true, workerData: setup })
            : new Worker(source.file, { workerData: setup });
        pool.push(w);
        w.on('message', (msg: FromWorker) => {
          if (msg.type === 'progress') progress(msg.games);
          else if (msg.type === 'done') {
            addTally(total, msg.tally);
            progress(msg.unreported);
            hand(w);
          } else fail(new Error(msg.message));
        });
        w.on('error', (err) => fail(err));
        w.on('exit', (code) => {
          if (code !== 0) fail(new Error(`a simulation worker stopped with exit code ${code}`));
          else if (--running === 0) {
            if (total.games === opts.games || signal?.aborted) resolve();
            else fail(new Error(`the workers played ${total.games} of ${opts.games} games`));
          }
        });
        hand(w);
      }
    });
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // After a failure the others may still be playing: stop them, and wait so no thread outlives the call.
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return simResult(names, opts.seed, total, (performance.now() - start) / 1000, opts.games, opts.duplicate);
}
