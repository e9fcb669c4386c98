// Placements: standard competition ranking ("1224"). The winner is 1st, the
// others follow by true VP; seats that resigned come after every seat that
// did not (among themselves by true VP).

import type { Game } from './state';
import { trueVp } from './state';
import type { Outcome } from './types';

export function placements(vp: readonly number[], winner: number, resigned: ArrayLike<number>): number[] {
  const key = (s: number): number => (resigned[s] ? 0 : 1 << 20) + (s === winner ? 1 << 10 : 0) + vp[s];
  return vp.map((_, s) => 1 + vp.filter((__, t) => key(t) > key(s)).length);
}

export function computeOutcome(g: Game, reason: 'win' | 'cap', winner: number): Outcome {
  const vp: number[] = [];
  for (let s = 0; s < g.n; s++) vp.push(trueVp(g, s));
  return {
    reason,
    winner: winner === -1 ? null : winner,
    placements: placements(vp, winner, g.resigned),
    vp,
    turns: g.turn,
  };
}
