// Turns the engine's event log into replay MatchEvents: adds `seq` (0-based,
// consecutive) and `at`, and hands each one to the live listener as it happens.
// During the match only the stamps are kept (one per flush in a new
// millisecond); the replay's MatchEvents are built once, at the end, from the
// engine's log. Kept for the whole match, a wrapper per event would be copied
// by young-generation GCs until promoted, and GC is the largest part of what
// the runner adds to a bare socket.
import type { GameEvent } from '../../engine/index';
import type { MatchEvent } from '../protocol';

export class EventLog {
  /** Engine events stamped so far. */
  private count = 0;
  /** The engine's log (the same array for the whole game, appended to). */
  private log: readonly GameEvent[] = [];
  /** Events from stampFrom[i] on (up to stampFrom[i + 1]) happened at stampAt[i]. */
  private readonly stampFrom: number[] = [];
  private readonly stampAt: string[] = [];
  private lastMs = -1;

  constructor(
    private readonly onEvent?: (event: MatchEvent) => void,
    /** After each flush that added events: the batch is complete and the game is in the state it describes. */
    private readonly onFlush?: () => void,
  ) {}

  /** Stamps and emits every engine event not seen yet (`all` is the engine's full log so far). */
  flush(all: readonly GameEvent[]): void {
    if (this.count === all.length) return;
    this.log = all;
    // Events of one engine step share a timestamp; steps in the same millisecond share the string.
    const now = Date.now();
    if (now !== this.lastMs) {
      this.lastMs = now;
      this.stampFrom.push(this.count);
      this.stampAt.push(new Date(now).toISOString());
    }
    const from = this.count;
    this.count = all.length;
    const onEvent = this.onEvent;
    if (onEvent) {
      const at = this.stampAt[this.stampAt.length - 1];
      for (let i = from; i < all.length; i++) onEvent(matchEvent(all[i], i, at));
    }
    this.onFlush?.();
  }

  /** The replay so far: every stamped event, in order (fresh objects, equal to those the listener got). */
  events(): MatchEvent[] {
    const out: MatchEvent[] = [];
    for (let s = 0; s < this.stampFrom.length; s++) {
      const end = s + 1 < this.stampFrom.length ? this.stampFrom[s + 1] : this.count;
      const at = this.stampAt[s];
      for (let i = this.stampFrom[s]; i < end; i++) out.push(matchEvent(this.log[i], i, at));
    }
    return out;
  }
}

/**
 * The engine's events are { kind, seat, data } or { kind, data } (engine/state.ts emit):
 * written out, not spread, so every event is one literal of a fixed shape (a spread after
 * other keys copies property by property). Same keys, same order as { seq, at, ...e }.
 */
function matchEvent(e: GameEvent, seq: number, at: string): MatchEvent {
  return (
    'seat' in e ? { seq, at, kind: e.kind, seat: e.seat, data: e.data } : { seq, at, kind: e.kind, data: e.data }
  ) as MatchEvent;
}
