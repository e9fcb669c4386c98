// Token buckets: each key (or, for unauthenticated routes, each client address)
// may burst to `burst` requests and then `perSecond`. Buckets idle long enough
// to be full again are dropped, so memory stays bounded by active callers.

export interface RateLimit {
  perSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private sweepAt = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when allowed (a token is spent), else the seconds until one is available. */
  take(key: string): number {
    const b = this.refill(key);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return this.secondsTo(b);
  }

  /** Gives back a token taken for a request that then did nothing (never above the burst). */
  refund(key: string): void {
    const b = this.buckets.get(key);
    if (b) b.tokens = Math.min(this.limit.burst, b.tokens + 1);
  }

  /** 0 when `key` has a token now (none is spent), else the seconds until it has one. */
  wait(key: string): number {
    const now = this.now();
    const b = this.buckets.get(key);
    if (!b) return 0;
    const tokens = Math.min(this.limit.burst, b.tokens + ((now - b.at) / 1000) * this.limit.perSecond);
    return tokens >= 1 ? 0 : this.secondsTo({ tokens, at: now });
  }

  private refill(key: string): Bucket {
    const now = this.now();
    this.sweep(now);
    const b = this.buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    b.tokens = Math.min(this.limit.burst, b.tokens + ((now - b.at) / 1000) * this.limit.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    return b;
  }

  private secondsTo(b: Bucket): number {
    return Math.max(1, Math.ceil((1 - b.tokens) / this.limit.perSecond));
  }

  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    const full = (this.limit.burst / this.limit.perSecond) * 1000;
    for (const [k, b] of this.buckets) if (now - b.at > full) this.buckets.delete(k);
  }
}
