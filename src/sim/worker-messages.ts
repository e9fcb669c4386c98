// What src/sim/parallel.ts and its workers (src/sim/worker-main.ts) say to each other.
import type { SimTally } from './simulate';

export interface WorkerSetup {
  bots: string[];
  seed: string;
  /** A worker reports progress after this many games of a block. */
  progressEvery: number;
  /** Shared with the main thread: non-zero means stop before the next game (the block's tally so far is reported). */
  stop: Int32Array;
  /** Duplicate play (SimulateOptions.duplicate). */
  duplicate: boolean;
}

export type ToWorker = { type: 'play'; from: number; to: number } | { type: 'stop' };

export type FromWorker =
  | { type: 'progress'; games: number }
  | { type: 'done'; tally: SimTally; unreported: number }
  | { type: 'error'; message: string };
