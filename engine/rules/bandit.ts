// The bandit: moved by the roller after a 7 or by a knight. The victim, if
// named, must be an opponent with a town on the target hex; one random card
// (from the seed's 'steal' stream) changes hands, none if the victim has none.

import { RESOURCES } from '../board';
import { randInt } from '../rng';
import type { Game } from '../state';
import type { RejectionCode } from '../types';
import { emit, handTotal } from '../state';

export function hasTownOn(g: Game, seat: number, hex: number): boolean {
  return (g.hexTowns[hex] & (1 << seat)) !== 0;
}

/** victim -1 means none. */
export function checkBandit(g: Game, seat: number, hex: number, victim: number): RejectionCode | null {
  if (hex === g.bandit) return 'bandit_same_hex';
  if (victim !== -1 && (victim === seat || victim >= g.n || !hasTownOn(g, victim, hex))) return 'bad_victim';
  return null;
}

export function applyBandit(g: Game, seat: number, hex: number, victim: number): void {
  g.bandit = hex;
  let stole = -1;
  if (victim !== -1) {
    const total = handTotal(g, victim);
    if (total > 0) {
      let pick = randInt(g.stealRng, total);
      const o = victim * 5;
      for (let r = 0; r < 5; r++) {
        if (pick < g.hand[o + r]) {
          stole = r;
          break;
        }
        pick -= g.hand[o + r];
      }
      g.hand[o + stole]--;
      g.hand[seat * 5 + stole]++;
    }
  }
  if (g.log) {
    emit(g, 'bandit', seat, victim === -1 ? { hex } : { hex, victim, stole: stole === -1 ? null : RESOURCES[stole] });
  }
}
