// Drives a game through whole turns in tests: every owed decision gets the engine's default.

import { defaultAction, pendingDecisions, submit } from '../../engine/game';
import type { Game } from '../../engine/state';

/** Ends the current seat's turn and answers defaults until that seat's next turn decision (or the end). */
export function roundTrip(g: Game): void {
  const seat = g.current;
  submitOk(g, seat, { type: 'end_turn' });
  for (let guard = 0; guard < 10_000; guard++) {
    const p = pendingDecisions(g);
    if (p.length === 0) return;
    if (p.length === 1 && p[0].kind === 'turn' && p[0].seat === seat) return;
    for (const d of p) submitOk(g, d.seat, defaultAction(g, d.seat));
  }
  throw new Error('roundTrip: the turn never came back');
}

export function submitOk(g: Game, seat: number, answer: unknown): void {
  const r = submit(g, seat, answer);
  if (!r.ok) throw new Error(`${r.reason.code}: ${r.reason.message}`);
}
