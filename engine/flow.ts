// Turn flow: the automatic roll, end of turn, the win check and the end of
// the game.

import { computeOutcome } from './outcome';
import { assessDiscards } from './rules/discard';
import { produce, rollDice } from './rules/roll';
import type { Game } from './state';
import { MAX_TURNS, STAGE_BANDIT, STAGE_DISCARD, STAGE_OVER, STAGE_TURN, WIN_VP, emit, trueVp } from './state';

/** Starts the current seat's turn: roll, produce or handle a 7, then check for a win. */
export function startTurn(g: Game): void {
  g.devPlayed = false;
  g.offers = 0;
  const sum = rollDice(g);
  produce(g, sum); // emits the roll; a 7 produces nothing
  if (sum === 7) g.stage = assessDiscards(g) ? STAGE_DISCARD : STAGE_BANDIT;
  else g.stage = STAGE_TURN;
  g.pendingCache = null;
  checkWin(g);
}

/** Ends the current turn: this turn's dev cards become playable, then the next turn starts or the cap ends the game. */
export function endTurn(g: Game): void {
  const o = g.current * 5;
  for (let c = 0; c < 5; c++) {
    g.devOld[o + c] += g.devNew[o + c];
    g.devNew[o + c] = 0;
  }
  if (g.turn >= MAX_TURNS) {
    finish(g, 'cap', -1);
    return;
  }
  g.turn++;
  g.current = (g.current + 1) % g.n;
  startTurn(g);
}

/** A seat wins with 10+ true VP on its own turn. A resigned seat cannot win. */
export function checkWin(g: Game): void {
  if (g.stage === STAGE_OVER || g.resigned[g.current]) return;
  if (trueVp(g, g.current) >= WIN_VP) finish(g, 'win', g.current);
}

export function finish(g: Game, reason: 'win' | 'cap', winner: number): void {
  g.stage = STAGE_OVER;
  g.winner = winner;
  g.endReason = reason;
  g.outcome = computeOutcome(g, reason, winner);
  g.pendingCache = null;
  if (g.log) {
    const o = g.outcome;
    emit(g, 'end', undefined, {
      reason,
      winner: o.winner,
      placements: o.placements.slice(),
      vp: o.vp.slice(),
      turns: o.turns,
    });
  }
}
