// Runs the real commander program (run() from src/cli/main.ts) in this
// process with its own streams and environment (commands take their IO as a
// parameter), capturing stdout/stderr and the exit code. Spawning costs over
// a second per run on the shared machine, so edge cases use this and only the
// main paths spawn `node bin/arena` (see run-arena.ts).
import { runCli } from './run-cli';
import type { RunResult } from './run-arena';

export async function runInProcess(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runCli(args, { env });
}
