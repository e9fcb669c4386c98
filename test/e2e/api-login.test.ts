import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair, publicKeyRaw, privateKeyToPem } from '../../src/keys/index';
import { startSignedServer, type SignedServer } from '../support/signed-server';
import { makeTempDir } from '../support/tmp';
import { runArena } from '../support/run-arena';
import { runInProcess } from '../support/cli-in-process';

const tmp = makeTempDir('arena-cli-api-');
const owner = generateKeyPair();
const keyFile = join(tmp.dir, 'owner.pem');
writeFileSync(keyFile, privateKeyToPem(owner.privateKey), { mode: 0o600 });
let server: SignedServer;
const env = { HOME: tmp.dir, ARENA_CONFIG_DIR: join(tmp.dir, 'cfg') };

beforeAll(async () => {
  server = await startSignedServer();
  server.keys.set('k1', { publicKey: publicKeyRaw(owner.publicKey), revoked: false });
  server.keys.set('gone', { publicKey: publicKeyRaw(owner.publicKey), revoked: true });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

describe('arena login', () => {
  it('writes the profile with mode 0600 and an absolute key path; later logins change only what is given', async () => {
    const r = await runArena(['login', '--url', `${server.url}/`, '--key-id', 'k1', '--key', 'owner.pem'], {
      env,
      cwd: tmp.dir,
    });
    expect(r.code).toBe(0);
    const path = join(tmp.dir, 'cfg', 'profile.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ url: server.url, keyId: 'k1', keyFile });
    const show = await runInProcess(['login', '--show', '--json'], { ...env, ARENA_KEY_ID: 'envkey' });
    expect(JSON.parse(show.stdout)).toMatchObject({
      url: { value: server.url, source: 'profile' },
      keyId: { value: 'envkey', source: 'env' },
    });
  });

  it('refuses a key file that cannot sign and leaves the profile as it was', async () => {
    const path = join(tmp.dir, 'cfg', 'profile.json');
    const before = readFileSync(path, 'utf8');
    const pub = join(tmp.dir, 'pub.pem');
    writeFileSync(
      pub,
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAUamSg7KN5jsdwKsYis6/ArmKtCpbrDKpFydR+3SoFbg=\n-----END PUBLIC KEY-----\n',
    );
    const r = await runInProcess(['login', '--key', pub], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/this is a public key/);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect((await runInProcess(['login'], env)).code).toBe(2);
    expect((await runInProcess(['login', '--url', 'ftp://x'], env)).code).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});

describe('arena login asks the server about the key first', () => {
  const cenv = { HOME: tmp.dir, ARENA_CONFIG_DIR: join(tmp.dir, 'cfg-check') };
  const profile = join(tmp.dir, 'cfg-check', 'profile.json');

  it('saves a key the server accepts, and says who you are', async () => {
    const r = await runInProcess(['login', '--url', server.url, '--key-id', 'k1', '--key', keyFile], cenv);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`checked: ${server.url} accepts key k1; you are @ada`);
    expect(r.stderr).toContain(
      `hint: use one key per arena server (a signature names no server, so another server where the same key is registered could be sent a signature this one saw): keep ${keyFile} for ${new URL(server.url).host}; for another server, \`arena keys generate --out ${join(tmp.dir, 'cfg-check', 'keys')}/<server host>.pem\``,
    );
    expect(JSON.parse(readFileSync(profile, 'utf8'))).toEqual({ url: server.url, keyId: 'k1', keyFile });
  });

  it('refuses an unknown or revoked key with exit 4 and saves nothing, unless --no-check', async () => {
    const before = readFileSync(profile, 'utf8');
    for (const id of ['k_unknown', 'gone']) {
      const r = await runInProcess(['login', '--url', server.url, '--key-id', id, '--key', keyFile], cenv);
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toMatch(
        new RegExp(
          `refuses key ${id} \\(HTTP 401 unauthenticated: .+\\); nothing saved\\. Check --key-id and --key, or pass --no-check`,
        ),
      );
      expect(readFileSync(profile, 'utf8')).toBe(before);
    }
    const forced = await runInProcess(
      ['login', '--url', server.url, '--key-id', 'k_unknown', '--key', keyFile, '--no-check'],
      cenv,
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).not.toMatch(/checked|warning/);
    expect(JSON.parse(readFileSync(profile, 'utf8')).keyId).toBe('k_unknown');
  });

  it('saves anyway, with a warning, when the server cannot be reached or gives no verdict', async () => {
    const down = await runInProcess(['login', '--url', 'http://127.0.0.1:1', '--key-id', 'k1', '--key', keyFile], cenv);
    expect(down.code, down.stderr).toBe(0);
    expect(down.stderr).toMatch(
      /warning: could not check the key with the server: cannot reach http:\/\/127\.0\.0\.1:1: ECONNREFUSED/,
    );
    expect(JSON.parse(readFileSync(profile, 'utf8')).url).toBe('http://127.0.0.1:1');
    const wrongBase = await runInProcess(
      ['login', '--url', `${server.url}/api`, '--key-id', 'k1', '--key', keyFile],
      cenv,
    );
    expect(wrongBase.code, wrongBase.stderr).toBe(0);
    expect(wrongBase.stderr).toContain(
      `warning: could not check the key with the server: HTTP 404 not_found: no route GET /api/me; is ${server.url}/api an arena server's base URL?`,
    );
  });
});

describe('arena login with a damaged profile', () => {
  it('refuses a partial update, says how to replace it, and replaces it when all three are given', async () => {
    const dir = join(tmp.dir, 'damaged');
    mkdirSync(dir);
    writeFileSync(join(dir, 'profile.json'), '{"url": ');
    const denv = { HOME: tmp.dir, ARENA_CONFIG_DIR: dir };
    const partial = await runInProcess(['login', '--key-id', 'k1'], denv);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toMatch(/not valid JSON; pass all of --url, --key-id and --key to replace it/);
    const signs = await runInProcess(['sign', 'GET', '/me', '--key-id', 'k1', '--key', keyFile], denv);
    expect(signs.code).toBe(0);
    const full = await runInProcess(['login', '--url', server.url, '--key-id', 'k1', '--key', keyFile], denv);
    expect(full.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'profile.json'), 'utf8'))).toEqual({
      url: server.url,
      keyId: 'k1',
      keyFile,
    });
  });
});

describe('arena api (profile from the login test above)', () => {
  it('sends a signed GET and prints the raw body to stdout, status to stderr', async () => {
    const r = await runArena(['api', 'GET', '/me'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'ada', keyId: 'k1' });
    expect(r.stdout).toBe(JSON.stringify({ id: 'u1', name: 'ada', email: 'ada@example.com', keyId: 'k1' }));
    expect(r.stderr).toBe('HTTP 200\n');
  });

  it('sends --data @file and --data - (stdin) as exact bytes', async () => {
    const file = join(tmp.dir, 'bot.json');
    writeFileSync(file, '{ "name": "greedy" }\n');
    const fromFile = await runInProcess(['api', 'POST', '/echo?game=pioneers', '--data', `@${file}`], env);
    expect(fromFile.code).toBe(0);
    const echoed = JSON.parse(fromFile.stdout) as { method: string; path: string; body: string };
    expect(echoed).toMatchObject({ method: 'POST', path: '/echo?game=pioneers' });
    expect(Buffer.from(echoed.body, 'base64').toString()).toBe('{ "name": "greedy" }\n');
    const fromStdin = await runArena(['api', 'PUT', '/echo', '--data', '-'], { env, input: 'raw\u00e9bytes' });
    expect(Buffer.from(JSON.parse(fromStdin.stdout).body, 'base64').toString()).toBe('raw\u00e9bytes');
  });

  it('exits 4 on 401 with the server reason, 1 on 404 and 500', async () => {
    const revoked = await runInProcess(['api', 'GET', '/me', '--key-id', 'gone'], env);
    expect(revoked.code).toBe(4);
    expect(revoked.stderr).toMatch(/HTTP 401: unauthenticated: key "gone" has been revoked/);
    expect(JSON.parse(revoked.stdout).error.code).toBe('unauthenticated');
    const missing = await runInProcess(['api', 'GET', '/nothing'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/HTTP 404: not_found/);
    expect((await runInProcess(['api', 'GET', '/boom'], env)).code).toBe(1);
  });

  it('lets flags and environment override the profile', async () => {
    const other = generateKeyPair();
    const otherFile = join(tmp.dir, 'other.pem');
    writeFileSync(otherFile, privateKeyToPem(other.privateKey), { mode: 0o600 });
    server.keys.set('k2', { publicKey: publicKeyRaw(other.publicKey), revoked: false });
    const viaEnv = await runInProcess(['api', 'GET', '/me'], { ...env, ARENA_KEY_ID: 'k2', ARENA_KEY_FILE: otherFile });
    expect(JSON.parse(viaEnv.stdout).keyId).toBe('k2');
    const flagWins = await runInProcess(['api', 'GET', '/me', '--key-id', 'k1', '--key', keyFile], {
      ...env,
      ARENA_KEY_ID: 'k2',
      ARENA_KEY_FILE: otherFile,
    });
    expect(JSON.parse(flagWins.stdout).keyId).toBe('k1');
    const badUrl = await runInProcess(['api', 'GET', '/me', '--url', 'http://127.0.0.1:1'], env);
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1: ECONNREFUSED/);
  });

  it('exits 2 without a server and 4 without a key, with what to do', async () => {
    const bare = { HOME: tmp.dir, ARENA_CONFIG_DIR: join(tmp.dir, 'empty') };
    const noUrl = await runInProcess(['api', 'GET', '/me'], bare);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/no server configured: pass --url URL, set ARENA_URL, or run `arena login/);
    const noKey = await runInProcess(['api', 'GET', '/me', '--url', server.url, '--key-id', 'k1'], bare);
    expect(noKey.code).toBe(4);
    expect(noKey.stderr).toMatch(/no private key file/);
    const header = await runInProcess(['api', 'GET', '/me', '-H', 'x-svc-key: k2'], env);
    expect(header.code).toBe(2);
  });

  it('refuses a header value HTTP cannot carry as a usage error, before any request', async () => {
    const before = server.seen.length;
    for (const value of ['a\r\nx-injected: 1', 'a\u001b[2Jb', '日本']) {
      const r = await runInProcess(['api', 'GET', '/me', '-H', `x-note: ${value}`], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--header x-note: the value must be one line of text, without control characters/);
      expect(r.stderr).not.toMatch(/cannot reach/);
    }
    expect(server.seen.length).toBe(before);
    // Tabs and Latin-1 are fine.
    const ok = await runInProcess(['api', 'GET', '/me', '-H', 'x-note: caf\u00e9\tbar'], env);
    expect(ok.code).toBe(0);
  });
});
