// A finished match, stepped in the browser by the engine itself: its seed is
// public once the match is over, so stepReplay re-creates every state and
// publicView renders each one. Nothing is re-derived here.
import { publicView, stepReplay } from '../../../engine/index';
import type { PublicView, RecordedEvent } from '../../../engine/index';

export interface ReplayFrames {
  /** views[i] = the public state as event i was recorded (an input's last event: after it applied). */
  views: PublicView[];
  /** turn[i] = the turn number at event i (0 during setup). */
  turns: number[];
  /** Set when the engine does not reproduce the record. */
  error: string | null;
}

export function replayFrames(seed: string, seatCount: 3 | 4, events: readonly RecordedEvent[]): ReplayFrames {
  const views: Array<PublicView | undefined> = new Array(events.length);
  const result = stepReplay(
    seed,
    seatCount,
    events,
    (g, last) => {
      // After an input's last event: bookkeeping such as a stage change is visible only now.
      if (last >= 0 && last < views.length) views[last] = publicView(g);
    },
    (g, i) => {
      if (i < views.length) views[i] = publicView(g);
    },
  );
  // The start event comes before any hook: it shows the state of the first later event.
  const firstSeen = views.find((v) => v !== undefined);
  const filled = Array.from(views, (v) => v ?? firstSeen) as PublicView[];
  return {
    views: filled,
    turns: filled.map((v) => v?.turn ?? 0),
    error: result.ok ? null : `event ${result.index}: ${result.message}`,
  };
}

/** The first event index at or after the start of turn `turn` (or the last event). */
export function eventOfTurn(turns: readonly number[], turn: number): number {
  const i = turns.findIndex((t) => t >= turn);
  return i === -1 ? turns.length - 1 : i;
}
