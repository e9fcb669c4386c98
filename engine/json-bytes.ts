// The byte-level primitives of the view writer (view-bytes.ts) and the runner's request frames, writing JSON
// pieces exactly as JSON.stringify would. Frames are written straight into a
// slab and handed out as views of it (no copy, no allocation but the view):
// a frame's bytes are never written again once taken, so it may wait for a
// connection or sit in a socket's queue. Helpers take and return the write
// position so it stays in a register.
/** Room for everything but strings (worst case ~8 KB); strings make room for themselves. */
const FIXED_PART_BYTES = 16_384;
/** JSON-encoded identifiers (kinds, resources, card names, match ids) are cached; long talk lines are not. */
const STRING_CACHE_MAX = 256;

/** Frames are carved from slabs this big; a slab stays alive while any frame of it does. */
const SLAB_BYTES = 262_144;
/**
 * Free space a frame starts with: twice the fixed part, so that a frame of
 * ordinary size never has to move to a new slab half-way (room() would copy
 * it); only long talk does.
 */
const FRAME_START_ROOM = 2 * FIXED_PART_BYTES;

/** The current slab (replaced when full or when a frame outgrows it: read it after room()). */
export let buf = Buffer.allocUnsafe(SLAB_BYTES);
/** Where the next frame starts in buf; everything before it belongs to frames already taken. */
let next = 0;
/** Where the frame being written started. */
let frameStart = 0;

/** Starts a frame: its first write position, with FRAME_START_ROOM free after it. */
export function beginFrame(): number {
  if (next + FRAME_START_ROOM > buf.length) {
    buf = Buffer.allocUnsafe(SLAB_BYTES);
    next = 0;
  }
  frameStart = next;
  return next;
}

/** The frame from beginFrame() to `end`, as a view: the caller's own bytes. */
export function takeFrame(end: number): Buffer {
  const frame = buf.subarray(frameStart, end);
  // 8-byte aligned starts: a frame's bytes never share a word with the next one's.
  next = (end + 7) & ~7;
  return frame;
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

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

export function bytes(p: number, b: Buffer): number {
  room(p, b.length);
  buf.set(b, p);
  return p + b.length;
}

/**
 * Makes sure `n` more bytes fit after `p`, with the fixed-part margin to spare (a new slab if not, the frame so far
 * moved over).
 */
function room(p: number, n: number): void {
  const need = p + n + FIXED_PART_BYTES;
  if (need <= buf.length) return;
  // Same offsets in the new slab, so positions held by callers stay valid; the part before frameStart is unused.
  const bigger = Buffer.allocUnsafe(Math.max(need, SLAB_BYTES));
  buf.copy(bigger, frameStart, frameStart, p);
  buf = bigger;
}
