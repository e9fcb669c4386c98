// Writing a private key to disk: mode 0600 from the first byte, never over an
// existing file unless asked, never half-written.
import type { KeyObject } from 'node:crypto';
import { chmodSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { KeyError } from './errors';
import { privateKeyToPem } from './keypair';
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
      if (code === 'EEXIST') throw new KeyError(`${path} already exists; pass --force to overwrite it (the old key is lost) or choose another --out`);
      throw new KeyError(`cannot write ${path}: ${code ?? 'write failed'}`);
    }
    chmodSync(path, 0o600);
    return;
  }
  if (existsSync(path) && !isReplaceable(path)) throw new KeyError(`${path} is not a regular file; refusing to overwrite it`);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, pem, { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new KeyError(`cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? 'write failed'}`);
  }
}

function isReplaceable(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
