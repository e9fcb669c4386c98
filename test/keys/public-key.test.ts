import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createPublicKey } from 'node:crypto';
import { formatPublicKey, generateKeyPair, KeyError, parsePublicKey, publicKeyRaw } from '../../src/keys/index';
import { makeTempDir, opensslGenpkey, opensslPublicPem, sshKeygen } from '../support/tmp';

const tmp = makeTempDir();
afterAll(() => tmp.cleanup());

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('parsePublicKey', () => {
  it('reads an ssh-keygen .pub line (with comment) into the raw 32 bytes', () => {
    const path = sshKeygen(tmp.dir, 'id');
    const line = readFileSync(path + '.pub', 'utf8');
    const blob = Buffer.from(line.split(' ')[1], 'base64');
    expect(hex(parsePublicKey(line))).toBe(blob.subarray(blob.length - 32).toString('hex'));
  });

  it('reads an openssl PEM PUBLIC KEY block', () => {
    const pem = opensslPublicPem(opensslGenpkey(tmp.dir, 'k.pem'));
    expect(hex(parsePublicKey(pem))).toBe(hex(publicKeyRaw(createPublicKey(pem))));
  });

  it('reads base64 of the raw 32 bytes, and the three formats agree', () => {
    const { publicKey } = generateKeyPair();
    const raw = publicKeyRaw(publicKey);
    for (const f of ['ssh', 'pem', 'raw'] as const) {
      expect(hex(parsePublicKey(formatPublicKey(raw, f, 'me@host')))).toBe(hex(raw));
    }
    expect(formatPublicKey(publicKey, 'raw')).toHaveLength(44);
    expect(formatPublicKey(raw, 'ssh', 'me@host')).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\S+ me@host$/);
  });

  it('formats ssh lines that ssh-keygen itself accepts as the same key', () => {
    const path = sshKeygen(tmp.dir, 'id2');
    const line = readFileSync(path + '.pub', 'utf8').trim();
    const [type, blob] = line.split(' ');
    expect(formatPublicKey(parsePublicKey(line), 'ssh')).toBe(`${type} ${blob}`);
  });

  it.each([
    ['empty', '  ', /empty/],
    ['ssh-rsa line', 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ me', /ssh-rsa, not ssh-ed25519/],
    ['ecdsa line', 'ecdsa-sha2-nistp256 AAAAE2VjZHNh', /ecdsa-sha2-nistp256, not ssh-ed25519/],
    ['ssh line without data', 'ssh-ed25519', /no key data/],
    ['ssh line with bad base64', 'ssh-ed25519 AAAA$$$$', /not valid base64/],
    [
      'ssh line whose blob says rsa',
      `ssh-ed25519 ${Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('ssh-rsa'), Buffer.from([0, 0, 0, 1, 1])]).toString('base64')}`,
      /says ssh-rsa/,
    ],
    [
      'ssh line with a short key',
      `ssh-ed25519 ${Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from('ssh-ed25519'), Buffer.from([0, 0, 0, 31]), Buffer.alloc(31)]).toString('base64')}`,
      /31 bytes, expected 32/,
    ],
    [
      'ssh line truncated',
      `ssh-ed25519 ${Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from('ssh-ed25519'), Buffer.from([0, 0, 0, 32]), Buffer.alloc(8)]).toString('base64')}`,
      /truncated/,
    ],
    ['raw base64 of 31 bytes', Buffer.alloc(31, 1).toString('base64'), /decodes to 31 bytes/],
    ['raw base64 of 33 bytes', Buffer.alloc(33, 1).toString('base64'), /decodes to 33 bytes/],
    ['not base64', 'hello world!', /not an ssh-ed25519 line, a PEM PUBLIC KEY block, or valid base64/],
    ['base64 with junk inside', Buffer.alloc(32, 1).toString('base64').replace('A', '*'), /valid base64/],
    ['private key PEM', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----', /private key, never share it/],
    ['damaged PEM', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----', /does not parse/],
  ])('rejects %s with a clear reason', (_name, input, reason) => {
    expect(() => parsePublicKey(input)).toThrow(KeyError);
    expect(() => parsePublicKey(input)).toThrow(reason);
  });

  it('rejects an EC PEM PUBLIC KEY, naming the algorithm', () => {
    const pem = opensslPublicPem(opensslGenpkey(tmp.dir, 'ec.pem', 'EC', ['-pkeyopt', 'ec_paramgen_curve:P-256']));
    expect(() => parsePublicKey(pem)).toThrow(/PEM public key is ec, not Ed25519/);
  });
});
