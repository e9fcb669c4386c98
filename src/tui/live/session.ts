// One match followed live: the stream (src/client/live.ts) folded into a
// LiveState that the Ink app and --plain read. Listeners hear every change.
import type { FollowLive, FollowLiveOptions, LiveConnection, LiveEnd, LiveMessage } from '../../protocol/live';
import { applyConnection, applyLiveMessage, initialLiveState, type LiveState } from './state';

export interface LiveSessionOptions extends Omit<FollowLiveOptions, 'onMessage' | 'onConnection' | 'signal'> {
  /** Every message as it arrives, after the state has taken it (--plain prints from here). */
  onMessage?: (msg: LiveMessage, state: LiveState) => void;
  onConnection?: (c: LiveConnection, state: LiveState) => void;
  /** The stream client (src/client/live.ts followLive), injected so the TUI stays below the client layer. */
  follow: FollowLive;
}

export class LiveSession {
  state: LiveState;
  /** Set when following failed for good (the stream is not coming back). */
  error: Error | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly controller = new AbortController();

  constructor(private readonly opts: LiveSessionOptions) {
    this.state = initialLiveState(opts.matchId);
  }

  /** Follows until `end` (resolves with it), a fatal error (rejects), or stop() (resolves null). */
  async run(): Promise<LiveEnd | null> {
    try {
      const { follow, ...rest } = this.opts;
      return await follow({
        ...rest,
        signal: this.controller.signal,
        onMessage: (msg) => {
          this.set(applyLiveMessage(this.state, msg));
          this.opts.onMessage?.(msg, this.state);
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
