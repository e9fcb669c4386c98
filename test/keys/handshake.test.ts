import { describe, expect, it } from 'vitest';
import { createPublicKey, sign, verify } from 'node:crypto';
import { generateKeyPair, HANDSHAKE_WINDOW_MS, publicKeyRaw, signHandshake, verifyHandshake } from '../../src/keys/index';

const { privateKey, publicKey } = generateKeyPair();
const raw = publicKeyRaw(publicKey);
const NOW = 1_760_000_000_000;

describe('signHandshake / verifyHandshake', () => {
  it('signs `<timestamp>.<matchId>` and verifies with raw bytes or a KeyObject', () => {
    const h = signHandshake(privateKey, 'm-42', NOW);
    expect(h['x-svc-match']).toBe('m-42');
    expect(h['x-svc-timestamp']).toBe(String(NOW));
    expect(verifyHandshake(raw, h, NOW)).toEqual({ ok: true, matchId: 'm-42' });
    expect(verifyHandshake(publicKey, h, NOW)).toEqual({ ok: true, matchId: 'm-42' });
  });

  it('cross-checks with raw node:crypto calls both ways', () => {
    const h = signHandshake(privateKey, 'deploy-check', NOW);
    expect(verify(null, Buffer.from(`${NOW}.deploy-check`), publicKey, Buffer.from(h['x-svc-signature'], 'base64'))).toBe(true);
    const other = generateKeyPair();
    const sig = sign(null, Buffer.from(`${NOW}.m-1`), other.privateKey).toString('base64');
    const headers = { 'x-svc-match': 'm-1', 'x-svc-timestamp': String(NOW), 'x-svc-signature': sig };
    expect(verifyHandshake(createPublicKey(other.privateKey), headers, NOW).ok).toBe(true);
  });

  it('accepts a timestamp just inside the 30 s window either way and rejects just outside', () => {
    const h = signHandshake(privateKey, 'm', NOW);
    expect(HANDSHAKE_WINDOW_MS).toBe(30_000);
    expect(verifyHandshake(raw, h, NOW + 30_000).ok).toBe(true);
    expect(verifyHandshake(raw, h, NOW - 30_000).ok).toBe(true);
    const late = verifyHandshake(raw, h, NOW + 30_001);
    expect(late).toEqual({ ok: false, reason: expect.stringMatching(/30001 ms old/) });
    const early = verifyHandshake(raw, h, NOW - 30_001);
    expect(early).toEqual({ ok: false, reason: expect.stringMatching(/in the future/) });
    expect(verifyHandshake(raw, h, NOW + 59_000, 60_000).ok).toBe(true);
  });

  it('rejects a tampered match id, timestamp or signature, and the wrong key', () => {
    const h = signHandshake(privateKey, 'm-1', NOW);
    expect(verifyHandshake(raw, { ...h, 'x-svc-match': 'm-2' }, NOW).ok).toBe(false);
    expect(verifyHandshake(raw, { ...h, 'x-svc-timestamp': String(NOW + 1) }, NOW).ok).toBe(false);
    const sig = Buffer.from(h['x-svc-signature'], 'base64');
    sig[0] ^= 1;
    expect(verifyHandshake(raw, { ...h, 'x-svc-signature': sig.toString('base64') }, NOW)).toEqual({ ok: false, reason: expect.stringMatching(/does not verify/) });
    expect(verifyHandshake(publicKeyRaw(generateKeyPair().publicKey), h, NOW).ok).toBe(false);
  });

  it('reports missing, malformed and duplicated headers', () => {
    const h = signHandshake(privateKey, 'm', NOW);
    const { 'x-svc-signature': _s, ...noSig } = h;
    expect(verifyHandshake(raw, noSig, NOW)).toEqual({ ok: false, reason: 'missing header x-svc-signature' });
    expect(verifyHandshake(raw, { ...h, 'x-svc-timestamp': '17e11' }, NOW)).toEqual({ ok: false, reason: expect.stringMatching(/not unix milliseconds/) });
    expect(verifyHandshake(raw, { ...h, 'x-svc-signature': 'not base64!' }, NOW)).toEqual({ ok: false, reason: expect.stringMatching(/64-byte/) });
    expect(verifyHandshake(raw, { ...h, 'x-svc-match': ['a', 'b'] }, NOW)).toEqual({ ok: false, reason: 'header x-svc-match appears 2 times' });
    expect(verifyHandshake(raw.subarray(0, 31), h, NOW).ok).toBe(false);
  });

  it('finds headers regardless of letter case', () => {
    const h = signHandshake(privateKey, 'm', NOW);
    const upper = { 'X-Svc-Match': h['x-svc-match'], 'X-SVC-TIMESTAMP': h['x-svc-timestamp'], 'x-svc-signature': [h['x-svc-signature']] };
    expect(verifyHandshake(raw, upper, NOW).ok).toBe(true);
  });
});
