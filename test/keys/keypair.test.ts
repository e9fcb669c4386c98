import { afterAll, describe, expect, it } from 'vitest';
import { createPublicKey, sign, verify } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair, KeyError, loadPrivateKeyFile, privateKeyToPem, publicKeyRaw } from '../../src/keys/index';
import { makeTempDir, opensslGenpkey, opensslPublicPem, sshKeygen } from '../support/tmp';

const tmp = makeTempDir();
afterAll(() => tmp.cleanup());

/** The raw 32 bytes from an `ssh-ed25519 AAAA...` line, read independently of the library. */
function rawFromSshPub(line: string): Buffer {
  const blob = Buffer.from(line.split(' ')[1], 'base64');
  return blob.subarray(blob.length - 32);
}

describe('generateKeyPair / publicKeyRaw / privateKeyToPem', () => {
  it('generates Ed25519 pairs whose raw public key is 32 bytes and matches from either half', () => {
    const { privateKey, publicKey } = generateKeyPair();
    expect(privateKey.asymmetricKeyType).toBe('ed25519');
    const raw = publicKeyRaw(publicKey);
    expect(raw).toHaveLength(32);
    expect(Buffer.from(publicKeyRaw(privateKey))).toEqual(Buffer.from(raw));
    expect(Buffer.from(raw).toString('base64url')).toBe(publicKey.export({ format: 'jwk' }).x);
  });

  it('writes PKCS#8 PEM that round-trips through a file and through openssl', () => {
    const { privateKey } = generateKeyPair();
    const pem = privateKeyToPem(privateKey);
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const path = join(tmp.dir, 'gen.pem');
    writeFileSync(path, pem, { mode: 0o600 });
    const loaded = loadPrivateKeyFile(path);
    expect(Buffer.from(publicKeyRaw(loaded))).toEqual(Buffer.from(publicKeyRaw(privateKey)));
    const fromOpenssl = createPublicKey(opensslPublicPem(path));
    expect(Buffer.from(publicKeyRaw(fromOpenssl))).toEqual(Buffer.from(publicKeyRaw(privateKey)));
  });

  it('refuses non-Ed25519 KeyObjects', () => {
    const ec = createPublicKey(
      readFileSync(opensslGenpkey(tmp.dir, 'ec-for-raw.pem', 'EC', ['-pkeyopt', 'ec_paramgen_curve:P-256'])),
    );
    expect(() => publicKeyRaw(ec)).toThrow(/expected an Ed25519 key, got ec/);
  });
});

describe('loadPrivateKeyFile', () => {
  it('loads a key made by `ssh-keygen -t ed25519 -N ""` and signs with it', () => {
    const path = sshKeygen(tmp.dir, 'id_ssh');
    const key = loadPrivateKeyFile(path);
    const expected = rawFromSshPub(readFileSync(path + '.pub', 'utf8'));
    expect(Buffer.from(publicKeyRaw(key))).toEqual(expected);
    const sig = sign(null, Buffer.from('hello'), key);
    expect(verify(null, Buffer.from('hello'), createPublicKey(key), sig)).toBe(true);
  });

  it('loads a key made by `openssl genpkey -algorithm ed25519`', () => {
    const path = opensslGenpkey(tmp.dir, 'ossl.pem');
    const key = loadPrivateKeyFile(path);
    const pub = createPublicKey(opensslPublicPem(path));
    expect(Buffer.from(publicKeyRaw(key))).toEqual(Buffer.from(publicKeyRaw(pub)));
  });

  it('says how to export an unencrypted copy of a passphrase-protected ssh key, without echoing the key', () => {
    const path = sshKeygen(tmp.dir, 'id_enc', { passphrase: 'secret' });
    const text = readFileSync(path, 'utf8');
    let err: unknown;
    try {
      loadPrivateKeyFile(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(KeyError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/encrypted with a passphrase/);
    expect(msg).toMatch(/ssh-keygen -p -N ""/);
    expect(msg).not.toContain(text.split('\n')[1]);
  });

  it('explains an encrypted PKCS#8 key', () => {
    const path = opensslGenpkey(tmp.dir, 'enc.pem', 'ed25519', ['-aes-256-cbc', '-pass', 'pass:secret']);
    expect(() => loadPrivateKeyFile(path)).toThrow(/encrypted.*openssl pkey/);
  });

  it('refuses an ssh RSA key and an EC PEM, naming the algorithm', () => {
    const rsa = sshKeygen(tmp.dir, 'id_rsa', { type: 'rsa' });
    expect(() => loadPrivateKeyFile(rsa)).toThrow(/ssh-rsa, not ssh-ed25519/);
    const ec = opensslGenpkey(tmp.dir, 'ec.pem', 'EC', ['-pkeyopt', 'ec_paramgen_curve:P-256']);
    expect(() => loadPrivateKeyFile(ec)).toThrow(/ec private key; arena uses Ed25519/);
  });

  it('refuses a public key, a missing file and garbage with the file name in the message', () => {
    const pub = sshKeygen(tmp.dir, 'id_pubonly') + '.pub';
    expect(() => loadPrivateKeyFile(pub)).toThrow(/this is a public key/);
    expect(() => loadPrivateKeyFile(join(tmp.dir, 'nope'))).toThrow(/cannot read key file .*nope: no such file/);
    const junk = join(tmp.dir, 'junk');
    writeFileSync(junk, 'hello world\n');
    expect(() => loadPrivateKeyFile(junk)).toThrow(/junk: not a private key file/);
  });

  it('detects a corrupted OpenSSH key: check values or public key copies that differ', () => {
    const path = sshKeygen(tmp.dir, 'id_corrupt');
    const body = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('-----'))
      .join('');
    const corrupt = (offset: number, name: string) => {
      const bytes = Buffer.from(body, 'base64');
      bytes[offset] ^= 0xff;
      const file = join(tmp.dir, name);
      writeFileSync(
        file,
        `-----BEGIN OPENSSH PRIVATE KEY-----\n${bytes.toString('base64')}\n-----END OPENSSH PRIVATE KEY-----\n`,
      );
      return file;
    };
    const size = Buffer.from(body, 'base64').length;
    // Layout (PROTOCOL.key): magic 15, "none" 8, "none" 8, kdf options 4, count 4,
    // public blob 4+51, private section length 4: the first check-int is at 98.
    expect(() => loadPrivateKeyFile(corrupt(98, 'bad-check'))).toThrow(/corrupt \(check values differ\)/);
    // The end is 7 padding bytes, a 14-byte comment and its length: 30 from the
    // end is inside the public half of the 64-byte secret.
    expect(() => loadPrivateKeyFile(corrupt(size - 30, 'bad-copy'))).toThrow(/corrupt \(public key copies disagree\)/);
    expect(() => loadPrivateKeyFile(corrupt(size - 1, 'bad-pad'))).toThrow(/corrupt \(bad padding\)/);
  });
});
