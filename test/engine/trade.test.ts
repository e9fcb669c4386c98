import { describe, expect, it } from 'vitest';
import { gameEvents, pendingDecisions, submit } from '../../engine/game';
import { seatView } from '../../engine/view';
import { legalActions } from '../../engine/legal';
import { STAGE_TRADE, STAGE_TURN } from '../../engine/state';
import { blankMain, expectAccepted, expectRejected, handOf, setHand, town } from './helpers';

describe('bank trades', () => {
  it.each([
    { name: 'no port: 4:1', town: 20, give: 'wool', rate: 4 },
    { name: 'a generic port (vertex 0): 3:1', town: 0, give: 'wool', rate: 3 },
    { name: 'the brick port (vertex 16): 2:1 for brick', town: 16, give: 'brick', rate: 2 },
    { name: 'the brick port: still 4:1 for wool', town: 16, give: 'wool', rate: 4 },
    { name: 'a settlement on the ore port (vertex 5): 2:1 for ore', town: 5, give: 'ore', rate: 2 },
  ])('$name', ({ town: v, give, rate }) => {
    const g = blankMain('bank');
    town(g, 0, v);
    setHand(g, 0, { [give]: rate });
    expectRejected(g, 0, { type: 'bank_trade', give, get: give }, 'bad_trade');
    expectAccepted(g, 0, { type: 'bank_trade', give, get: 'grain' });
    expect(handOf(g, 0)).toEqual([0, 0, 0, 1, 0]);
    setHand(g, 0, { [give]: rate - 1 });
    expectRejected(g, 0, { type: 'bank_trade', give, get: 'grain' }, 'cannot_afford');
  });
});

function offerPosition(offerer = 0) {
  const g = blankMain('offers');
  g.current = offerer;
  setHand(g, 0, { brick: 3, wool: 1 });
  setHand(g, 1, { ore: 1 });
  setHand(g, 2, { ore: 2 });
  setHand(g, 3, { grain: 1 });
  return g;
}

