// The byte-level primitives both request-frame writers share: one scratch
// buffer and helpers that write JSON pieces into it exactly as JSON.stringify
// would. encode() calls are synchronous and copy their result out before
// returning, so one buffer serves every writer. Helpers take and return the
// write position so it stays in a register.

/** Room for everything but strings (worst case ~8 KB); strings make room for themselves. */
const FIXED_PART_BYTES = 16_384;
/** JSON-encoded identifiers (kinds, resources, card names, match ids) are cached; long talk lines are not. */
const STRING_CACHE_MAX = 256;

/** The scratch buffer (replaced by a bigger one when a frame needs it: read it after room()). */
export let buf = Buffer.allocUnsafe(32_768);

/** A copy of the bytes written so far, from 0 to `end`: the caller's own, safe to queue. */
export function takeFrame(end: number): Buffer {
  return Buffer.from(buf.subarray(0, end));
}

/** JSON string literals, escaped exactly as JSON.stringify escapes them, short ones cached. */
export class StringLiterals {
  /** JSON literal per string: ASCII ones as text (a byte loop beats a copy call for short runs), others as bytes. */
  private readonly strings = new Map<string, string | Buffer>();

  write(p: number, s: string): number {
    const cached = this.strings.get(s);
    if (cached !== undefined) return typeof cached === 'string' ? ascii(p, cached) : bytes(p, cached);
    const json = JSON.stringify(s);
    if (this.strings.size < STRING_CACHE_MAX && s.length <= 64) {
      const enc = isAscii(json) ? json : Buffer.from(json);
      this.strings.set(s, enc);
      return typeof enc === 'string' ? ascii(p, enc) : bytes(p, enc);
    }
    room(p, json.length * 3);
    return p + buf.write(json, p, 'utf8');
  }
}

export function nums(p: number, a: readonly number[]): number {
  buf[p++] = 0x5b; // [
  for (let i = 0; i < a.length; i++) {
    if (i > 0) buf[p++] = 0x2c;
    p = num(p, a[i]);
  }
  buf[p++] = 0x5d;
  return p;
}

/** Small non-negative integers digit by digit; anything else the way JSON.stringify writes it. */
export function num(p: number, n: number): number {
  if (n >= 0 && n < 1e9 && (n | 0) === n) {
    if (n < 10) {
      buf[p] = 48 + n;
      return p + 1;
    }
    let end = p + 1;
    for (let m = n; m >= 10; m = (m / 10) | 0) end++;
    let q = end;
    do {
      buf[--q] = 48 + (n % 10);
      n = (n / 10) | 0;
    } while (n > 0);
    return end;
  }
  return ascii(p, JSON.stringify(n));
}

/** ASCII only (our own punctuation and keys, and numbers). */
export function ascii(p: number, s: string): number {
  for (let i = 0; i < s.length; i++) buf[p++] = s.charCodeAt(i);
  return p;
}

export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

export function bytes(p: number, b: Buffer): number {
  room(p, b.length);
  buf.set(b, p);
  return p + b.length;
}

/** Makes sure `n` more bytes fit after `p`, with the fixed-part margin to spare. */
export function room(p: number, n: number): void {
  const need = p + n + FIXED_PART_BYTES;
  if (need <= buf.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(need, buf.length * 2));
  buf.copy(bigger, 0, 0, p);
  buf = bigger;
}
