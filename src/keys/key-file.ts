// Writing a private key to disk: mode 0600 from the first byte, never over an
// existing file unless asked, never half-written.
import type { KeyObject } from 'node:crypto';
import { chmodSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KeyError } from './errors';
import { privateKeyToPem } from './keypair';
import { errnoReason } from '../fs/errno-text';
import { makeDirSync } from '../fs/make-dir';

export function writePrivateKeyFile(path: string, key: KeyObject, opts: { force?: boolean } = {}): void {
  const pem = privateKeyToPem(key);
  try {
    makeDirSync(dirname(path), 0o700);
  } catch (err) {
    throw new KeyError(`cannot create the directory for ${path}: ${(err as Error).message}`);
  }
  if (!opts.force) {
    try {
      writeFileSync(path, pem, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // The file was made by this call ('wx') but not filled (disk full): leave no empty key behind.
      if (code !== 'EEXIST') rmSync(path, { force: true });
      if (code === 'EEXIST') {
        // --force would not help with a directory or a device: say what to pass instead.
        if (!isReplaceable(path)) throw new KeyError(notAFile(path));
        throw new KeyError(
          `${path} already exists; pass --force to overwrite it (the old key is lost) or choose another --out`,
        );
      }
      throw new KeyError(`cannot write ${path}: ${errnoReason(err)}`);
    }
    chmodSync(path, 0o600);
    return;
  }
  if (existsSync(path) && !isReplaceable(path)) throw new KeyError(notAFile(path));
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, pem, { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new KeyError(`cannot write ${path}: ${errnoReason(err)}`);
  }
}

function notAFile(path: string): string {
  let dir = false;
  try {
    dir = statSync(path).isDirectory();
  } catch {
    // gone meanwhile: the plain message will do
  }
  return dir
    ? `${path} is a directory; give --out the key file's path, e.g. ${join(path, 'arena.pem')}`
    : `${path} is not a regular file; refusing to overwrite it`;
}

function isReplaceable(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
