import { describe, expect, it } from 'vitest';
import { roundTrip } from './turns';
import { seatView } from '../../engine/view';
import { EMBARGO, KNIGHT, ROADWORKS, VICTORY_POINT, WINDFALL, publicVp, trueVp } from '../../engine/state';
import { blankMain, edge, expectAccepted, expectRejected, handOf, roadPath, setHand, town } from './helpers';

function withCards(cards: Partial<Record<number, number>>) {
  const g = blankMain('dev');
  town(g, 0, 8);
  roadPath(g, 0, [8, 13]);
  town(g, 1, 18);
  town(g, 2, 12 + 28); // 40
  for (const [c, k] of Object.entries(cards)) g.devOld[Number(c)] = k!;
  return g;
}

describe('dev card play limits', () => {
  it('allows one dev card per turn; a second is dev_already_played', () => {
    const g = withCards({ [WINDFALL]: 1, [EMBARGO]: 1 });
    expectAccepted(g, 0, { type: 'play_windfall', take: { ore: 2 } });
    expectRejected(g, 0, { type: 'play_embargo', resource: 'ore' }, 'dev_already_played');
  });

  it('rejects a card bought this turn, and allows it next turn', () => {
    const g = withCards({});
    setHand(g, 0, { ore: 1, wool: 1, grain: 1 });
    g.deck[0] = WINDFALL;
    expectAccepted(g, 0, { type: 'buy_dev' });
    expect(seatView(g, 0).devBoughtThisTurn).toEqual(['windfall']);
    expect(seatView(g, 0).devCards).toEqual([]);
    expectRejected(g, 0, { type: 'play_windfall', take: { ore: 2 } }, 'dev_bought_this_turn');
    roundTrip(g);
    expect(seatView(g, 0).devCards).toEqual(['windfall']);
    expectAccepted(g, 0, { type: 'play_windfall', take: { ore: 2 } });
  });

  it('rejects a card the seat does not hold', () => {
    expectRejected(withCards({}), 0, { type: 'play_embargo', resource: 'wool' }, 'no_such_card');
  });

  it('counts victory_point cards in myScore only, and never plays them', () => {
    const g = withCards({ [VICTORY_POINT]: 2 });
    expect(trueVp(g, 0)).toBe(publicVp(g, 0) + 2);
    const v0 = seatView(g, 0),
      v1 = seatView(g, 1);
    expect(v0.myScore).toBe(v0.scores[0] + 2);
    expect(v1.scores[0]).toBe(v0.scores[0]);
    expect(v1.devCounts[0]).toBe(2);
    expect(JSON.stringify(v1)).not.toContain('victory_point');
  });
});

describe('knight', () => {
  it('moves the bandit, steals from the victim, and counts toward largest army', () => {
    const g = withCards({ [KNIGHT]: 1 });
    setHand(g, 1, { brick: 1 });
    const hex = 4; // vertices 8, 13, 18, 23, 17, 12: seat 1 has 18
    if (g.bandit === hex) g.bandit = 0;
    expectAccepted(g, 0, { type: 'play_knight', hex, victim: 1 });
    expect(g.bandit).toBe(hex);
    expect(g.knights[0]).toBe(1);
    expect(handOf(g, 0)[0]).toBe(1);
    expect(handOf(g, 1)[0]).toBe(0);
  });

  it('rejects the bandit staying, a victim without a town there, and itself as victim', () => {
    const g = withCards({ [KNIGHT]: 1 });
    g.bandit = 4;
    expectRejected(g, 0, { type: 'play_knight', hex: 4 }, 'bandit_same_hex');
    expectRejected(g, 0, { type: 'play_knight', hex: 5, victim: 2 }, 'bad_victim');
    expectRejected(g, 0, { type: 'play_knight', hex: 0, victim: 0 }, 'bad_victim');
  });
});

