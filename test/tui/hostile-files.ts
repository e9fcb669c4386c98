// Paths that are not ordinary readable files, for the tests that hand them to
// `arena replay` and `arena keys public`: a file we may not read, a file over
// a size limit (sparse: no bytes are written), /dev/zero, a FIFO with no
// writer, a symlink loop. And a runner for the real CLI that can drop root,
// since root reads a mode-000 file without complaint.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './helpers';

export interface HostilePaths {
  dir: string;
  /** Mode 000: unreadable for anyone but root (run the CLI with asNobody when we are root). */
  unreadable: string;
  fifo: string;
  loop: string;
  devZero: string;
  /** A sparse file of the given size. */
  sparse(name: string, bytes: number): string;
}

export function makeHostilePaths(prefix: string): HostilePaths {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Traversable by the unprivileged user the unreadable case runs as.
  chmodSync(dir, 0o755);
  const unreadable = join(dir, 'unreadable.json');
  writeFileSync(unreadable, '{}');
  chmodSync(unreadable, 0o000);
  const fifo = join(dir, 'fifo.json');
  execFileSync('mkfifo', [fifo]);
  const loop = join(dir, 'loop-a.json');
  symlinkSync(join(dir, 'loop-b.json'), loop);
  symlinkSync(loop, join(dir, 'loop-b.json'));
  return {
    dir,
    unreadable,
    fifo,
    loop,
    devZero: '/dev/zero',
    sparse(name, bytes) {
      const path = join(dir, name);
      const fd = openSync(path, 'w');
      ftruncateSync(fd, bytes);
      closeSync(fd);
      return path;
    },
  };
}

export const isRoot = process.getuid?.() === 0;
/** The conventional unprivileged "nobody". */
const NOBODY = 65534;

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/arena ARGS` with `input` on stdin (else nothing), then stdin closed. `asNobody` drops to an
 * unprivileged user when we are root. A run that has not ended after
 * `timeoutMs` is killed and reported with signal SIGKILL (reading forever
 * is the bug some of these tests guard against).
 */
export function runCli(
  args: string[],
  opts: { asNobody?: boolean; timeoutMs?: number; env?: NodeJS.ProcessEnv; input?: string | Buffer } = {},
): Promise<CliRun> {
  const drop = opts.asNobody && isRoot ? { uid: NOBODY, gid: NOBODY } : {};
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/arena'), ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, NODE_OPTIONS: '', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...drop,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => {}); // a run that exits before reading all of it
    child.stdin.end(opts.input);
  });
}
