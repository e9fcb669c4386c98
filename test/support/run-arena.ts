// Runs the real `node bin/arena` in a child process. Asynchronous on purpose:
// the test's HTTP server lives in this process and must keep answering.
import { fileURLToPath } from 'node:url';
import { runCommand, type RunResult } from './run-command';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type { RunResult } from './run-command';

export interface RunOptions {
  env?: Record<string, string>;
  input?: string | Buffer;
  cwd?: string;
  /** Run under `ulimit -f`: no file may grow past this many KiB (writes fail with EFBIG, as on a full disk). */
  fileSizeLimitKiB?: number;
}

export function runArena(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_OPTIONS: '', ...opts.env };
  const argv = [process.execPath, `${ROOT}bin/arena`, ...args];
  // The shell only sets the limit and execs node, with the arguments as they are (no quoting).
  const [file, ...rest] =
    opts.fileSizeLimitKiB === undefined
      ? argv
      : ['bash', '-c', `ulimit -f ${opts.fileSizeLimitKiB} && exec "$0" "$@"`, ...argv];
  return runCommand(file, rest, { cwd: opts.cwd ?? ROOT, env, input: opts.input });
}