describe('roadworks', () => {
  it('places 1 or 2 free roads, the first may connect the second', () => {
    const g = withCards({ [ROADWORKS]: 1 });
    expectAccepted(g, 0, { type: 'play_roadworks', edges: [edge(13, 9), edge(9, 14)] });
    expect(g.roadOwner[edge(9, 14)]).toBe(0);
    expect(handOf(g, 0)).toEqual([0, 0, 0, 0, 0]);
    expect(g.roadsLeft[0]).toBe(15 - 3);
  });

  it('rejects a second edge that only the reverse order would connect', () => {
    const g = withCards({ [ROADWORKS]: 1 });
    expectRejected(g, 0, { type: 'play_roadworks', edges: [edge(9, 14), edge(13, 9)] }, 'not_connected');
  });

  it('rejects more roads than the seat has left, and malformed edge lists', () => {
    const g = withCards({ [ROADWORKS]: 1 });
    g.roadsLeft[0] = 1;
    expectRejected(g, 0, { type: 'play_roadworks', edges: [edge(13, 9), edge(9, 14)] }, 'limit_reached');
    expectRejected(g, 0, { type: 'play_roadworks', edges: [] }, 'bad_shape');
    expectRejected(g, 0, { type: 'play_roadworks', edges: [1, 2, 3] }, 'bad_shape');
    g.roadsLeft[0] = 2;
    // Well-shaped (1 to 2 edge ids), but the second road would go where the first just went.
    expectRejected(g, 0, { type: 'play_roadworks', edges: [edge(13, 9), edge(13, 9)] }, 'occupied');
  });
});

describe('windfall', () => {
  it.each([
    { take: { ore: 2 }, hand: [0, 0, 0, 0, 2] },
    { take: { brick: 1, wool: 1 }, hand: [1, 0, 1, 0, 0] },
  ])('takes exactly 2: $take', ({ take, hand }) => {
    const g = withCards({ [WINDFALL]: 1 });
    expectAccepted(g, 0, { type: 'play_windfall', take });
    expect(handOf(g, 0)).toEqual(hand);
  });

  it.each([{ ore: 1 }, { ore: 3 }, {}, { brick: 1, lumber: 1, wool: 1 }])('rejects %o', (take) => {
    expectRejected(withCards({ [WINDFALL]: 1 }), 0, { type: 'play_windfall', take }, 'bad_amount');
  });
});

describe('embargo', () => {
  it('takes all of the named resource from every opponent', () => {
    const g = withCards({ [EMBARGO]: 1 });
    setHand(g, 0, { grain: 1 });
    setHand(g, 1, { grain: 3, ore: 1 });
    setHand(g, 3, { grain: 2 });
    expectAccepted(g, 0, { type: 'play_embargo', resource: 'grain' });
    expect(handOf(g, 0)).toEqual([0, 0, 0, 6, 0]);
    expect(handOf(g, 1)).toEqual([0, 0, 0, 0, 1]);
    expect(handOf(g, 3)).toEqual([0, 0, 0, 0, 0]);
  });

  it("is legal when nobody holds any of it, and still uses up the turn's dev play", () => {
    const g = withCards({ [EMBARGO]: 1, [WINDFALL]: 1 });
    const events = expectAccepted(g, 0, { type: 'play_embargo', resource: 'ore' });
    expect(events.find((e) => e.kind === 'dev')?.data).toMatchObject({ card: 'embargo', taken: [0, 0, 0, 0] });
    expect(handOf(g, 0)).toEqual([0, 0, 0, 0, 0]);
    expect(g.devOld[EMBARGO]).toBe(0);
    expectRejected(g, 0, { type: 'play_windfall', take: { ore: 2 } }, 'dev_already_played');
  });

  it('rejects an unknown resource name', () => {
    expectRejected(withCards({ [EMBARGO]: 1 }), 0, { type: 'play_embargo', resource: 'gold' }, 'bad_shape');
  });
});
