// Signatures seen inside the request window. The same signature presented
// twice is a replay; entries expire with the window, so the set stays bounded
// by the request rate times the window, and a hard cap bounds it whatever
// the rate: past it, new signed requests wait (429) instead of memory growing.
import { decodeBase64 } from '../../keys/base64';

/** Enough for ~1,600 signed requests a second for the 10 minutes an entry can live; ~200 MB at worst. */
export const DEFAULT_REPLAY_CAPACITY = 1_000_000;

export type ReplayCheck = 'first' | 'replay' | 'full';

/**
 * The identity of a signature: the key and the signature's bytes, not its
 * text, so re-encoding it (padding dropped) is still the same signature.
 */
export function replayKey(keyId: string, signature: string): string {
  const bytes = decodeBase64(signature.trim());
  return `${keyId}:${bytes ? Buffer.from(bytes).toString('base64') : signature}`;
}

export class ReplayCache {
  private readonly seen = new Map<string, number>();
  private sweepAt = 0;

  constructor(
    private readonly windowMs: number,
    private readonly capacity: number = DEFAULT_REPLAY_CAPACITY,
  ) {}

  get size(): number {
    return this.seen.size;
  }

  /**
   * 'first' the first time a signature is seen within the window (it is then
   * remembered), 'replay' when it was seen before, 'full' when the cache holds
   * `capacity` live signatures (nothing is remembered; refuse the request).
   */
  check(key: string, timestamp: number, now: number): ReplayCheck {
    if (now >= this.sweepAt) this.sweep(now);
    if (this.seen.has(key)) return 'replay';
    // No extra sweep here: a full cache must not make every request walk it.
    if (this.seen.size >= this.capacity) return 'full';
    this.seen.set(key, timestamp);
    return 'first';
  }

  /** A signature is accepted only while |now - timestamp| <= window, so after that it need not be remembered. */
  private sweep(now: number): void {
    this.sweepAt = now + 10_000;
    for (const [s, ts] of this.seen) if (Math.abs(now - ts) > this.windowMs) this.seen.delete(s);
  }
}
