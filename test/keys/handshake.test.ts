import { describe, expect, it } from 'vitest';
import { createPublicKey, sign, verify } from 'node:crypto';
import {
  generateKeyPair,
  HANDSHAKE_WINDOW_MS,
  handshakeAudience,
  NonceMemory,
  publicKeyRaw,
  signBoundHandshake,
  signHandshake,
  verifyBoundHandshake,
  verifyHandshake,
} from '../../src/keys/index';

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
    expect(
      verify(null, Buffer.from(`${NOW}.deploy-check`), publicKey, Buffer.from(h['x-svc-signature'], 'base64')),
    ).toBe(true);
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
    expect(verifyHandshake(raw, { ...h, 'x-svc-signature': sig.toString('base64') }, NOW)).toEqual({
      ok: false,
      reason: expect.stringMatching(/does not verify/),
    });
    expect(verifyHandshake(publicKeyRaw(generateKeyPair().publicKey), h, NOW).ok).toBe(false);
  });

  it('reports missing, malformed and duplicated headers', () => {
    const h = signHandshake(privateKey, 'm', NOW);
    const { 'x-svc-signature': _s, ...noSig } = h;
    expect(verifyHandshake(raw, noSig, NOW)).toEqual({ ok: false, reason: 'missing header x-svc-signature' });
    expect(verifyHandshake(raw, { ...h, 'x-svc-timestamp': '17e11' }, NOW)).toEqual({
      ok: false,
      reason: expect.stringMatching(/not unix milliseconds/),
    });
    expect(verifyHandshake(raw, { ...h, 'x-svc-signature': 'not base64!' }, NOW)).toEqual({
      ok: false,
      reason: expect.stringMatching(/64-byte/),
    });
    expect(verifyHandshake(raw, { ...h, 'x-svc-match': ['a', 'b'] }, NOW)).toEqual({
      ok: false,
      reason: 'header x-svc-match appears 2 times',
    });
    expect(verifyHandshake(raw.subarray(0, 31), h, NOW).ok).toBe(false);
  });

  it('finds headers regardless of letter case', () => {
    const h = signHandshake(privateKey, 'm', NOW);
    const upper = {
      'X-Svc-Match': h['x-svc-match'],
      'X-SVC-TIMESTAMP': h['x-svc-timestamp'],
      'x-svc-signature': [h['x-svc-signature']],
    };
    expect(verifyHandshake(raw, upper, NOW).ok).toBe(true);
  });
});

