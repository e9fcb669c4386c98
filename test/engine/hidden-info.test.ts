// Hidden information never reaches a spectator (issue 8, item 1): for random
// games with strikes, every hidden fact is changed in a twin of the game and
// the public view and the public form of each step's events must stay
// byte-identical (test/engine/hidden-twin.ts explains the construction). The
// audit is itself checked: a projection that leaks is caught.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isOver,
  legalActions,
  newGame,
  pendingDecisions,
  publicEvent,
  publicView,
  type Game,
  type GameEvent,
} from '../../engine';
import { nextU32, randInt } from '../../engine/rng';
import { DEV_CARDS, type DecisionKind } from '../../engine/types';
import { auditRng, auditStep, emptyStats, type AuditOptions, type AuditStats } from './hidden-twin';

const RES = ['brick', 'lumber', 'wool', 'grain', 'ore'] as const;

/** Answers that are often illegal, and whose refusal code depends on hidden cards. */
function mischief(g: Game, seat: number, kind: DecisionKind, r: Uint32Array): unknown {
  const res = RES[randInt(r, 5)];
  switch (kind) {
    case 'setup':
      return { settlement: randInt(r, 54), road: randInt(r, 72) };
    case 'discard':
      return { cards: { [res]: Math.floor(g.hand.subarray(seat * 5, seat * 5 + 5).reduce((a, b) => a + b, 0) / 2) } };
    case 'bandit':
      return { hex: randInt(r, 19), victim: randInt(r, g.n) };
    case 'trade':
      return { accept: true };
    case 'turn': {
      const moves: unknown[] = [
        { type: 'play_knight', hex: randInt(r, 19) },
        { type: 'play_roadworks', edges: [randInt(r, 72)] },
        { type: 'play_windfall', take: { [res]: 2 } },
        { type: 'play_embargo', resource: res },
        { type: 'buy_dev' },
        { type: 'build_city', vertex: randInt(r, 54) },
        { type: 'offer_trade', give: { [res]: 2 }, get: { [RES[(RES.indexOf(res) + 1) % 5]]: 1 } },
        { type: 'bank_trade', give: res, get: RES[(RES.indexOf(res) + 2) % 5] },
      ];
      return moves[randInt(r, moves.length)];
    }
  }
}

/** Mostly legal play that buys and plays dev cards often; often a card bought this very turn; sometimes junk. */
function choose(g: Game, seat: number, kind: DecisionKind, r: Uint32Array): unknown {
  const x = () => nextU32(r) / 2 ** 32;
  const legal = legalActions(g, seat);
  if (kind === 'turn') {
    const mine = [0, 1, 2, 3, 4].filter((c) => g.devNew[seat * 5 + c] > 0);
    if (mine.length && x() < 0.6) {
      // Play a card just bought (dev_bought_this_turn), or one of any kind, as a bot that lost track.
      const card = DEV_CARDS[x() < 0.6 ? mine[randInt(r, mine.length)] : randInt(r, 5)];
      const play: Record<string, unknown> = {
        knight: { type: 'play_knight', hex: randInt(r, 19) },
        roadworks: { type: 'play_roadworks', edges: [randInt(r, 72)] },
        windfall: { type: 'play_windfall', take: { ore: 1, wool: 1 } },
        embargo: { type: 'play_embargo', resource: 'grain' },
        victory_point: { type: 'play_knight', hex: randInt(r, 19) },
      };
      return play[card];
    }
    const buy = legal.find((a) => 'type' in a && a.type === 'buy_dev');
    if (buy && x() < 0.6) return buy;
  }
  if (x() < 0.2) return mischief(g, seat, kind, r);
  const plays = legal.filter((a) => 'type' in a && a.type.startsWith('play_'));
  if (plays.length && x() < 0.5) return plays[randInt(r, plays.length)];
  const calm = legal.filter((a) => !('type' in a && a.type === 'offer_trade'));
  const pool = calm.length && x() < 0.95 ? calm : legal;
  return pool[randInt(r, pool.length)];
}

function audit(seed: string, n: 3 | 4, maxSteps: number, stats: AuditStats, opts?: AuditOptions): void {
  const g = newGame(seed, n);
  const r = auditRng(seed);
  for (let step = 0; step < maxSteps && !isOver(g); step++) {
    const pending = pendingDecisions(g);
    const { seat, kind } = pending[randInt(r, pending.length)];
    auditStep(g, seat, choose(g, seat, kind, r), r, stats, opts);
  }
}

describe('hidden information', () => {
  it('no public view or public event depends on a hidden fact (property)', () => {
    const stats = emptyStats();
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom<3 | 4>(3, 4), (seed, n) => {
        const before = stats.leaks.length;
        audit(`hidden/${seed}`, n, 700, stats);
        expect(stats.leaks.slice(before)).toEqual([]);
      }),
      { numRuns: 5 },
    );
    // Nearly every step was compared at some level, and every view with all hidden facts changed.
    expect(stats.compared).toBeGreaterThan(stats.steps * 0.9);
    expect(stats.views).toBe(stats.steps);
  });

  it('the audit compares twins whose private facts really differ: strike codes, bought cards, stolen resources', () => {
    const stats = emptyStats();
    for (const [seed, n] of [
      ['cover-a', 4],
      ['cover-b', 3],
      ['cover-c', 4],
    ] as const)
      audit(seed, n, 700, stats);
    expect(stats.leaks).toEqual([]);
    expect(stats.differing.strikeCode).toBeGreaterThan(5);
    expect(stats.differing.boughtCard).toBeGreaterThan(5);
    expect(stats.differing.stolen).toBeGreaterThan(5);
  });

  describe('the audit catches a projection that leaks', () => {
    const leaksWith = (opts: AuditOptions): string[] => {
      const stats = emptyStats();
      for (const seed of ['leak-a', 'leak-b']) audit(seed, 4, 700, stats, opts);
      return stats.leaks;
    };

    it('strike events passed through with their code and message (the bug of issue 8)', () => {
      const leaks = leaksWith({ project: (e: GameEvent) => (e.kind === 'timeout' ? e : publicEvent(e)) });
      expect(leaks.length).toBeGreaterThan(0);
      expect(leaks.some((l) => l.includes('"timeout"'))).toBe(true);
    });

    it('a bought card or a stolen resource passed through', () => {
      expect(leaksWith({ project: (e: GameEvent) => (e.kind === 'dev' ? e : publicEvent(e)) }).length).toBeGreaterThan(
        0,
      );
      expect(
        leaksWith({ project: (e: GameEvent) => (e.kind === 'bandit' ? e : publicEvent(e)) }).length,
      ).toBeGreaterThan(0);
    });

    it('a view that shows hands, the next dice or the top of the deck', () => {
      expect(
        leaksWith({ view: (g: Game) => ({ ...publicView(g), hands: Array.from(g.hand) }) }).length,
      ).toBeGreaterThan(0);
      expect(
        leaksWith({ view: (g: Game) => ({ ...publicView(g), dice: Array.from(g.diceRng) }) }).length,
      ).toBeGreaterThan(0);
      expect(leaksWith({ view: (g: Game) => ({ ...publicView(g), top: g.deck[g.deckPos] }) }).length).toBeGreaterThan(
        0,
      );
      expect(leaksWith({ view: (g: Game) => ({ ...publicView(g), seed: g.seed }) }).length).toBeGreaterThan(0);
    });
  });
});
