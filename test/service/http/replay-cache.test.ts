// The replay cache on its own: a signature is accepted once per window, is
// the same signature however its base64 is written, is forgotten once it
// could no longer verify, and the cache never grows past its capacity.
import { describe, expect, it } from 'vitest';
import { generateKeyPair, signRequest } from '../../../src/keys/index';
import { ReplayCache, replayKey } from '../../../src/service/http/replay-cache';

const WINDOW = 5 * 60_000;
const T0 = 1_800_000_000_000;

describe('ReplayCache', () => {
  it('the second presentation of a signature is a replay', () => {
    const cache = new ReplayCache(WINDOW);
    expect(cache.check('k:sig', T0, T0)).toBe('first');
    expect(cache.check('k:sig', T0, T0 + 1000)).toBe('replay');
    expect(cache.check('k:other', T0, T0 + 1000)).toBe('first');
  });

  it('keys a signature by its bytes: padding or surrounding spaces do not make it new, other signatures differ', () => {
    const { privateKey } = generateKeyPair();
    const sig = signRequest(privateKey, 'k_1', { method: 'GET', path: '/bots' }, T0)['x-svc-signature'];
    expect(sig.endsWith('==')).toBe(true);
    expect(replayKey(sig.replace(/=+$/, ''))).toBe(replayKey(sig));
    expect(replayKey(` ${sig}\t`)).toBe(replayKey(sig));
    // The signed message does not name the key id, so neither does the replay key (the same pair under two ids).
    expect(replayKey(signRequest(privateKey, 'k_2', { method: 'GET', path: '/bots' }, T0)['x-svc-signature'])).toBe(
      replayKey(sig),
    );
    const others = [T0 + 1, T0 + 2].map((ts) =>
      replayKey(signRequest(privateKey, 'k_1', { method: 'GET', path: '/bots' }, ts)['x-svc-signature']),
    );
    expect(new Set([replayKey(sig), ...others]).size).toBe(3);
    expect(
      replayKey(
        signRequest(generateKeyPair().privateKey, 'k_1', { method: 'GET', path: '/bots' }, T0)['x-svc-signature'],
      ),
    ).not.toBe(replayKey(sig));
  });

  it('a replay carries its own timestamp: it is found whatever other spans hold', () => {
    const cache = new ReplayCache(WINDOW);
    for (let i = 0; i < 100; i++) expect(cache.check(`s${i}`, T0 - WINDOW + i * 6_000, T0)).toBe('first');
    for (let i = 0; i < 100; i++) expect(cache.check(`s${i}`, T0 - WINDOW + i * 6_000, T0 + 1)).toBe('replay');
    expect(cache.size).toBe(100);
  });

  it('remembers a signature while it can verify (a future timestamp until ts + window), then forgets it', () => {
    const cache = new ReplayCache(WINDOW);
    const future = T0 + WINDOW; // the newest timestamp still accepted at T0
    expect(cache.check('k:a', future, T0)).toBe('first');
    expect(cache.check('k:a', future, T0 + 2 * WINDOW)).toBe('replay');
    // One sweep later than the signature's last valid moment it is gone.
    expect(cache.check('k:b', T0 + 2 * WINDOW + 20_000, T0 + 2 * WINDOW + 20_000)).toBe('first');
    expect(cache.size).toBe(1);
  });

  it('never holds more than its capacity: past it, refuses instead of growing, and recovers when entries expire', () => {
    const cache = new ReplayCache(WINDOW, 3);
    for (const k of ['a', 'b', 'c']) expect(cache.check(k, T0, T0)).toBe('first');
    expect(cache.check('d', T0, T0 + 1)).toBe('full');
    expect(cache.size).toBe(3);
    // A replay is still recognised while full.
    expect(cache.check('a', T0, T0 + 2)).toBe('replay');
    // After the window (and the periodic sweep) there is room again.
    expect(cache.check('d', T0 + WINDOW + 20_000, T0 + WINDOW + 20_000)).toBe('first');
    expect(cache.size).toBe(1);
  });
});
