// `arena serve` as a real child process (node bin/arena serve ...), as an
// operator runs it: its start-up lines are read from stderr, signals are real
// signals, and the exit code is the process's.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT from the "listening on" line. */
  url: string;
  /** The platform public key from its start-up line. */
  platformKey: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the first match of re in stderr (now or later); rejects if the process exits first. */
  waitFor(re: RegExp): Promise<RegExpExecArray>;
  /** Resolves with the exit code (or the signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `arena serve ARGS`; resolves once it listens, rejects with its stderr if it exits first. */
export async function startServe(args: string[], env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [`${ROOT}bin/arena`, 'serve', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const waiters: { re: RegExp; ok: (m: RegExpExecArray) => void; fail: (e: Error) => void }[] = [];
  let done: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      done = { code, signal };
      // Let the last stderr chunks arrive before failing waiters.
      setImmediate(() => {
        for (const w of waiters.splice(0)) {
          const m = w.re.exec(err);
          if (m) w.ok(m);
          else w.fail(new Error(`arena serve exited (${code ?? signal}) before printing ${w.re}:\n${err}`));
        }
        resolve(done!);
      });
    });
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    for (const w of [...waiters]) {
      const m = w.re.exec(err);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.ok(m);
      }
    }
  });
  child.stdout!.resume();
  const waitFor = (re: RegExp) =>
    new Promise<RegExpExecArray>((ok, fail) => {
      const m = re.exec(err);
      if (m) return ok(m);
      if (done)
        return fail(new Error(`arena serve exited (${done.code ?? done.signal}) before printing ${re}:\n${err}`));
      waiters.push({ re, ok, fail });
    });
  const listening = await waitFor(/listening on (http:\/\/\S+)/);
  const key = /platform public key (\S+)/.exec(err);
  return { child, url: listening[1], platformKey: key?.[1] ?? '', stderr: () => err, waitFor, exited };
}

/** SIGTERM and wait for the exit. */
export async function stopServe(p: ServeProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  return p.exited;
}
