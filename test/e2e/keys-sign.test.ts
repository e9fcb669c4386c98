import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPrivateKeyFile, parsePublicKey, publicKeyRaw, verifyRequest } from '../../src/keys/index';
import { makeTempDir, sshKeygen } from '../support/tmp';
import { runArena } from '../support/run-arena';
import { runInProcess } from '../support/cli-in-process';

const tmp = makeTempDir('arena-cli-keys-');
afterAll(() => tmp.cleanup());
const env = { HOME: tmp.dir, ARENA_CONFIG_DIR: join(tmp.dir, 'cfg') };
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('arena keys generate', () => {
  it('writes the private key 0600 to the config dir by default and prints three labelled public forms', async () => {
    const r = await runArena(['keys', 'generate'], { env });
    expect(r.code).toBe(0);
    const path = join(tmp.dir, 'cfg', 'keys', 'id_ed25519.pem');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const raw = publicKeyRaw(loadPrivateKeyFile(path));
    const ssh = /^ssh: (.+)$/m.exec(r.stdout)![1];
    const rawLine = /^raw: (.+)$/m.exec(r.stdout)![1];
    const pem = /^pem:\n(-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----)$/m.exec(r.stdout)![1];
    for (const form of [ssh, rawLine, pem]) expect(hex(parsePublicKey(form))).toBe(hex(raw));
    expect(r.stderr).toContain(`wrote private key to ${path}`);
    // One key per server: the hint names a per-server file beside the default one.
    expect(r.stderr).toContain(`hint: use one key per arena server (a signature names no server`);
    expect(r.stderr).toContain(`arena keys generate --out ${join(tmp.dir, 'cfg', 'keys')}/<server host>.pem`);
    expect(r.stdout).not.toContain('PRIVATE KEY');
  });

  it('refuses to overwrite without --force (exit 1, key unchanged) and overwrites with it', async () => {
    const out = join(tmp.dir, 'k.pem');
    expect((await runInProcess(['keys', 'generate', '--out', out], env)).code).toBe(0);
    const before = readFileSync(out, 'utf8');
    const again = await runInProcess(['keys', 'generate', '--out', out], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists; pass --force/);
    expect(readFileSync(out, 'utf8')).toBe(before);
    const forced = await runInProcess(['keys', 'generate', '--out', out, '--force', '--json'], env);
    expect(forced.code).toBe(0);
    const doc = JSON.parse(forced.stdout) as {
      privateKeyFile: string;
      publicKey: { ssh: string; pem: string; raw: string };
    };
    expect(doc.privateKeyFile).toBe(out);
    expect(readFileSync(out, 'utf8')).not.toBe(before);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(doc.publicKey.raw).toBe(Buffer.from(publicKeyRaw(loadPrivateKeyFile(out))).toString('base64'));
  });

  it('a key that cannot be written (disk full) leaves no empty key file behind', async () => {
    const out = join(tmp.dir, 'full.pem');
    // ulimit -f 0: every byte written to a file is refused (EFBIG), as on a full disk.
    const r = await runArena(['keys', 'generate', '--out', out], { env, fileSizeLimitKiB: 0 });
    expect([r.code, r.stderr]).toEqual([
      1,
      `arena: cannot write ${out}: the file is larger than this process may write (ulimit -f) (EFBIG)\n`,
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it('an --out that names a directory says to name a file in it, with or without --force', async () => {
    const dir = join(tmp.dir, 'keys-dir');
    mkdirSync(dir);
    for (const force of [[], ['--force']]) {
      const r = await runInProcess(['keys', 'generate', '--out', dir, ...force], env);
      expect([r.code, r.stderr]).toEqual([
        1,
        `arena: ${dir} is a directory; give --out the key file's path, e.g. ${join(dir, 'arena.pem')}\n`,
      ]);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an --out whose directory cannot be made fails clearly (exit 1, no stack trace)', async () => {
    const file = join(tmp.dir, 'not-a-dir');
    writeFileSync(file, '');
    const r = await runInProcess(['keys', 'generate', '--out', join(file, 'keys', 'k.pem')], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot create the directory for .*k\.pem: ENOTDIR/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('with --out - prints the private key to stdout only and the public key to stderr', async () => {
    const r = await runInProcess(['keys', 'generate', '--out', '-'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/);
    expect(r.stderr).toMatch(/^ssh: ssh-ed25519 /m);
  });
});

describe('arena keys public', () => {
  it('prints exactly one form with --format, for a key made by ssh-keygen', async () => {
    const key = sshKeygen(tmp.dir, 'id_ed25519');
    const expected = readFileSync(key + '.pub', 'utf8')
      .trim()
      .split(' ')
      .slice(0, 2)
      .join(' ');
    const ssh = await runInProcess(['keys', 'public', key, '--format', 'ssh'], env);
    expect(ssh).toMatchObject({ code: 0, stdout: `${expected}\n` });
    const raw = await runInProcess(['keys', 'public', key, '--format', 'raw'], env);
    expect(raw.stdout.trim().split('\n')).toHaveLength(1);
    expect(hex(parsePublicKey(raw.stdout))).toBe(hex(parsePublicKey(expected)));
    const pem = await runInProcess(['keys', 'public', key + '.pub', '--format', 'pem'], env);
    expect(pem.stdout).toMatch(/^-----BEGIN PUBLIC KEY-----\n.+\n-----END PUBLIC KEY-----\n$/);
  });

  it('fails clearly for an encrypted key (exit 1) and a bad --format (exit 2)', async () => {
    const enc = sshKeygen(tmp.dir, 'id_enc', { passphrase: 'secret' });
    const r = await runInProcess(['keys', 'public', enc], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/encrypted with a passphrase.*ssh-keygen -p -N ""/);
    const bad = await runInProcess(['keys', 'public', enc, '--format', 'der'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Allowed choices are ssh, pem, raw/);
  });
});

describe('arena sign', () => {
  const key = join(tmp.dir, 'sign.pem');

  it('prints three headers that verify for the exact method, path and body', async () => {
    await runInProcess(['keys', 'generate', '--out', key], env);
    const body = join(tmp.dir, 'body.json');
    writeFileSync(body, '{"name": "greedy"}\n');
    const r = await runArena(
      ['sign', 'post', '/bots?game=pioneers', '--data', `@${body}`, '--key-id', 'k9', '--key', key],
      { env },
    );
    expect(r.code).toBe(0);
    const headers = Object.fromEntries(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(': ') as [string, string]),
    );
    expect(Object.keys(headers)).toEqual(['x-svc-key', 'x-svc-timestamp', 'x-svc-signature']);
    const lookupKey = (id: string) =>
      id === 'k9' ? { publicKey: publicKeyRaw(loadPrivateKeyFile(key)), revoked: false } : undefined;
    const good = verifyRequest({
      method: 'POST',
      path: '/bots?game=pioneers',
      body: readFileSync(body),
      headers,
      lookupKey,
    });
    expect(good).toMatchObject({ ok: true, keyId: 'k9' });
    expect(
      verifyRequest({ method: 'POST', path: '/bots?game=pioneers', body: '{"name":"greedy"}', headers, lookupKey }).ok,
    ).toBe(false);
  });

  it('signs a path as HTTP clients send it (encoded, dot segments resolved) and says so when that is not what was typed', async () => {
    const lookupKey = (id: string) =>
      id === 'k9' ? { publicKey: publicKeyRaw(loadPrivateKeyFile(key)), revoked: false } : undefined;
    const r = await runInProcess(
      ['sign', 'GET', '/bots/../bots?name=a b', '--key-id', 'k9', '--key', key, '--json'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'arena: signed /bots?name=a%20b, the form HTTP clients send for /bots/../bots?name=a b; send that\n',
    );
    const headers = JSON.parse(r.stdout) as Record<string, string>;
    expect(verifyRequest({ method: 'GET', path: '/bots?name=a%20b', body: '', headers, lookupKey })).toMatchObject({
      ok: true,
    });
    const plain = await runInProcess(['sign', 'GET', '/bots?game=pioneers', '--key-id', 'k9', '--key', key], env);
    expect(plain.stderr).toBe('');
  });

  it('prints JSON with --json and a curl command with --curl, key id from the environment', async () => {
    const json = await runInProcess(['sign', 'GET', '/me', '--key', key, '--json'], {
      ...env,
      ARENA_KEY_ID: 'from-env',
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      'x-svc-key': 'from-env',
      'x-svc-timestamp': expect.stringMatching(/^\d+$/),
    });
    const curl = await runInProcess(
      [
        'sign',
        'POST',
        '/bots',
        '--data',
        '{"a":1}',
        '--key-id',
        'k',
        '--key',
        key,
        '--curl',
        'https://arena.example.com/api/',
      ],
      env,
    );
    expect(curl.stdout).toMatch(
      /^curl -sS -X POST https:\/\/arena\.example\.com\/api\/bots -H 'x-svc-key: k' -H 'x-svc-timestamp: \d+' -H 'x-svc-signature: [A-Za-z0-9+/=]+' -H 'content-type: application\/json' --data-binary '\{"a":1\}'\n$/,
    );
  });

  it('exits 4 without a key id, 2 for a bad method or path, 1 for an unreadable key', async () => {
    const noId = await runInProcess(['sign', 'GET', '/me', '--key', key], env);
    expect(noId.code).toBe(4);
    expect(noId.stderr).toMatch(/no key id: pass --key-id, set ARENA_KEY_ID/);
    expect((await runInProcess(['sign', 'FETCH', '/me', '--key-id', 'k', '--key', key], env)).code).toBe(2);
    const rel = await runInProcess(['sign', 'GET', 'me', '--key-id', 'k', '--key', key], env);
    expect(rel.code).toBe(2);
    expect(rel.stderr).toMatch(/PATH must start with "\/"/);
    const missing = await runInProcess(
      ['sign', 'GET', '/me', '--key-id', 'k', '--key', join(tmp.dir, 'nope.pem')],
      env,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read key file .*nope\.pem: no such file/);
  });

  it('teaches with examples in --help', async () => {
    const r = await runInProcess(['sign', '--help'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('--curl <URL>');
  });
});
