// The automatic roll at the start of a turn and production: each hex with
// the rolled token pays 1 per adjacent settlement and 2 per city, except
// under the bandit. The bank is infinite.

import { HEX_VERTICES } from '../board';
import { randInt } from '../rng';
import type { Game } from '../state';
import { emit, toCounts } from '../state';

const produced = new Int16Array(4 * 5);

/** Rolls 2d6 from the seed's dice stream. Returns the sum. */
export function rollDice(g: Game): number {
  g.die1 = randInt(g.diceRng, 6) + 1;
  g.die2 = randInt(g.diceRng, 6) + 1;
  return g.die1 + g.die2;
}

export function produce(g: Game, sum: number): void {
  if (g.log) produced.fill(0);
  for (let k = 0; k < 2; k++) {
    const h = g.tokenHexes[sum * 2 + k];
    if (h === -1 || h === g.bandit) continue;
    const r = g.hexRes[h];
    for (let c = 0; c < 6; c++) {
      const v = HEX_VERTICES[h * 6 + c];
      const owner = g.townOwner[v];
      if (owner === -1) continue;
      const amount = g.isCity[v] ? 2 : 1;
      g.hand[owner * 5 + r] += amount;
      if (g.log) produced[owner * 5 + r] += amount;
    }
  }
  if (g.log) {
    const per = [];
    for (let s = 0; s < g.n; s++) per.push(toCounts(produced, s * 5));
    emit(g, 'roll', g.current, { dice: [g.die1, g.die2], produced: per });
  }
}
