// The engine's default answer per decision kind (docs/rules.md + docs/decisions.md).
// Always legal; played for late, malformed or illegal answers and resigned seats.

import { HEX_COUNT, VERTEX_COUNT, VERTEX_EDGES } from './board';
import { BANDIT, END_TURN, REJECT, discardOf } from './canon';
import { defaultDiscard } from './rules/discard';
import { distanceOk } from './rules/pieces';
import type { Game } from './state';
import type { AnyAction, DecisionKind, SetupAction } from './types';

/** Lowest legal vertex plus its lowest-id free edge. */
export function defaultSetup(g: Game): SetupAction {
  for (let v = 0; v < VERTEX_COUNT; v++) {
    if (!distanceOk(g, v)) continue;
    let road = -1;
    for (let i = v * 3; i < v * 3 + 3; i++) {
      const e = VERTEX_EDGES[i];
      if (e !== -1 && g.roadOwner[e] === -1 && (road === -1 || e < road)) road = e;
    }
    if (road !== -1) return { settlement: v, road };
  }
  throw new Error('no legal setup placement (cannot happen on this board)');
}

export function defaultAnswer(g: Game, seat: number, kind: DecisionKind): AnyAction {
  switch (kind) {
    case 'setup':
      return defaultSetup(g);
    case 'turn':
      return END_TURN;
    case 'discard': {
      const out = new Int16Array(5);
      defaultDiscard(g, seat, out);
      return discardOf(out);
    }
    case 'bandit': {
      for (let h = 0; h < HEX_COUNT; h++) if (h !== g.bandit) return BANDIT[h * 5];
      throw new Error('unreachable');
    }
    case 'trade':
      return REJECT;
  }
}
