import { describe, expect, it } from 'vitest';
import { createPublicKey, sign, verify } from 'node:crypto';
import * as ed from '@noble/ed25519';
import {
  generateKeyPair,
  publicKeyRaw,
  REQUEST_WINDOW_MS,
  requestMessage,
  signRequest,
  verifyRequest,
  type KeyRecord,
} from '../../src/keys/index';

const NOW = 1_760_000_000_000;
const { privateKey, publicKey } = generateKeyPair();
const keys = new Map<string, KeyRecord>([
  ['k1', { publicKey: publicKeyRaw(publicKey), revoked: false }],
  ['k-revoked', { publicKey, revoked: true }],
]);
const lookupKey = (id: string) => keys.get(id);

const body = Buffer.from('{"name":"greedy","url":"https://b.example/ws"}');
const req = { method: 'POST', path: '/bots?game=pioneers', body };

function check(
  over: Partial<Parameters<typeof verifyRequest>[0]> = {},
  headers = signRequest(privateKey, 'k1', req, NOW),
) {
  return verifyRequest({ ...req, headers, lookupKey, now: NOW, ...over });
}

describe('requestMessage', () => {
  it('is `{timestamp}.{METHOD}.{path}.{body}` over the raw body bytes', () => {
    expect(requestMessage('1', 'get', '/me', undefined).toString()).toBe('1.GET./me.');
    const nonUtf8 = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
    expect(requestMessage('5', 'POST', '/x?a=1', nonUtf8)).toEqual(
      Buffer.concat([Buffer.from('5.POST./x?a=1.'), nonUtf8]),
    );
  });
});

describe('signRequest / verifyRequest', () => {
  it('accepts a good request and names the key', () => {
    expect(check()).toEqual({ ok: true, keyId: 'k1', timestamp: NOW });
  });

  it('signs the exact body bytes: a string body equals its UTF-8 bytes', () => {
    const headers = signRequest(privateKey, 'k1', { ...req, body: body.toString() }, NOW);
    expect(check({}, headers).ok).toBe(true);
  });

  it.each([
    ['method', { method: 'PUT' }],
    ['path', { path: '/bot?game=pioneers' }],
    ['query', { path: '/bots?game=other' }],
    ['dropped query', { path: '/bots' }],
    ['body', { body: Buffer.from('{"name":"greedy","url":"https://evil.example/ws"}') }],
    ['re-serialised body', { body: Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1)) }],
    ['empty body', { body: undefined }],
  ])('rejects a tampered %s as bad_signature', (_what, over) => {
    expect(check(over)).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('rejects a tampered timestamp', () => {
    const h = signRequest(privateKey, 'k1', req, NOW);
    expect(check({}, { ...h, 'x-svc-timestamp': String(NOW - 1) })).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('accepts timestamps just inside the 5-minute window and rejects just outside, each way', () => {
    expect(REQUEST_WINDOW_MS).toBe(300_000);
    expect(check({ now: NOW + 300_000 }).ok).toBe(true);
    expect(check({ now: NOW - 300_000 }).ok).toBe(true);
    expect(check({ now: NOW + 300_001 })).toMatchObject({
      ok: false,
      code: 'stale_timestamp',
      reason: expect.stringMatching(/300001 ms old/),
    });
    expect(check({ now: NOW - 300_001 })).toMatchObject({ ok: false, code: 'future_timestamp' });
  });

  it('reports missing headers, bad timestamps, unknown and revoked keys', () => {
    const h = signRequest(privateKey, 'k1', req, NOW);
    const { 'x-svc-key': _k, ...noKey } = h;
    expect(check({}, noKey as typeof h)).toMatchObject({
      ok: false,
      code: 'missing_header',
      reason: 'missing header x-svc-key',
    });
    expect(check({}, { ...h, 'x-svc-timestamp': '-5' })).toMatchObject({ ok: false, code: 'bad_timestamp' });
    expect(check({}, { ...h, 'x-svc-timestamp': '1.7e12' })).toMatchObject({ ok: false, code: 'bad_timestamp' });
    expect(check({}, { ...h, 'x-svc-key': 'nope' })).toMatchObject({ ok: false, code: 'unknown_key' });
    expect(check({}, { ...h, 'x-svc-signature': 'abc' })).toMatchObject({ ok: false, code: 'bad_signature' });
    const revoked = signRequest(privateKey, 'k-revoked', req, NOW);
    expect(check({}, revoked)).toMatchObject({ ok: false, code: 'revoked_key' });
  });

  it('does not let another key sign for k1', () => {
    const other = generateKeyPair();
    expect(check({}, signRequest(other.privateKey, 'k1', req, NOW))).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
  });

  it('cross-checks with node:crypto both ways', () => {
    const h = signRequest(privateKey, 'k1', req, NOW);
    const msg = Buffer.concat([Buffer.from(`${NOW}.POST./bots?game=pioneers.`), body]);
    expect(verify(null, msg, createPublicKey(privateKey), Buffer.from(h['x-svc-signature'], 'base64'))).toBe(true);
    const sig = sign(null, msg, privateKey).toString('base64');
    expect(check({}, { 'x-svc-key': 'k1', 'x-svc-timestamp': String(NOW), 'x-svc-signature': sig }).ok).toBe(true);
  });

  it('agrees with an independent implementation (@noble/ed25519)', async () => {
    const h = signRequest(privateKey, 'k1', req, NOW);
    const msg = requestMessage(String(NOW), 'POST', req.path, body);
    expect(await ed.verifyAsync(Buffer.from(h['x-svc-signature'], 'base64'), msg, publicKeyRaw(publicKey))).toBe(true);
  });

  it('refuses to sign a path without a leading slash', () => {
    expect(() => signRequest(privateKey, 'k1', { method: 'GET', path: 'me' })).toThrow(/must start with "\/"/);
  });
});
