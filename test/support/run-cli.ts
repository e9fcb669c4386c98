// Runs the real commander program in this process with its own streams and
// environment (the IO every command takes), so CLI behaviour is tested
// without spawning node. Only the main paths spawn `node bin/arena`.
import { PassThrough } from 'node:stream';
import { run } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/io';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string; argv1?: string } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end(opts.stdin ?? '');
  const io: CliIO = {
    stdout: { write: (s) => ((stdout += s.toString()), true) },
    stderr: { write: (s) => ((stderr += s.toString()), true) },
    stdin,
    env: opts.env ?? {},
    cwd: opts.cwd ?? process.cwd(),
    argv: ['node', opts.argv1 ?? '/usr/local/bin/arena'],
  };
  const code = await run(['node', 'arena', ...args], io);
  return { code, stdout, stderr };
}