describe('offers', () => {
  it.each([
    { name: 'an empty give side', answer: { type: 'offer_trade', give: {}, get: { ore: 1 } }, code: 'offer_empty' },
    {
      name: 'an empty get side',
      answer: { type: 'offer_trade', give: { brick: 1 }, get: { ore: 0 } },
      code: 'offer_empty',
    },
    {
      name: 'cards the offerer lacks',
      answer: { type: 'offer_trade', give: { brick: 4 }, get: { ore: 1 } },
      code: 'offer_uncovered',
    },
    {
      name: 'the same resource both ways',
      answer: { type: 'offer_trade', give: { brick: 1 }, get: { brick: 2 } },
      code: 'bad_offer',
    },
    {
      name: 'itself as target',
      answer: { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 }, to: 0 },
      code: 'bad_target',
    },
    {
      name: 'talk over 240 characters',
      answer: { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 }, talk: 'y'.repeat(241) },
      code: 'talk_too_long',
    },
    {
      name: 'talk of 241 emoji',
      answer: { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 }, talk: '\u{1F33E}'.repeat(241) },
      code: 'talk_too_long',
    },
  ])('rejects $name', ({ answer, code }) => {
    expectRejected(offerPosition(), 0, answer, code);
  });

  it('counts talk in characters (code points), as the schema bound and Python do: 240 emoji are within the limit', () => {
    const g = offerPosition();
    const talk = '\u{1F33E}'.repeat(240); // 480 UTF-16 units
    expectAccepted(g, 0, { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 }, talk });
    expect(seatView(g, 1).openTrade?.talk).toBe(talk);
  });

  it('puts an open offer to every opponent at once and shows it in their views', () => {
    const g = offerPosition();
    expectAccepted(g, 0, { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 }, talk: 'ore anyone?' });
    expect(g.stage).toBe(STAGE_TRADE);
    expect(pendingDecisions(g)).toEqual([1, 2, 3].map((seat) => ({ seat, kind: 'trade' })));
    expect(seatView(g, 2).openTrade).toEqual({ from: 0, give: { brick: 1 }, get: { ore: 1 }, talk: 'ore anyone?' });
    expect(seatView(g, 2).talkLog).toEqual([{ seat: 0, message: 'ore anyone?', turn: 1 }]);
    // Only seats holding the get side are offered "accept".
    expect(legalActions(g, 3)).toEqual([{ accept: false }]);
    expect(legalActions(g, 1)).toEqual([{ accept: false }, { accept: true }]);
  });

  it('resolves to the first accepter in seat order after the offerer', () => {
    const g = offerPosition();
    expectAccepted(g, 0, { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 } });
    expect(submit(g, 2, { accept: true })).toEqual({ ok: true, events: [] });
    expect(submit(g, 1, { accept: true })).toEqual({ ok: true, events: [] });
    const events = expectAccepted(g, 3, { accept: false });
    expect(events.map((e) => [e.kind, e.seat])).toEqual([
      ['action', 1],
      ['action', 2],
      ['action', 3],
      ['trade', 0],
    ]);
    expect(events[3].data).toEqual({ from: 0, to: 1, give: { brick: 1 }, get: { ore: 1 } });
    expect(handOf(g, 0)).toEqual([2, 0, 1, 0, 1]);
    expect(handOf(g, 1)).toEqual([1, 0, 0, 0, 0]);
    expect(handOf(g, 2)).toEqual([0, 0, 0, 0, 2]);
    expect(g.stage).toBe(STAGE_TURN);
    expect(pendingDecisions(g)).toEqual([{ seat: 0, kind: 'turn' }]);
  });

  it('starts the order after the offerer and skips an accepter who cannot cover the get side', () => {
    const g = offerPosition(2);
    setHand(g, 2, { wool: 1 });
    setHand(g, 3, { brick: 1 }); // accepts but holds no ore: skipped, not struck
    setHand(g, 0, { ore: 1 });
    setHand(g, 1, { ore: 1 });
    expectAccepted(g, 2, { type: 'offer_trade', give: { wool: 1 }, get: { ore: 1 } });
    for (const s of [0, 1, 3]) submit(g, s, { accept: true });
    // Order after seat 2: 3 (skipped), 0 (takes it), 1.
    expect(handOf(g, 0)).toEqual([0, 0, 1, 0, 0]);
    expect(handOf(g, 1)).toEqual([0, 0, 0, 0, 1]);
    expect(handOf(g, 2)).toEqual([0, 0, 0, 0, 1]);
    expect(g.strikes[3]).toBe(0);
  });

  it('moves no cards when nobody accepts', () => {
    const g = offerPosition();
    expectAccepted(g, 0, { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 } });
    for (const s of [1, 2]) submit(g, s, { accept: false });
    const events = expectAccepted(g, 3, { accept: false, talk: 'no thanks' });
    expect(events.at(-1)).toEqual({ kind: 'trade', seat: 0, data: { from: 0, accepted: false } });
    expect(handOf(g, 0)).toEqual([3, 0, 1, 0, 0]);
  });

  it('puts a targeted offer only to its target', () => {
    const g = offerPosition();
    expectAccepted(g, 0, { type: 'offer_trade', give: { brick: 2 }, get: { ore: 1 }, to: 2 });
    expect(pendingDecisions(g)).toEqual([{ seat: 2, kind: 'trade' }]);
    expectRejected(g, 1, { accept: true }, 'not_your_decision');
    expectAccepted(g, 2, { accept: true });
    expect(handOf(g, 2)).toEqual([2, 0, 0, 0, 1]);
  });

  it('refuses a sixth offer in a turn', () => {
    const g = offerPosition();
    for (let i = 0; i < 5; i++) {
      expectAccepted(g, 0, { type: 'offer_trade', give: { brick: 1 }, get: { grain: 1 } });
      for (const s of [1, 2, 3]) submit(g, s, { accept: false });
    }
    expectRejected(g, 0, { type: 'offer_trade', give: { brick: 1 }, get: { grain: 1 } }, 'offer_limit');
    expect(gameEvents(g).filter((e) => e.kind === 'trade')).toHaveLength(5);
  });
});
