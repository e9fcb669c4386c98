// One writer per data directory: a lock file holding the owner's pid. A second
// `serve` or `admin` gets StoreLocked; a lock left by a process that no longer
// exists (kill -9, power cut) is taken over.
import { link, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreLocked } from './types';

export const LOCK_FILE = 'lock';

export interface DirLock {
  readonly path: string;
  /** Removes the lock if it is still ours. */
  release(): Promise<void>;
}

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parsePid(text: string): number | null {
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Takes the lock of `dir` for this process. The pid is written to a private
 * temp file first and then hard-linked to `lock`: link fails with EEXIST like
 * an O_EXCL create, and the lock is never seen empty or half written.
 */
export async function acquireLock(dir: string): Promise<DirLock> {
  const path = join(dir, LOCK_FILE);
  const mine = `${process.pid}\n`;
  const tmp = join(dir, `.lock.${process.pid}.tmp`);
  await writeFile(tmp, mine, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(tmp, path);
        return {
          path,
          async release() {
            // Only remove a lock that still names us (never someone else's).
            const now = await readFile(path, 'utf8').catch(() => null);
            if (now === mine) await rm(path, { force: true });
          },
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const held = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null; // released meanwhile: try again
        throw err;
      });
      if (held === null) continue;
      const pid = parsePid(held);
      if (pid !== null && pidAlive(pid)) throw new StoreLocked(dir, pid);
      await takeOverStale(dir, path, held);
    }
    throw new StoreLocked(dir, null);
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

/**
 * Moves a stale lock aside. Two processes may find the same stale lock: each
 * renames `lock` to its own name and checks it moved the stale one; one that
 * moved a fresh lock instead (the other just took it) puts it back.
 */
async function takeOverStale(dir: string, path: string, staleText: string): Promise<void> {
  const aside = join(dir, `.lock.stale.${process.pid}`);
  try {
    await rename(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readFile(aside, 'utf8');
  if (moved !== staleText) {
    const pid = parsePid(moved);
    await link(aside, path).catch(() => {});
    await rm(aside, { force: true });
    throw new StoreLocked(dir, pid);
  }
  await rm(aside, { force: true });
}
