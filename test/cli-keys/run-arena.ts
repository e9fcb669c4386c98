// Runs the real `node bin/arena` in a child process. Asynchronous on purpose:
// the test's HTTP server lives in this process and must keep answering.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runArena(args: string[], opts: { env?: Record<string, string>; input?: string | Buffer; cwd?: string } = {}): Promise<RunResult> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_OPTIONS: '', ...opts.env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${ROOT}bin/arena`, ...args], { cwd: opts.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
