// The acting seat's decision behind a replay event: how long it took and the
// bot's own notes (DecisionResponse.debug), from the record's `decisions`.
import { visible } from '../term/visible';
import type { DecisionEntry } from '../protocol/match';
import type { Timeline } from './timeline';

/**
 * The decisions whose answer led to the events around `index` and were made
 * by the event's seat: the entries with the largest seq at or before `index`.
 * Empty when the record has no decisions or the event has no seat.
 */
export function decisionsAt(t: Timeline, index: number): DecisionEntry[] {
  const all = t.decisions;
  const ev = t.events[index];
  if (!all || all.length === 0 || !ev || !('seat' in ev) || typeof ev.seat !== 'number') return [];
  // Binary search: the last entry with seq <= index (entries are in seq order).
  let lo = 0;
  let hi = all.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid].seq <= index) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (last === -1) return [];
  const seq = all[last].seq;
  const out: DecisionEntry[] = [];
  for (let i = last; i >= 0 && all[i].seq === seq; i--) if (all[i].seat === ev.seat) out.unshift(all[i]);
  return out;
}

/** A note as one line of text: a string as sent, an object as its JSON; control characters escaped. */
export function noteText(d: DecisionEntry): string | null {
  if (d.debug === undefined) return null;
  const text = typeof d.debug === 'string' ? d.debug : JSON.stringify(d.debug);
  return visible(text) + (d.debugTruncated ? ' …(cut at 2048 bytes)' : '');
}

/** `seat 2 · turn · 14 ms`: the decision, without its note. */
export function decisionLabel(d: DecisionEntry): string {
  return `seat ${d.seat} · ${d.kind} · ${d.ms} ms`;
}
