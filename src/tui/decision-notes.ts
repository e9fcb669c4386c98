// The acting seat's decision behind a replay event: how long it took and the
// bot's own notes (DecisionResponse.debug), from the record's `decisions`.
import { visible } from '../text/visible';
import { decisionsAt as lookup } from '../protocol/decision-lookup';
import type { DecisionEntry } from '../protocol/match';
import type { Timeline } from './timeline';

/** The decisions behind event `index` made by its seat (src/protocol/decision-lookup.ts). */
export function decisionsAt(t: Timeline, index: number): DecisionEntry[] {
  return lookup(t.decisions, t.events as ReadonlyArray<{ seat?: number }>, index);
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
