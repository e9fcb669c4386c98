// Signatures seen inside the request window. The same signature presented
// twice is a replay; entries expire with the window, so the set stays bounded
// by the request rate times the window.
export class ReplayCache {
  private readonly seen = new Map<string, number>();
  private sweepAt = 0;

  constructor(private readonly windowMs: number) {}

  /** True the first time a signature is seen (within the window); false for a replay. */
  firstUse(signature: string, timestamp: number, now: number): boolean {
    if (now >= this.sweepAt) {
      this.sweepAt = now + 10_000;
      for (const [s, ts] of this.seen) if (Math.abs(now - ts) > this.windowMs) this.seen.delete(s);
    }
    if (this.seen.has(signature)) return false;
    this.seen.set(signature, timestamp);
    return true;
  }
}
