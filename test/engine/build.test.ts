import { describe, expect, it } from 'vitest';
import { submit } from '../../engine/game';
import { publicVp } from '../../engine/state';
import { blankMain, edge, expectAccepted, expectRejected, handOf, roadPath, setHand, town } from './helpers';

const RICH = { brick: 9, lumber: 9, wool: 9, grain: 9, ore: 9 };

/** Seat 0: settlement at 8, road 8-13. Seat 1: settlement at 18 (touches 13's neighbourhood). */
function position() {
  const g = blankMain('build');
  town(g, 0, 8);
  roadPath(g, 0, [8, 13]);
  town(g, 1, 18);
  roadPath(g, 1, [18, 24]);
  setHand(g, 0, RICH);
  return g;
}

describe('build_road', () => {
  it('builds from an own town or own road end and pays 1 brick + 1 lumber', () => {
    const g = position();
    expectAccepted(g, 0, { type: 'build_road', edge: edge(8, 4) });
    expectAccepted(g, 0, { type: 'build_road', edge: edge(13, 9) });
    expect(handOf(g, 0)).toEqual([7, 7, 9, 9, 9]);
    expect(g.roadsLeft[0]).toBe(15 - 3);
  });

  it.each([
    { name: 'an occupied edge', edge: [8, 13], code: 'occupied' },
    { name: 'an edge away from the network', edge: [40, 45], code: 'not_connected' },
  ])('rejects $name', ({ edge: [a, b], code }) => {
    expectRejected(position(), 0, { type: 'build_road', edge: edge(a, b) }, code);
  });

  it("rejects a road continuing through an opponent's town", () => {
    const g = position();
    // Seat 1 settles at 13, the end of seat 0's road 8-13.
    town(g, 1, 13);
    expectRejected(g, 0, { type: 'build_road', edge: edge(13, 9) }, 'blocked_by_town');
    // Seat 0's own town end still works.
    expectAccepted(g, 0, { type: 'build_road', edge: edge(8, 12) });
  });

  it('rejects without the cost or past 15 roads', () => {
    const g = position();
    setHand(g, 0, { brick: 1 });
    expectRejected(g, 0, { type: 'build_road', edge: edge(8, 4) }, 'cannot_afford');
    setHand(g, 0, RICH);
    g.roadsLeft[0] = 0;
    expectRejected(g, 0, { type: 'build_road', edge: edge(8, 4) }, 'limit_reached');
  });
});

describe('build_settlement', () => {
  it('builds at the end of an own road, pays, and scores 1 VP', () => {
    const g = position();
    roadPath(g, 0, [13, 9, 14]);
    const vp = publicVp(g, 0);
    expectAccepted(g, 0, { type: 'build_settlement', vertex: 14 });
    expect(handOf(g, 0)).toEqual([8, 8, 8, 8, 9]);
    expect(publicVp(g, 0)).toBe(vp + 1);
    expect(g.settlementsLeft[0]).toBe(3);
  });

  it.each([
    { name: 'too close to a town (13 neighbours 8 and 18)', vertex: 13, code: 'distance_rule' },
    { name: 'an occupied vertex', vertex: 18, code: 'occupied' },
    { name: 'a vertex without an own road', vertex: 40, code: 'not_connected' },
  ])('rejects $name', ({ vertex, code }) => {
    expectRejected(position(), 0, { type: 'build_settlement', vertex }, code);
  });

  it('rejects without the cost or past 5 settlements', () => {
    const g = position();
    roadPath(g, 0, [13, 9, 14]);
    setHand(g, 0, { brick: 1, lumber: 1, wool: 1 });
    expectRejected(g, 0, { type: 'build_settlement', vertex: 14 }, 'cannot_afford');
    setHand(g, 0, RICH);
    g.settlementsLeft[0] = 0;
    expectRejected(g, 0, { type: 'build_settlement', vertex: 14 }, 'limit_reached');
  });
});

describe('build_city', () => {
  it('upgrades an own settlement for 3 ore + 2 grain, returns the settlement piece, and counts 2 VP', () => {
    const g = position();
    const vp = publicVp(g, 0);
    expectAccepted(g, 0, { type: 'build_city', vertex: 8 });
    expect(handOf(g, 0)).toEqual([9, 9, 9, 7, 6]);
    expect(g.isCity[8]).toBe(1);
    expect(g.settlementsLeft[0]).toBe(5);
    expect(g.citiesLeft[0]).toBe(3);
    expect(publicVp(g, 0)).toBe(vp + 1);
  });

  it.each([
    { name: "an opponent's settlement", vertex: 18 },
    { name: 'an empty vertex', vertex: 40 },
  ])('rejects $name', ({ vertex }) => {
    expectRejected(position(), 0, { type: 'build_city', vertex }, 'not_own_settlement');
  });

  it('rejects an existing city, without the cost, or past 4 cities', () => {
    const g = position();
    expectAccepted(g, 0, { type: 'build_city', vertex: 8 });
    expectRejected(g, 0, { type: 'build_city', vertex: 8 }, 'not_own_settlement');
    town(g, 0, 4 + 40); // a second settlement at 44
    setHand(g, 0, { ore: 2, grain: 2 });
    expectRejected(g, 0, { type: 'build_city', vertex: 44 }, 'cannot_afford');
    setHand(g, 0, RICH);
    g.citiesLeft[0] = 0;
    expectRejected(g, 0, { type: 'build_city', vertex: 44 }, 'limit_reached');
  });
});

describe('buy_dev', () => {
  it('draws the top card of the seeded deck into devBoughtThisTurn for 1 ore + 1 wool + 1 grain', () => {
    const g = position();
    const top = g.deck[0];
    expectAccepted(g, 0, { type: 'buy_dev' });
    expect(handOf(g, 0)).toEqual([9, 9, 8, 8, 8]);
    expect(g.devNew[top]).toBe(1);
    expect(g.deckPos).toBe(1);
  });

  it('rejects without the cost or with an empty deck', () => {
    const g = position();
    setHand(g, 0, { ore: 1, wool: 1 });
    expectRejected(g, 0, { type: 'buy_dev' }, 'cannot_afford');
    setHand(g, 0, RICH);
    g.deckPos = 25;
    expectRejected(g, 0, { type: 'buy_dev' }, 'deck_empty');
  });
});

describe('turn answers', () => {
  it.each([
    { name: 'an unknown type', answer: { type: 'build_castle', vertex: 3 } },
    { name: 'a missing field', answer: { type: 'build_road' } },
    { name: 'an edge out of range', answer: { type: 'build_road', edge: 72 } },
    { name: 'a string id', answer: { type: 'build_road', edge: '3' } },
    { name: 'null for an optional field', answer: { type: 'end_turn', talk: null } },
    { name: 'null', answer: null },
    { name: 'an array', answer: [] },
  ])('rejects $name as bad_shape', ({ answer }) => {
    expectRejected(position(), 0, answer, 'bad_shape');
  });

  it('rejects answers from seats that owe nothing', () => {
    const g = position();
    expectRejected(g, 1, { type: 'end_turn' }, 'not_your_decision');
    expect(submit(g, 7, { type: 'end_turn' })).toMatchObject({ ok: false, reason: { code: 'bad_seat' } });
  });
});
