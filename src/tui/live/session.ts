// One match followed live: the stream (src/client/live.ts) folded into a
// LiveState that the Ink app and --plain read. Listeners hear every change.
// Paced (eventsPerSecond), a match that runs faster than anyone can read is
// shown at that rate: messages wait in order in a queue (views and the end
// with the events they follow), state.behind counts the events waiting, and
// jumpToLive() shows them all at once.
import type { FollowLive, FollowLiveOptions, LiveConnection, LiveEnd, LiveMessage } from '../../protocol/live';
import { applyConnection, applyLiveMessage, initialLiveState, type LiveState } from './state';

export interface LiveSessionOptions extends Omit<FollowLiveOptions, 'onMessage' | 'onConnection' | 'signal'> {
  /** Every message as it arrives, after the state has taken it (--plain prints from here). */
  onMessage?: (msg: LiveMessage, state: LiveState) => void;
  onConnection?: (c: LiveConnection, state: LiveState) => void;
  /** The stream client (src/client/live.ts followLive), injected so the TUI stays below the client layer. */
  follow: FollowLive;
  /** Show at most this many events a second, queueing the rest (`arena watch --speed`); 0 or absent: as they come. */
  eventsPerSecond?: number;
}

export class LiveSession {
  state: LiveState;
  /** Set when following failed for good (the stream is not coming back). */
  error: Error | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly controller = new AbortController();
  /** Pacing: messages not shown yet, in stream order, and when the next event may be shown. */
  private readonly queue: LiveMessage[] = [];
  private queuedEvents = 0;
  private nextAt = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: LiveSessionOptions) {
    this.state = initialLiveState(opts.matchId);
  }

  private get intervalMs(): number {
    const eps = this.opts.eventsPerSecond ?? 0;
    return eps > 0 ? 1000 / eps : 0;
  }

  /** Follows until `end` (resolves with it), a fatal error (rejects), or stop() (resolves null). */
  async run(): Promise<LiveEnd | null> {
    try {
      const { follow, eventsPerSecond: _pace, ...rest } = this.opts;
      return await follow({
        ...rest,
        signal: this.controller.signal,
        onMessage: (msg) => {
          this.queue.push(msg);
          if (msg.type === 'event') this.queuedEvents++;
          this.drain();
        },
        onConnection: (c) => {
          this.set(applyConnection(this.state, c));
          this.opts.onConnection?.(c, this.state);
        },
      });
    } catch (err) {
      if (this.controller.signal.aborted) return null;
      this.error = err as Error;
      this.notify();
      throw err;
    }
  }

  stop(): void {
    this.controller.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Shows every waiting message now: the view catches up with the match. */
  jumpToLive(): void {
    if (this.queue.length === 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.nextAt = 0;
    this.drain(true);
  }

  /**
   * Shows queued messages in order: an event only once the last one has had its
   * interval (all of them when `all`), anything else as soon as it is reached.
   */
  private drain(all = false): void {
    const interval = this.intervalMs;
    let changed = false;
    while (this.queue.length > 0) {
      const msg = this.queue[0];
      if (msg.type === 'event' && interval > 0 && !all) {
        const now = performance.now();
        if (now < this.nextAt) {
          this.timer ??= setTimeout(
            () => {
              this.timer = null;
              this.drain();
            },
            Math.ceil(this.nextAt - now),
          );
          break;
        }
        this.nextAt = now + interval;
      }
      this.queue.shift();
      if (msg.type === 'event') this.queuedEvents--;
      this.state = applyLiveMessage(this.state, msg);
      changed = true;
      this.opts.onMessage?.(msg, this.state);
    }
    const behind = this.queuedEvents;
    if (behind !== this.state.behind) this.set({ ...this.state, behind });
    else if (changed) this.notify();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private set(next: LiveState): void {
    this.state = next;
    this.notify();
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }
}
