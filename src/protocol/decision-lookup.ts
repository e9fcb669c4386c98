// Which recorded decision an event of a replay belongs to (MatchRecord.decisions):
// shared by the terminal replay (src/tui) and the web replay (src/web).
import type { DecisionEntry } from './match-header-types';

/**
 * The decisions of the event's own seat whose answer led to the events around
 * `index`: the entries with the largest seq at or before `index` (entries are
 * in seq order). Empty without decisions or when the event has no seat.
 */
export function decisionsAt(
  decisions: readonly DecisionEntry[] | undefined,
  events: ReadonlyArray<{ seat?: number }>,
  index: number,
): DecisionEntry[] {
  const ev = events[index];
  if (!decisions || decisions.length === 0 || !ev || typeof ev.seat !== 'number') return [];
  let lo = 0;
  let hi = decisions.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (decisions[mid].seq <= index) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (last === -1) return [];
  const seq = decisions[last].seq;
  const out: DecisionEntry[] = [];
  for (let i = last; i >= 0 && decisions[i].seq === seq; i--)
    if (decisions[i].seat === ev.seat) out.unshift(decisions[i]);
  return out;
}
