// Bad input from a bot never throws and never changes anything; the legal
// generator lists exactly the legal answers among every simple candidate.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBuiltinBot } from '../../engine/bots/index';
import {
  BANDIT,
  BANK_TRADE,
  BUILD_CITY,
  BUILD_ROAD,
  BUILD_SETTLEMENT,
  BUY_DEV,
  EMBARGO,
  END_TURN,
  KNIGHT,
  SETUP,
  WINDFALL,
} from '../../engine/canon';
import { cloneGame, isOver, newGame, pendingDecisions, submit } from '../../engine/game';
import { legalActions } from '../../engine/legal';
import type { Game } from '../../engine/state';
import type { AnyAction } from '../../engine/types';
import { snapshot } from './helpers';

/** Random games, stopping at sampled states. */
function* sampledStates(games: number, every: number): Generator<Game> {
  for (let i = 0; i < games; i++) {
    const g = newGame(`sample${i}`, i % 2 ? 4 : 3, { events: false });
    const bots = Array.from({ length: g.n }, (_, s) => createBuiltinBot('random', `sample${i}/${s}`));
    let step = 0;
    while (!isOver(g)) {
      if (step++ % every === 0) yield g;
      for (const d of pendingDecisions(g)) submit(g, d.seat, bots[d.seat].decide(g, d.seat));
    }
  }
}

describe('hostile answers', () => {
  it('never throw, and a rejected answer changes nothing', () => {
    const states: Game[] = [];
    for (const g of sampledStates(2, 400)) states.push(cloneGame(g)); // copy now: the generator keeps playing g
    const answer = fc.oneof(
      fc.anything(),
      fc.record(
        {
          type: fc.constantFrom('build_road', 'play_knight', 'offer_trade', 'play_windfall', 'end_turn'),
          edge: fc.anything(),
          hex: fc.integer(),
          give: fc.anything(),
          take: fc.dictionary(fc.string(), fc.integer()),
        },
        { requiredKeys: ['type'] },
      ),
      fc.record({ settlement: fc.integer({ min: -2, max: 60 }), road: fc.integer({ min: -2, max: 80 }) }),
      fc.record({ cards: fc.dictionary(fc.constantFrom('brick', 'ore', 'gold'), fc.oneof(fc.integer(), fc.double())) }),
      fc.record({ accept: fc.anything(), talk: fc.string({ maxLength: 300 }) }),
    );
    fc.assert(
      fc.property(fc.nat(states.length - 1), fc.nat(3), answer, (k, seat, a) => {
        const g = states[k];
        if (seat >= g.n) return;
        const before = snapshot(g);
        const r = submit(cloneGame(g), seat, a);
        if (!r.ok) {
          expect(typeof r.reason.code).toBe('string');
          expect(r.reason.message.length).toBeGreaterThan(0);
        }
        expect(snapshot(g)).toBe(before); // the original was never touched
        const onReal = submit(g, seat, a);
        if (!onReal.ok) expect(snapshot(g)).toBe(before);
        else states[k] = cloneGame(g);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('legal generator completeness', () => {
  const candidates = (kind: string): readonly AnyAction[] => {
    switch (kind) {
      case 'setup':
        return SETUP.filter((a): a is NonNullable<typeof a> => a !== null);
      case 'bandit':
        return BANDIT;
      case 'turn':
        return [
          END_TURN,
          BUY_DEV,
          ...BUILD_ROAD,
          ...BUILD_SETTLEMENT,
          ...BUILD_CITY,
          ...BANK_TRADE,
          ...KNIGHT,
          ...EMBARGO,
          ...WINDFALL.filter((_, i) => Math.floor(i / 5) <= i % 5),
        ];
      default:
        return [];
    }
  };

  it('lists exactly the accepted answers among all builds, bank trades, knights, windfalls, embargoes, bandit moves and setups', () => {
    let compared = 0;
    for (const g of sampledStates(6, 60)) {
      for (const d of pendingDecisions(g)) {
        const listed = new Set(legalActions(g, d.seat));
        for (const a of candidates(d.kind)) {
          const ok = submit(cloneGame(g), d.seat, a).ok;
          if (ok !== listed.has(a))
            throw new Error(`${d.kind} ${JSON.stringify(a)}: accepted=${ok}, listed=${listed.has(a)}`);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
