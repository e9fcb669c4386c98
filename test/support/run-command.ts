// Runs a command in a child process to its end and collects its output.
// Asynchronous on purpose: servers a test runs in this process must keep answering.
import { spawn } from 'node:child_process';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** stdin gets `input`, then end of file (nothing by default). */
export function runCommand(
  file: string,
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string | Buffer },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a child that exits without reading its input
    child.stdin.end(opts.input ?? '');
  });
}
