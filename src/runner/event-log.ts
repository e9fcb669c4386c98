// Turns the engine's event log into replay MatchEvents: adds `seq` (0-based,
// consecutive) and `at`, and hands each one to the live listener as it happens.
import type { GameEvent } from '../../engine/types';
import type { MatchEvent } from '../protocol';

export class EventLog {
  readonly events: MatchEvent[] = [];
  private lastMs = -1;
  private lastAt = '';

  constructor(
    private readonly onEvent?: (event: MatchEvent) => void,
    /** After each flush that added events: the batch is complete and the game is in the state it describes. */
    private readonly onFlush?: () => void,
  ) {}

  /** Stamps and emits every engine event not seen yet (`all` is the engine's full log so far). */
  flush(all: readonly GameEvent[]): void {
    if (this.events.length === all.length) return;
    // Events of one engine step share a timestamp; steps in the same millisecond share the string.
    const now = Date.now();
    if (now !== this.lastMs) {
      this.lastMs = now;
      this.lastAt = new Date(now).toISOString();
    }
    const at = this.lastAt;
    for (let i = this.events.length; i < all.length; i++) {
      const e = all[i];
      // The engine's events are { kind, seat, data } or { kind, data } (engine/state.ts emit):
      // written out, not spread, so every event is one literal of a fixed shape (a spread after
      // other keys copies property by property). Same keys, same order as { seq, at, ...e }.
      const event = ('seat' in e ? { seq: i, at, kind: e.kind, seat: e.seat, data: e.data } : { seq: i, at, kind: e.kind, data: e.data }) as MatchEvent;
      this.events.push(event);
      this.onEvent?.(event);
    }
    this.onFlush?.();
  }
}
