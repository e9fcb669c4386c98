// Real game positions for the conformance check: play seeded engine games
// with built-in random moves until a decision of the wanted kind is pending,
// and hand back that game and seat. The bot is then asked exactly what a
// real match would ask it.
import { createBuiltinBot, legalActions, newGame, pendingDecisions, submit, type Game } from '../../engine/index';
import type { DecisionKind, TurnAction } from '../../engine/index';

export interface Position {
  game: Game;
  seat: number;
  kind: DecisionKind;
  seed: string;
}

const MAX_STEPS_PER_GAME = 5000;

/** Finds a position where `kind` is pending; null if none turns up in `attempts` games. */
export function findPosition(kind: DecisionKind, seed: string, attempts = 20): Position | null {
  for (let a = 0; a < attempts; a++) {
    const gameSeed = `${seed}/${kind}/${a}`;
    const game = newGame(gameSeed, 4, { events: false });
    const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('random', `${gameSeed}/bot${s}`));
    for (let step = 0; step < MAX_STEPS_PER_GAME; step++) {
      const pending = pendingDecisions(game);
      if (pending.length === 0) break;
      const hit = pending.find((p) => p.kind === kind);
      // After setup, so the view has something in it.
      if (hit && (kind === 'setup' ? step >= 2 : true)) return { game, seat: hit.seat, kind, seed: gameSeed };
      if (kind === 'trade' && pending.length === 1 && pending[0].kind === 'turn') {
        // Random play rarely offers; make an open offer when one is legal.
        const offer = (legalActions(game, pending[0].seat) as TurnAction[]).find(
          (x) => x.type === 'offer_trade' && x.to === undefined,
        );
        if (offer && submit(game, pending[0].seat, offer).ok) continue;
      }
      for (const p of pending) {
        const answer = bots[p.seat].decide(game, p.seat);
        const r = submit(game, p.seat, answer);
        if (!r.ok) throw new Error(`built-in random bot made an illegal ${p.kind} move: ${r.reason.message}`);
      }
    }
  }
  return null;
}
