// The worker thread of `arena simulate --workers N` (src/sim/parallel.ts):
// built on its own into one self-contained script (dist/sim-worker.cjs), which
// the bundle starts as a file and the single executable as code it carries.
// It plays each block of games the main thread hands it and answers with the
// block's tally; a block is a range of game indexes, so which worker plays a
// game never changes that game.
import { parentPort, workerData } from 'node:worker_threads';
import { emptyTally, playRange, validateBots } from './simulate';
import type { FromWorker, ToWorker, WorkerSetup } from './worker-messages';

const port = parentPort;
if (port) {
  const setup = workerData as WorkerSetup;
  const names = validateBots(setup.bots);
  const stopped = () => Atomics.load(setup.stop, 0) !== 0;
  port.on('message', (msg: ToWorker) => {
    if (msg.type === 'stop') {
      port.close();
      return;
    }
    try {
      const tally = emptyTally(names.length);
      let sinceReport = 0;
      playRange(
        names,
        setup.seed,
        msg.from,
        msg.to,
        tally,
        () => {
          // Progress between blocks' ends, at most every few games.
          if (++sinceReport === setup.progressEvery) {
            port.postMessage({ type: 'progress', games: sinceReport } satisfies FromWorker);
            sinceReport = 0;
          }
        },
        stopped,
        setup.duplicate,
      );
      port.postMessage({ type: 'done', tally, unreported: sinceReport } satisfies FromWorker);
    } catch (err) {
      port.postMessage({
        type: 'error',
        message: err instanceof Error ? err.message : String(err),
      } satisfies FromWorker);
    }
  });
}
