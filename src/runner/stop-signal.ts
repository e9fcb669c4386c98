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
  private readonly fire: (reason: StopReason) => void;
  /** When the wall clock runs out (performance.now() time). */
  private endsAt: number;

  constructor(wallClockMs: number, signal?: AbortSignal) {
    this.fire = (reason: StopReason) => {
      if (this.reason) return;
      this.reason = reason;
      this.onStop?.();
    };
    this.endsAt = performance.now() + wallClockMs;
    this.timer = setTimeout(() => this.fire('wall-clock'), wallClockMs);
    this.detach = signal ? onAbort(signal, () => this.fire('signal')) : () => {};
  }

  /** Moves the wall clock's end later by `ms`: time the arena itself spent waiting (pacing) is not the match's. */
  extend(ms: number): void {
    if (this.reason || ms <= 0) return;
    this.endsAt += ms;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire('wall-clock'), Math.max(0, this.endsAt - performance.now()));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.detach();
  }
}

/**
 * Matches that share one signal (a tournament's) share one 'abort' listener on
 * it, which calls each of theirs: a listener per match would pass Node's limit
 * of 10 per EventTarget at `--concurrency` 11 and print MaxListenersExceededWarning.
 */
const sharedListeners = new WeakMap<AbortSignal, { callbacks: Set<() => void>; listener: () => void }>();

/** Calls `fn` once when `signal` aborts (at once if it already has); returns the detach function. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return () => {};
  }
  let entry = sharedListeners.get(signal);
  if (!entry) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      sharedListeners.delete(signal);
      for (const cb of [...callbacks]) cb();
    };
    entry = { callbacks, listener };
    sharedListeners.set(signal, entry);
    signal.addEventListener('abort', listener, { once: true });
  }
  const { callbacks, listener } = entry;
  // A function may be added twice; each registration is its own.
  const own = () => fn();
  callbacks.add(own);
  return () => {
    if (!callbacks.delete(own) || callbacks.size > 0) return;
    if (sharedListeners.get(signal)?.callbacks === callbacks) sharedListeners.delete(signal);
    signal.removeEventListener('abort', listener);
  };
}