describe('signBoundHandshake / verifyBoundHandshake (audience-bound extension)', () => {
  const BOT = 'ws://127.0.0.1:8080/';
  const OTHER = 'ws://127.0.0.1:9090/';

  it('sends the spec headers unchanged beside the three bound ones, and the spec form still verifies', () => {
    const h = signBoundHandshake(privateKey, 'm-1', 'http://127.0.0.1:8080', NOW);
    expect(Object.keys(h).sort()).toEqual([
      'x-svc-audience',
      'x-svc-audience-signature',
      'x-svc-match',
      'x-svc-nonce',
      'x-svc-signature',
      'x-svc-timestamp',
    ]);
    expect(verifyHandshake(raw, h, NOW)).toEqual({ ok: true, matchId: 'm-1' });
    expect(h['x-svc-signature']).toBe(signHandshake(privateKey, 'm-1', NOW)['x-svc-signature']);
    // The audience is the socket URL the arena connects to, WHATWG-normalized.
    expect(h['x-svc-audience']).toBe(BOT);
    expect(h['x-svc-nonce']).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(h['x-svc-nonce'], 'base64url')).toHaveLength(16);
    expect(signBoundHandshake(privateKey, 'm-1', BOT, NOW)['x-svc-nonce']).not.toBe(h['x-svc-nonce']);
    const message = `${NOW}.m-1.${h['x-svc-nonce']}.${BOT}`;
    expect(verify(null, Buffer.from(message), publicKey, Buffer.from(h['x-svc-audience-signature'], 'base64'))).toBe(
      true,
    );
    expect(verifyBoundHandshake(raw, h, BOT, new NonceMemory(), NOW)).toEqual({ ok: true, matchId: 'm-1' });
  });

  it('refuses a handshake addressed to another bot, even with every signature good', () => {
    const h = signBoundHandshake(privateKey, 'm-1', OTHER, NOW);
    expect(verifyHandshake(raw, h, NOW).ok).toBe(true); // the replay the spec's signature alone lets through
    expect(verifyBoundHandshake(raw, h, BOT, new NonceMemory(), NOW)).toEqual({
      ok: false,
      reason: expect.stringMatching(/meant for another bot/),
    });
    // Rewriting the audience header to ours breaks the second signature.
    expect(verifyBoundHandshake(raw, { ...h, 'x-svc-audience': BOT }, BOT, new NonceMemory(), NOW)).toEqual({
      ok: false,
      reason: expect.stringMatching(/does not verify/),
    });
  });

  it('refuses a tampered nonce, match id or timestamp, and a signature by another key', () => {
    const h = signBoundHandshake(privateKey, 'm-1', BOT, NOW, 'AAAAAAAAAAAAAAAAAAAAAA');
    const other = h['x-svc-nonce'].replace(/^A/, 'B');
    expect(verifyBoundHandshake(raw, { ...h, 'x-svc-nonce': other }, BOT, new NonceMemory(), NOW)).toEqual({
      ok: false,
      reason: expect.stringMatching(/does not verify/),
    });
    expect(verifyBoundHandshake(raw, { ...h, 'x-svc-nonce': 'short' }, BOT, new NonceMemory(), NOW)).toEqual({
      ok: false,
      reason: expect.stringMatching(/22 characters/),
    });
    expect(verifyBoundHandshake(raw, { ...h, 'x-svc-match': 'm-2' }, BOT, new NonceMemory(), NOW).ok).toBe(false);
    expect(
      verifyBoundHandshake(raw, { ...h, 'x-svc-timestamp': String(NOW + 1) }, BOT, new NonceMemory(), NOW).ok,
    ).toBe(false);
    const stranger = signBoundHandshake(generateKeyPair().privateKey, 'm-1', BOT, NOW);
    expect(verifyBoundHandshake(raw, stranger, BOT, new NonceMemory(), NOW).ok).toBe(false);
  });

  it('refuses the same nonce twice while it is live, and forgets it after the window', () => {
    const memory = new NonceMemory();
    const h = signBoundHandshake(privateKey, 'm-1', BOT, NOW);
    expect(verifyBoundHandshake(raw, h, BOT, memory, NOW).ok).toBe(true);
    expect(verifyBoundHandshake(raw, h, BOT, memory, NOW + 29_000)).toEqual({
      ok: false,
      reason: expect.stringMatching(/seen before/),
    });
    // A fresh nonce for the same match (a reconnect) is fine.
    expect(verifyBoundHandshake(raw, signBoundHandshake(privateKey, 'm-1', BOT, NOW), BOT, memory, NOW + 1).ok).toBe(
      true,
    );
    // Past the window the skew check refuses it; the memory has let it go.
    expect(verifyBoundHandshake(raw, h, BOT, memory, NOW + 30_001)).toEqual({
      ok: false,
      reason: expect.stringMatching(/old/),
    });
    expect(memory.admit('x', NOW + 60_000)).toBe('new');
    expect(memory.size).toBe(1);
  });

  it('refuses a timestamp outside the 30 s skew either way', () => {
    const h = signBoundHandshake(privateKey, 'm', BOT, NOW);
    expect(verifyBoundHandshake(raw, h, BOT, new NonceMemory(), NOW + 30_000).ok).toBe(true);
    expect(verifyBoundHandshake(raw, h, BOT, new NonceMemory(), NOW - 30_000).ok).toBe(true);
    expect(verifyBoundHandshake(raw, h, BOT, new NonceMemory(), NOW + 30_001)).toEqual({
      ok: false,
      reason: expect.stringMatching(/30001 ms old/),
    });
    expect(verifyBoundHandshake(raw, h, BOT, new NonceMemory(), NOW - 30_001)).toEqual({
      ok: false,
      reason: expect.stringMatching(/in the future/),
    });
  });

  it('refuses a spec-only handshake (no bound headers) and names what is missing', () => {
    const h = signHandshake(privateKey, 'm', NOW);
    expect(verifyBoundHandshake(raw, h, BOT, new NonceMemory(), NOW)).toEqual({
      ok: false,
      reason: 'missing header x-svc-audience',
    });
  });

  it('reads the own public URL as the arena writes the audience: normalized, http(s) as ws(s)', () => {
    expect(handshakeAudience('http://127.0.0.1:8080')).toBe(BOT);
    expect(handshakeAudience('HTTPS://Bot.Example:443/a/../play#x')).toBe('wss://bot.example/play');
    expect(handshakeAudience('ws://[::1]:80/')).toBe('ws://[::1]/');
    const h = signBoundHandshake(privateKey, 'm', 'wss://bot.example/play', NOW);
    expect(verifyBoundHandshake(raw, h, 'https://bot.example/play', new NonceMemory(), NOW).ok).toBe(true);
    expect(verifyBoundHandshake(raw, h, 'https://bot.example/other', new NonceMemory(), NOW).ok).toBe(false);
    expect(verifyBoundHandshake(raw, h, 'not a url', new NonceMemory(), NOW)).toEqual({
      ok: false,
      reason: expect.stringMatching(/not a valid URL/),
    });
  });

  it('keeps at most `capacity` live nonces and refuses rather than forget one', () => {
    const memory = new NonceMemory(30_000, 3);
    for (const n of ['a', 'b', 'c']) expect(memory.admit(n, NOW)).toBe('new');
    expect(memory.admit('d', NOW + 10)).toBe('full');
    expect(memory.admit('a', NOW + 10)).toBe('replayed');
    // Expired entries make room again.
    expect(memory.admit('d', NOW + 30_001)).toBe('new');
    expect(memory.size).toBe(1);
    // A timestamp ahead of the clock keeps its nonce until it can no longer pass.
    expect(memory.admit('e', NOW, NOW + 20_000)).toBe('new');
    expect(memory.admit('e', NOW + 45_000)).toBe('replayed');
  });
});
