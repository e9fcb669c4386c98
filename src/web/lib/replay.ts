// A finished match, stepped in the browser by the engine itself: its seed is
// public once the match is over, so stepReplay re-creates every state and
// publicView renders it. Nothing is re-derived here.
//
// Building a public view at every one of a thousand-odd events costs far more
// than stepping the game, so views are made on demand, a window at a time:
// the first pass steps the whole record (verifying it and noting each event's
// turn) and keeps the views around the event the page opens at; moving
// elsewhere steps again from the seed and keeps the window there. Playing
// forward hits the window already made.
import { publicView, stepReplay } from '../../../engine/index';
import type { Game, PublicView, RecordedEvent } from '../../../engine/index';

/** Views kept around an index on each pass (fewer on the first, so the page opens sooner). */
const WINDOW_BEFORE = 40;
const WINDOW_AFTER = 160;
const FIRST_BEFORE = 2;
const FIRST_AFTER = 24;

class StopStepping extends Error {}

export class ReplayCursor {
  /** turns[i] = the turn number at event i (0 during setup). */
  readonly turns: number[];
  /** Set when the engine does not reproduce the record. */
  readonly error: string | null;
  readonly count: number;
  private readonly views = new Map<number, PublicView>();
  /** The last event any pass reached: a record that stops verifying has no states after it. */
  private reached = 0;

  constructor(
    private readonly seed: string,
    private readonly seatCount: 3 | 4,
    private readonly events: readonly RecordedEvent[],
    openAt: number = events.length - 1,
  ) {
    this.count = events.length;
    const turns = new Array<number>(events.length).fill(0);
    this.error = this.pass(
      Math.max(0, openAt - FIRST_BEFORE),
      Math.min(events.length - 1, openAt + FIRST_AFTER),
      turns,
    );
    // A record that stops verifying before the window: keep the states up to where it stopped instead.
    if (this.views.size === 0) this.pass(Math.max(0, this.reached - WINDOW_BEFORE - WINDOW_AFTER), this.reached);
    // Events after a failed verification have no state; they keep the last turn seen.
    for (let i = 1; i < turns.length; i++) if (turns[i] < turns[i - 1]) turns[i] = turns[i - 1];
    this.turns = turns;
  }

  /** The public state as event i was recorded (an input's last event: after it applied). */
  view(i: number): PublicView {
    const at = Math.max(0, Math.min(this.count - 1, i));
    const v = this.views.get(at);
    if (v) return v;
    if (at > this.reached) return this.nearest(at);
    this.pass(Math.max(0, at - WINDOW_BEFORE), Math.min(this.count - 1, at + WINDOW_AFTER));
    return this.views.get(at) ?? this.nearest(at);
  }

  /**
   * One stepping of the record from the seed, keeping the views of [from, to]; returns the verification error, if any.
   */
  private pass(from: number, to: number, turns?: number[]): string | null {
    const keep = (i: number, g: Game) => {
      if (i > this.reached) this.reached = i;
      if (i >= from && i <= to) this.views.set(i, publicView(g));
    };
    try {
      const result = stepReplay(
        this.seed,
        this.seatCount,
        this.events,
        (g, last) => {
          // After an input's last event: bookkeeping such as a stage change shows only now.
          if (turns && last >= 0) turns[last] = g.turn;
          keep(last, g);
          if (!turns && last >= to) throw new StopStepping();
        },
        (g, i) => {
          if (turns) turns[i] = g.turn;
          // The start comes before any hook; the first action is appended before it applies, so its state is the
          // start's.
          if (i === 1) keep(0, g);
          keep(i, g);
        },
      );
      return result.ok ? null : `event ${result.index}: ${result.message}`;
    } catch (err) {
      if (err instanceof StopStepping) return null;
      throw err;
    }
  }

  /** A view for an index no pass reached (a record that stops verifying): the closest one made. */
  private nearest(i: number): PublicView {
    for (let d = 1; d < this.count; d++) {
      const v = this.views.get(i - d) ?? this.views.get(i + d);
      if (v) return v;
    }
    throw new Error('this replay has no state to show');
  }
}

/** The first event index at or after the start of turn `turn` (or the last event). */
export function eventOfTurn(turns: readonly number[], turn: number): number {
  const i = turns.findIndex((t) => t >= turn);
  return i === -1 ? turns.length - 1 : i;
}
