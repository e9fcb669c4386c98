// Result files: written atomically (temp file + rename in the same directory)
// so a crash or Ctrl-C never leaves half a JSON document behind.
import { rename, writeFile, rm } from 'node:fs/promises';
import { join, dirname, basename } from 'node:path';
import { makeDir } from '../fs/make-dir';

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  const dir = dirname(path);
  await makeDir(dir);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    await writeFile(tmp, JSON.stringify(value, null, 2) + '\n', { mode: 0o644 });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Match ids: `m-<yyyymmddhhmmss>-<tag>-<game>`, e.g. `m-20261122003015-k3x9-0007`.
 * The UTC start time of the tournament comes first so ids sort by time; the
 * random tag keeps two tournaments started in the same second apart; the
 * zero-padded game number sorts the games of one tournament.
 */
export function matchIdFactory(start: Date, tag: string = randomTag()): (game: number) => string {
  const stamp = start.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return (game) => `m-${stamp}-${tag}-${String(game).padStart(4, '0')}`;
}

function randomTag(): string {
  return Math.floor(Math.random() * 36 ** 4).toString(36).padStart(4, '0');
}

/** Creates `dir` if needed and proves it writable, so a bad --out fails before any game, not after. */
export async function ensureWritableDir(dir: string): Promise<void> {
  await makeDir(dir);
  const probe = join(dir, `.arena-write-test.${process.pid}`);
  await writeFile(probe, '');
  await rm(probe, { force: true });
}
