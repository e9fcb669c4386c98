// Reading a key file: only a regular file, only up to a size no key comes
// near, with errors that name the file and the reason (never its contents).
// /dev/zero, a FIFO or a huge file would otherwise be read forever or into
// all of memory.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { errnoText } from '../fs/errno-text';
import { KeyError } from './errors';

/** Bytes in a key file. Ed25519 keys in any of the accepted forms are under 1 KiB. */
export const MAX_KEY_FILE_BYTES = 64 * 1024;

function why(err: unknown): string {
  return errnoText(err) ?? (err as NodeJS.ErrnoException | null)?.code ?? 'read failed';
}

function kindOf(s: ReturnType<typeof fstatSync>): string {
  if (s.isDirectory()) return 'it is a directory';
  if (s.isFIFO()) return 'it is a FIFO (named pipe), not a regular file';
  if (s.isCharacterDevice()) return 'it is a character device, not a regular file';
  if (s.isBlockDevice()) return 'it is a block device, not a regular file';
  if (s.isSocket()) return 'it is a socket, not a regular file';
  return 'not a regular file';
}

/**
 * The text of a key file. The checks run on the open descriptor, so the file
 * checked is the file read; O_NONBLOCK keeps a FIFO from blocking the open.
 */
export function readKeyFileText(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new KeyError(`cannot read key file ${path}: ${why(err)}`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new KeyError(`cannot read key file ${path}: ${kindOf(info)}`);
    if (info.size > MAX_KEY_FILE_BYTES) throw tooLarge(path, info.size);
    // Never read past the limit, even if the file grows while we read.
    const buf = Buffer.alloc(MAX_KEY_FILE_BYTES + 1);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_KEY_FILE_BYTES) throw tooLarge(path, total);
    }
    return buf.subarray(0, total).toString('utf8');
  } catch (err) {
    if (err instanceof KeyError) throw err;
    throw new KeyError(`cannot read key file ${path}: ${why(err)}`);
  } finally {
    closeSync(fd);
  }
}

function tooLarge(path: string, size: number): KeyError {
  return new KeyError(
    `cannot read key file ${path}: it is ${size} bytes; key files are at most ${MAX_KEY_FILE_BYTES} bytes, so this is not one`,
  );
}
