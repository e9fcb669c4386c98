import { describe, expect, it } from 'vitest';
import { cyrb128, nextU32, randInt, shuffle, stream, streamInto } from '../../engine/rng';

describe('seeded PRNG', () => {
  it('hashes seeds with cyrb128 (fixed values: replays depend on them forever)', () => {
    expect(Array.from(cyrb128(''))).toEqual(Array.from(cyrb128('')));
    expect(cyrb128('a')).not.toEqual(cyrb128('b'));
    const s = stream('pioneers', 'dice');
    const first = [nextU32(s), nextU32(s), nextU32(s)];
    expect(first).toEqual(FIRST_DICE_WORDS);
  });

  it('restarts a used generator in place as a fresh stream of the same seed and name', () => {
    const s = stream('other', 'bot');
    for (let i = 0; i < 5; i++) nextU32(s);
    expect(streamInto(s, 'pioneers', 'dice')).toBe(s);
    expect([nextU32(s), nextU32(s), nextU32(s)]).toEqual(FIRST_DICE_WORDS);
  });

  it('matches the reference sfc32 (bryc) seeded from cyrb128', () => {
    const [a0, b0, c0, d0] = Array.from(cyrb128('reference/x'));
    let a = a0 | 0,
      b = b0 | 0,
      c = c0 | 0,
      d = d0 | 0;
    const reference = (): number => {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
      return t >>> 0;
    };
    for (let i = 0; i < 12; i++) reference(); // the same warm-up as stream()
    const s = stream('reference', 'x');
    for (let i = 0; i < 1000; i++) expect(nextU32(s)).toBe(reference());
  });

  it('gives independent streams per name and identical streams per (seed, name)', () => {
    const a = stream('seed', 'dice'),
      b = stream('seed', 'dice'),
      c = stream('seed', 'deck');
    const xs = Array.from({ length: 5 }, () => nextU32(a));
    expect(Array.from({ length: 5 }, () => nextU32(b))).toEqual(xs);
    expect(Array.from({ length: 5 }, () => nextU32(c))).not.toEqual(xs);
  });

  it('randInt stays in range and is close to uniform', () => {
    const s = stream('uniform', 'test');
    for (const n of [1, 2, 6, 7, 19, 1000]) {
      const counts = new Array<number>(n).fill(0);
      const draws = n * 600;
      let outOfRange = 0;
      for (let i = 0; i < draws; i++) {
        const x = randInt(s, n);
        if (!Number.isInteger(x) || x < 0 || x >= n) outOfRange++;
        else counts[x]++;
      }
      expect(outOfRange).toBe(0);
      // Every bucket within 25% of its expectation (600): loose, but catches a skewed or stuck generator.
      for (const c of counts) expect(Math.abs(c - 600)).toBeLessThan(150);
    }
  });

  it('shuffle is a permutation', () => {
    const arr = Array.from({ length: 25 }, (_, i) => i);
    shuffle(stream('shuffle', 'x'), arr);
    expect([...arr].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(arr).not.toEqual(Array.from({ length: 25 }, (_, i) => i));
  });
});

// Pinned output of stream('pioneers', 'dice'): if this changes, every recorded replay breaks.
const FIRST_DICE_WORDS = [724267219, 598213844, 1482709137];
