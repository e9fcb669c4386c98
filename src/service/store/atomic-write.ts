// Durable file replacement: a reader (or a process restarted after kill -9 or
// a power cut) sees the old content or the new, never a mix, and once the
// promise resolves the new content survives a crash.
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The temp name a write to `file` uses: in the same directory, so rename stays atomic. */
export function tempPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.tmp`);
}

/** Write to a temp file in the same directory, fsync it, rename it over `file`, fsync the directory. */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const tmp = tempPathFor(file);
  const fh = await open(tmp, 'w', mode);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => {});
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
  await fh.close();
  await rename(tmp, file);
  await fsyncDir(dirname(file));
}

/** Makes a rename or a new file in `dir` durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
