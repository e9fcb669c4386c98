// `arena replay --json`: the verified outcome and the state at one moment,
// for scripts.
import type { Frame, Timeline } from './timeline';

export interface ReplaySummary {
  match: string;
  status: Timeline['status'];
  /** Always true: a record that does not verify never gets this far. */
  verified: true;
  seats: Array<{ seat: number; name: string }>;
  events: number;
  turns: number;
  outcome: Timeline['outcome'];
  /** `event` is 1-based, as the viewer's header counts. */
  at: { event: number; turn: number; kind: string; state: Frame };
}

export function replaySummary(t: Timeline, index: number): ReplaySummary {
  return {
    match: t.matchId,
    status: t.status,
    verified: true,
    seats: t.names.map((name, seat) => ({ seat, name })),
    events: t.events.length,
    turns: t.lastTurn,
    outcome: t.outcome,
    at: { event: index + 1, turn: t.turnOf[index], kind: t.events[index].kind, state: t.frames[index] },
  };
}
