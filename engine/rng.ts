// Seeded randomness. Every hidden thing in a game comes from the seed through
// independent sub-streams, so (for example) the dice of turn 57 are fixed by
// the seed alone, whatever the players did before.
//
//   stream state = cyrb128(seed + '/' + streamName)   (four 32-bit words)
//   next()       = sfc32 (Chris Doty-Humphrey's Small Fast Counter, 32-bit)
//   randInt(n)   = Lemire's multiply-shift on next(), with rejection: every value in [0, n) equally likely
//
// Streams used by the engine: 'board' (resources, then tokens), 'seats',
// 'deck', 'dice', 'steal'. Built-in bots use their own seed with stream 'bot'.
// All of it is 32-bit integer math (Math.imul, >>> 0): identical on every
// machine and JavaScript engine.

/** cyrb128: a fast 128-bit string hash (public domain, bryc). Returns four 32-bit words. */
export function cyrb128(str: string): Uint32Array {
  return cyrb128Into(str, new Uint32Array(4));
}

function cyrb128Into(str: string, out: Uint32Array): Uint32Array {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  out[0] = h1 >>> 0;
  out[1] = h2 >>> 0;
  out[2] = h3 >>> 0;
  out[3] = h4 >>> 0;
  return out;
}

/** The sfc32 state of one named sub-stream of a seed. Warmed up by 12 steps, as sfc32 recommends. */
export function stream(seed: string, name: string): Uint32Array {
  return streamInto(new Uint32Array(4), seed, name);
}

/** stream(seed, name) written into an existing state (four words): restarts a generator without allocating one. */
export function streamInto(s: Uint32Array, seed: string, name: string): Uint32Array {
  cyrb128Into(`${seed}/${name}`, s);
  for (let i = 0; i < 12; i++) nextU32(s);
  return s;
}

/** sfc32: the next 32-bit unsigned value; advances the state in place. */
export function nextU32(s: Uint32Array): number {
  // Int32 arithmetic (| 0) throughout: the same bits as unsigned math mod 2^32,
  // but V8 keeps every value a small integer; elements above 2^31 read from a
  // Uint32Array and >>> 0 results would otherwise be doubles. Only the result
  // is made unsigned.
  const a = s[0] | 0,
    b = s[1] | 0,
    c = s[2] | 0,
    d = s[3] | 0;
  const t = (a + b + d) | 0;
  s[3] = (d + 1) | 0;
  s[0] = b ^ (b >>> 9);
  s[1] = (c + (c << 3)) | 0;
  s[2] = (((c << 21) | (c >>> 11)) + t) | 0;
  return t >>> 0;
}

/**
 * Uniform integer in [0, n), 1 <= n <= 2^21, without bias: Lemire's
 * multiply-shift with rejection. x * n stays below 2^53, so the double
 * arithmetic is exact; the modulo runs only in the rare rejection zone.
 */
export function randInt(s: Uint32Array, n: number): number {
  let x = nextU32(s);
  let lo = Math.imul(x, n) >>> 0; // low 32 bits of x * n
  if (lo < n) {
    const threshold = (4294967296 - n) % n;
    while (lo < threshold) {
      x = nextU32(s);
      lo = Math.imul(x, n) >>> 0;
    }
  }
  return Math.floor((x * n) / 4294967296); // high 32 bits of x * n
}

/** Fisher-Yates shuffle in place, from the last index down. */
export function shuffle<T>(s: Uint32Array, arr: { length: number; [i: number]: T }): void {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = randInt(s, i + 1);
    const t = arr[i];
    arr[i] = arr[j];
    arr[j] = t;
  }
}

/**
 * A reproducible stand-in for Math.random: floats in [0, 1) from one named
 * sub-stream. For code outside the engine (table draws, test bots) so the
 * project has one PRNG, not several.
 */
export function seededRandom(seed: string, name: string): () => number {
  const s = stream(seed, name);
  return () => nextU32(s) / 4294967296;
}
