// How many live streams one client address may hold open at once. The rate
// limit bounds how fast streams open, not how many stay open (one lasts as
// long as its match, up to the match timeout): without this, one address
// could gather thousands of idle streams, each with its socket and backlog.

/** Open live streams per client address: far above a person's tabs, far below a flood. */
export const MAX_LIVE_STREAMS_PER_ADDRESS = 32;

export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number = MAX_LIVE_STREAMS_PER_ADDRESS) {}

  /** Takes a slot for `address`; false (nothing taken) when it holds `max` already. */
  take(address: string): boolean {
    const n = this.open.get(address) ?? 0;
    if (n >= this.max) return false;
    this.open.set(address, n + 1);
    return true;
  }

  /** Gives back a slot taken for `address` (once per take). */
  release(address: string): void {
    const n = (this.open.get(address) ?? 0) - 1;
    if (n > 0) this.open.set(address, n);
    else this.open.delete(address);
  }
}
