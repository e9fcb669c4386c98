// The local arena's platform key: it signs every bot socket handshake, like
// the hosted service's key does. Kept at <configDir>/platform-key.pem (0600),
// created on first use; bot authors verify with its public half.
import type { KeyObject } from 'node:crypto';
import { writeFileSync, linkSync, unlinkSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from './paths';
import { generateKeyPair, loadPrivateKeyFile, privateKeyToPem, publicKeyRaw } from '../keys/index';
import { makeDirSync } from '../fs/make-dir';

export interface PlatformKey {
  privateKey: KeyObject;
  /** base64 of the raw 32-byte public key, as GET /.well-known/svc.json publishes it. */
  publicKeyBase64: string;
  path: string;
  /** True when this call made the key. */
  created: boolean;
}

/** The key's file name, in the config directory (local arena) or the data directory (serve). */
export const PLATFORM_KEY_FILE = 'platform-key.pem';

export function platformKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), PLATFORM_KEY_FILE);
}

export function loadOrCreatePlatformKey(env: NodeJS.ProcessEnv = process.env): PlatformKey {
  return loadOrCreatePlatformKeyAt(platformKeyPath(env));
}

/**
 * The platform key at `path` (a PEM file, 0600), created there on first use; `serve` keeps one in its data directory.
 */
export function loadOrCreatePlatformKeyAt(path: string): PlatformKey {
  let created = false;
  if (!existsSync(path)) created = createKeyFile(path);
  const privateKey = loadPrivateKeyFile(path);
  return { privateKey, publicKeyBase64: Buffer.from(publicKeyRaw(privateKey)).toString('base64'), path, created };
}

/** Writes a fresh key without ever exposing a half-written file; loses gracefully to a concurrent creator. */
function createKeyFile(path: string): boolean {
  makeDirSync(join(path, '..'), 0o700);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, privateKeyToPem(generateKeyPair().privateKey), { mode: 0o600 });
  try {
    linkSync(tmp, path); // fails with EEXIST if another process won the race
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}
