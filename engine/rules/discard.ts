// Discards after a 7: every seat holding more than 7 cards owes exactly
// floor(hand / 2), chosen by itself; all owed discards are collected before
// any is applied.

import type { Game } from '../state';
import type { RejectionCode } from '../types';
import { DISCARD_ABOVE, handTotal } from '../state';

/** Marks the seats that owe a discard. Returns true when at least one does. */
export function assessDiscards(g: Game): boolean {
  let mask = 0;
  for (let s = 0; s < g.n; s++) {
    const t = handTotal(g, s);
    g.owed[s] = t > DISCARD_ABOVE ? t >> 1 : 0;
    if (t > DISCARD_ABOVE) mask |= 1 << s;
  }
  g.asked = mask;
  g.waiting = mask;
  g.bufDefault = 0;
  return mask !== 0;
}

/** cards: five counts. */
export function checkDiscard(g: Game, seat: number, cards: ArrayLike<number>): RejectionCode | null {
  let t = 0;
  for (let r = 0; r < 5; r++) {
    if (cards[r] > g.hand[seat * 5 + r]) return 'not_enough_cards';
    t += cards[r];
  }
  return t === g.owed[seat] ? null : 'wrong_discard_count';
}

/** The engine's default: drop one card at a time from the largest pile, ties brick, lumber, wool, grain, ore. */
const left = new Int16Array(5); // scratch, reused: no allocation per discard

export function defaultDiscard(g: Game, seat: number, out: Int16Array): void {
  for (let r = 0; r < 5; r++) {
    left[r] = g.hand[seat * 5 + r];
    out[r] = 0;
  }
  for (let k = 0; k < g.owed[seat]; k++) {
    let best = 0;
    for (let r = 1; r < 5; r++) if (left[r] > left[best]) best = r;
    left[best]--;
    out[best]++;
  }
}
