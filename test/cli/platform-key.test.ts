import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreatePlatformKey } from '../../src/config/platform-key';
import { publicKeyRaw, signHandshake, verifyHandshake } from '../../src/keys/index';

const dirs: string[] = [];
function tempEnv(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), 'arena-pk-'));
  dirs.push(dir);
  return { ARENA_CONFIG_DIR: join(dir, 'config') };
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('platform key', () => {
  it('is created once, mode 0600, and then reused', () => {
    const env = tempEnv();
    const first = loadOrCreatePlatformKey(env);
    expect(first.created).toBe(true);
    expect(first.path).toBe(join(env.ARENA_CONFIG_DIR!, 'platform-key.pem'));
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    const second = loadOrCreatePlatformKey(env);
    expect(second.created).toBe(false);
    expect(second.publicKeyBase64).toBe(first.publicKeyBase64);
  });

  it('publishes the raw 32-byte public half that verifies its handshakes', () => {
    const key = loadOrCreatePlatformKey(tempEnv());
    const raw = Buffer.from(key.publicKeyBase64, 'base64');
    expect(raw).toHaveLength(32);
    expect(Buffer.from(publicKeyRaw(key.privateKey))).toEqual(raw);
    expect(verifyHandshake(raw, signHandshake(key.privateKey, 'm-1')).ok).toBe(true);
  });

  it('refuses a damaged key file instead of silently replacing it', () => {
    const env = tempEnv();
    const key = loadOrCreatePlatformKey(env);
    writeFileSync(key.path, 'garbage');
    expect(() => loadOrCreatePlatformKey(env)).toThrow(/platform-key.pem/);
  });
});
