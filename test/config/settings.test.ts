import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readProfile, writeProfile } from '../../src/config/profile';
import { normalizeServerUrl, resolveSettings } from '../../src/config/settings';
import { requireSigner, requireUrl } from '../../src/config/credentials';
import { NoServerError } from '../../src/config/errors';
import { generateKeyPair, privateKeyToPem } from '../../src/keys/index';
import { makeTempDir } from '../support/tmp';

const tmp = makeTempDir();
afterAll(() => tmp.cleanup());

describe('profile file', () => {
  it('writes JSON with mode 0600 in a 0700 directory and reads it back', () => {
    const path = join(tmp.dir, 'cfg1', 'profile.json');
    writeProfile(path, { url: 'https://a.example', keyId: 'k1', keyFile: '/k.pem' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(tmp.dir, 'cfg1')).mode & 0o777).toBe(0o700);
    expect(readProfile(path)).toEqual({ url: 'https://a.example', keyId: 'k1', keyFile: '/k.pem' });
  });

  it('treats a missing profile as empty and a damaged one as an error naming the file', () => {
    expect(readProfile(join(tmp.dir, 'none.json'))).toEqual({});
    const bad = join(tmp.dir, 'bad.json');
    writeFileSync(bad, '{"url":');
    expect(() => readProfile(bad)).toThrow(/bad.json is not valid JSON; fix it or run `arena login` again/);
    writeFileSync(bad, '{"keyId": 5}');
    expect(() => readProfile(bad)).toThrow(/bad.json: keyId:/);
  });
});

describe('resolveSettings', () => {
  const dir = join(tmp.dir, 'cfg2');
  mkdirSync(dir, { recursive: true });
  writeProfile(join(dir, 'profile.json'), { url: 'http://profile.example', keyId: 'p-key', keyFile: '/p.pem' });
  const env = { ARENA_CONFIG_DIR: dir };

  it('takes flags over environment over profile, per setting', () => {
    const s = resolveSettings(
      { keyId: 'flag-key' },
      { ...env, ARENA_URL: 'http://env.example/', ARENA_KEY_ID: 'env-key' },
    );
    expect(s.url).toEqual({ value: 'http://env.example', source: 'env' });
    expect(s.keyId).toEqual({ value: 'flag-key', source: 'flag' });
    expect(s.keyFile).toEqual({ value: '/p.pem', source: 'profile' });
    expect(s.profileFile).toBe(join(dir, 'profile.json'));
  });

  it('leaves unset settings undefined and says how to set them', () => {
    const s = resolveSettings({}, { ARENA_CONFIG_DIR: join(tmp.dir, 'empty') });
    expect(s.url).toBeUndefined();
    expect(() => requireUrl(s)).toThrow(NoServerError);
    expect(() => requireUrl(s)).toThrow(/pass --url URL, set ARENA_URL, or run `arena login/);
    expect(() => requireSigner(s)).toThrow(/no key id/);
    expect(() => requireSigner({ ...s, keyId: { value: 'k', source: 'flag' } })).toThrow(/no private key file/);
  });

  it('does not read a damaged profile when flags cover everything', () => {
    const broken = join(tmp.dir, 'cfg3');
    mkdirSync(broken);
    writeFileSync(join(broken, 'profile.json'), 'nonsense');
    const s = resolveSettings({ url: 'http://a', keyId: 'k', keyFile: '/f' }, { ARENA_CONFIG_DIR: broken });
    expect(s.keyFile?.source).toBe('flag');
    expect(() => resolveSettings({}, { ARENA_CONFIG_DIR: broken })).toThrow(/not valid JSON/);
    // A command that needs no URL never consults the profile for one.
    const signOnly = resolveSettings({ keyId: 'k', keyFile: '/f' }, { ARENA_CONFIG_DIR: broken }, ['keyId', 'keyFile']);
    expect(signOnly.url).toBeUndefined();
    expect(signOnly.keyId?.value).toBe('k');
  });

  it('loads the signer key from the resolved file', () => {
    const keyFile = join(tmp.dir, 'k.pem');
    writeFileSync(keyFile, privateKeyToPem(generateKeyPair().privateKey), { mode: 0o600 });
    const signer = requireSigner(resolveSettings({ keyFile }, { ...env, ARENA_KEY_ID: 'e' }));
    expect(signer.keyId).toBe('e');
    expect(signer.privateKey.asymmetricKeyType).toBe('ed25519');
  });
});

describe('normalizeServerUrl', () => {
  it('accepts http(s) and strips the trailing slash', () => {
    expect(normalizeServerUrl('https://arena.example.com/')).toBe('https://arena.example.com');
    expect(normalizeServerUrl('http://127.0.0.1:8080/api/')).toBe('http://127.0.0.1:8080/api');
  });
  it('rejects other schemes, non-URLs, queries and embedded credentials without echoing them', () => {
    expect(() => normalizeServerUrl('ftp://x')).toThrow(/must be http or https, got ftp/);
    expect(() => normalizeServerUrl('arena.example.com', 'env')).toThrow(
      /"arena.example.com" \(from ARENA_URL\) is not a URL/,
    );
    expect(() => normalizeServerUrl('https://x/?a=1')).toThrow(/query/);
    let msg = '';
    try {
      normalizeServerUrl('https://user:hunter2@x');
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/must not carry credentials/);
    expect(msg).not.toContain('hunter2');
    expect(() => normalizeServerUrl('admin:hunter2@x')).toThrow(/^(?!.*hunter2)/);
  });
});

it('keeps the profile readable as plain JSON for people', () => {
  const path = join(tmp.dir, 'cfg4', 'profile.json');
  writeProfile(path, { url: 'https://a.example' });
  expect(readFileSync(path, 'utf8')).toBe('{\n  "url": "https://a.example"\n}\n');
});
