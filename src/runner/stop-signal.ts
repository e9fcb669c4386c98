// Says when the match must stop: the wall clock ran out or the caller aborted.
// The decision loop hangs its current wait on `onStop` (one slot, replaced
// every round, so a long match does not pile up listeners).
export type StopReason = 'wall-clock' | 'signal';

export class StopSignal {
  reason: StopReason | null = null;
  /** Called once when the stop fires (the loop sets it while it waits). */
  onStop: (() => void) | null = null;
  private timer: NodeJS.Timeout;
  private readonly detach: () => void;

  constructor(wallClockMs: number, signal?: AbortSignal) {
    const fire = (reason: StopReason) => {
      if (this.reason) return;
      this.reason = reason;
      this.onStop?.();
    };
    this.timer = setTimeout(() => fire('wall-clock'), wallClockMs);
    const onAbort = () => fire('signal');
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.detach = () => signal?.removeEventListener('abort', onAbort);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.detach();
  }
}
