// Signatures seen inside the request window. The same signature presented
// twice is a replay. Signatures are kept by the 10-second span their
// timestamp falls in: a replay carries the very timestamp it was signed with
// (the signature covers it), so a check looks in one span, and a span is
// dropped whole once none of its timestamps can verify any longer. A hard
// cap bounds memory whatever the rate: past it, new signed requests wait
// (429) instead of memory growing.
import { decodeBase64 } from '../../keys/base64';

/**
 * ~53 bytes a signature, so ~160 MB at most. An entry lives the window plus
 * up to 10 s past its timestamp: enough for a sustained ~9,500 signed
 * requests a second from clients with good clocks, ~5,000 if every client
 * stamps its requests the full 5 minutes ahead.
 */
export const DEFAULT_REPLAY_CAPACITY = 3_000_000;
const SPAN_MS = 10_000;
/**
 * 128 bits of the signature's nonce point: different signatures never share them by chance, and only the key's holder
 * could make two that do.
 */
const ID_BYTES = 16;

export type ReplayCheck = 'first' | 'replay' | 'full';

/**
 * What the authenticator asks of replay protection: has this signature been
 * seen (and if not, remember it). ReplayCache answers from this process's
 * memory; a store shared by several processes (Postgres) answers from the
 * store, so a signature used on one process is a replay on every other.
 */
export interface ReplayGuard {
  check(key: string, timestamp: number, now: number): ReplayCheck | Promise<ReplayCheck>;
}

/**
 * The identity of a (verified) signature: its bytes, not its text, so
 * re-encoding it (padding dropped, spaces) is still the same signature; and
 * not its key id, because the signed message does not name the key: a
 * captured request re-sent under another id holding the same public key is
 * the same request again.
 */
export function replayKey(signature: string): string {
  const text = signature.trim();
  const bytes = decodeBase64(text);
  return bytes && bytes.length >= ID_BYTES
    ? Buffer.from(bytes.buffer, bytes.byteOffset, ID_BYTES).toString('latin1')
    : text;
}

export class ReplayCache implements ReplayGuard {
  private readonly spans = new Map<number, Set<string>>();
  private count = 0;
  private expireAt = 0;

  constructor(
    private readonly windowMs: number,
    private readonly capacity: number = DEFAULT_REPLAY_CAPACITY,
  ) {}

  get size(): number {
    return this.count;
  }

  /**
   * 'first' the first time a signature is seen within the window (it is then
   * remembered), 'replay' when it was seen before, 'full' when the cache holds
   * `capacity` live signatures (nothing is remembered; refuse the request).
   * `timestamp` is the one the signature covers.
   */
  check(key: string, timestamp: number, now: number): ReplayCheck {
    if (now >= this.expireAt) this.expire(now);
    const span = Math.floor(timestamp / SPAN_MS);
    let seen = this.spans.get(span);
    if (seen?.has(key)) return 'replay';
    if (this.count >= this.capacity) return 'full';
    if (!seen) this.spans.set(span, (seen = new Set()));
    seen.add(key);
    this.count++;
    return 'first';
  }

  /**
   * A signature verifies only while now <= timestamp + window: a span whose last millisecond is past that is forgotten.
   */
  private expire(now: number): void {
    this.expireAt = now + 1000;
    for (const [span, seen] of this.spans) {
      if ((span + 1) * SPAN_MS + this.windowMs <= now) {
        this.count -= seen.size;
        this.spans.delete(span);
      }
    }
  }
}
