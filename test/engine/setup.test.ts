import { describe, expect, it } from 'vitest';
import { DESERT, RESOURCES, VERTEX_HEXES } from '../../engine/board';
import { defaultAction, newGame, pendingDecisions } from '../../engine/game';
import { STAGE_SETUP } from '../../engine/state';
import { edge, expectAccepted, expectRejected, handOf } from './helpers';

describe('setup', () => {
  it('runs in snake order, then seat 0 takes turn 1 with an automatic roll', () => {
    for (const n of [3, 4] as const) {
      const g = newGame('snake', n);
      const order: number[] = [];
      while (g.stage === STAGE_SETUP) {
        const p = pendingDecisions(g);
        expect(p).toHaveLength(1);
        expect(p[0].kind).toBe('setup');
        order.push(p[0].seat);
        expectAccepted(g, p[0].seat, defaultAction(g, p[0].seat));
      }
      const expected = n === 4 ? [0, 1, 2, 3, 3, 2, 1, 0] : [0, 1, 2, 2, 1, 0];
      expect(order).toEqual(expected);
      expect(g.turn).toBe(1);
      const roll = g.log!.find((e) => e.kind === 'roll');
      expect(roll?.seat).toBe(0);
      expect(g.die1).toBeGreaterThanOrEqual(1);
    }
  });

  it('the default is the lowest legal vertex with its lowest free edge', () => {
    const g = newGame('defaults', 4);
    expect(defaultAction(g, 0)).toEqual({ settlement: 0, road: edge(0, 3) });
    expectAccepted(g, 0, defaultAction(g, 0));
    // 0 is taken, so 3 and 4 are too close; 1 is the next legal vertex.
    expect(defaultAction(g, 1)).toEqual({ settlement: 1, road: edge(1, 4) });
  });

  it.each([
    { name: 'occupied vertex', answer: { settlement: 8, road: edge(8, 4) }, code: 'occupied' },
    { name: 'next to a town (distance rule)', answer: { settlement: 12, road: edge(12, 17) }, code: 'distance_rule' },
    {
      name: 'road not touching the settlement',
      answer: { settlement: 20, road: edge(8, 4) },
      code: 'road_not_adjacent',
    },
    { name: 'missing road', answer: { settlement: 20 }, code: 'bad_shape' },
    { name: 'vertex out of range', answer: { settlement: 54, road: 0 }, code: 'bad_shape' },
    { name: 'fractional vertex', answer: { settlement: 2.5, road: 0 }, code: 'bad_shape' },
    { name: 'not an object', answer: 'pass', code: 'bad_shape' },
  ])('rejects $name and changes nothing', ({ answer, code }) => {
    const g = newGame('rules', 4);
    expectAccepted(g, 0, { settlement: 8, road: edge(8, 13) });
    expectRejected(g, 1, answer, code);
  });

  it('rejects an answer from a seat whose placement is not due', () => {
    const g = newGame('rules', 4);
    expectRejected(g, 2, { settlement: 20, road: edge(20, 15) }, 'not_your_decision');
  });

  it('pays the second settlement one card per adjacent producing hex, and not the first', () => {
    const g = newGame('payout', 3);
    const placements = [
      { settlement: 8, road: edge(8, 4) },
      { settlement: 18, road: edge(18, 13) },
      { settlement: 30, road: edge(30, 24) },
      { settlement: 40, road: edge(40, 35) },
      { settlement: 22, road: edge(22, 16) },
      { settlement: 10, road: edge(10, 6) },
    ];
    const seats = [0, 1, 2, 2, 1, 0];
    placements.forEach((p, i) => {
      const before = handOf(g, seats[i]);
      const events = expectAccepted(g, seats[i], p);
      const payout = events.find((e) => e.kind === 'payout');
      if (i < 3) {
        expect(payout).toBeUndefined();
        expect(handOf(g, seats[i])).toEqual(before);
        return;
      }
      const expected: Record<string, number> = {};
      for (let k = 0; k < 3; k++) {
        const h = VERTEX_HEXES[p.settlement * 3 + k];
        if (h !== -1 && g.hexRes[h] !== DESERT) {
          const name = RESOURCES[g.hexRes[h]];
          expected[name] = (expected[name] ?? 0) + 1;
        }
      }
      expect(payout).toEqual({ kind: 'payout', seat: seats[i], data: { gained: expected } });
      // The last placement also starts turn 1, whose roll may pay more; before it, the hand is exactly the payout.
      if (i < 5)
        expect(handOf(g, seats[i]).reduce((a, b) => a + b, 0)).toBe(Object.values(expected).reduce((a, b) => a + b, 0));
    });
  });
});
