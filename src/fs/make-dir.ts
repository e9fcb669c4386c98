// `mkdir -p` that fails instead of hanging. Node's `mkdir(path, { recursive: true })`
// never returns when a directory exists but answers ENOENT for a child, as
// procfs and sysfs do (`--data /proc/x` spun at 100% CPU with no output): it
// takes ENOENT for a missing parent, makes the parent (EEXIST), and tries the
// child again, forever. Here each missing directory is made once, top down, so
// such a path fails with the system's own error, as every other bad path does
// (a file where the directory should be says so in words).
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates `dir` and any missing parents (each with `mode`); a directory already there is fine.
 * The walk runs synchronously: a few stat and mkdir calls, made when a store
 * opens, a backup starts or a result file is written, not per request.
 */
export async function makeDir(dir: string, mode?: number): Promise<void> {
  makeDirSync(dir, mode);
}

/** makeDir, for callers that are synchronous themselves. */
export function makeDirSync(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let d = dir; ; ) {
    const found = statOrMissing(d);
    if (found !== 'missing') {
      // Already a directory: done. A file: said plainly. Anything else (a path through a file, no access): mkdir says
      // what.
      if (missing.length === 0 && !found?.isDirectory()) {
        if (found) throw notADirectory(dir);
        mkdirSync(dir, { mode });
      }
      break;
    }
    missing.push(d);
    if (dirname(d) === d) break;
    d = dirname(d);
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i], { mode });
    } catch (err) {
      // Another process made it meanwhile: fine, if it is a directory.
      if (code(err) !== 'EEXIST' || !statSync(missing[i]).isDirectory()) throw err;
    }
  }
}

function statOrMissing(path: string): Stats | 'missing' | null {
  try {
    return statSync(path);
  } catch (err) {
    return code(err) === 'ENOENT' ? 'missing' : null;
  }
}

/** What Node's mkdir reports (EEXIST), said the way a user needs it. */
function notADirectory(dir: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${dir} exists and is not a directory`), {
    code: 'EEXIST',
    path: dir,
    syscall: 'mkdir',
  });
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}
