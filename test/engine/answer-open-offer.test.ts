// answerOpenOffer: every seat asked by an offer answers at once. It must be
// exactly the same as those seats submitting ACCEPT / REJECT one by one in
// seat order: same hands, same events, same strike flags.
import { describe, expect, it } from 'vitest';
import {
  ACCEPT,
  REJECT,
  answerOpenOffer,
  gameEvents,
  offerAnswerers,
  pendingDecisions,
  recordStrike,
  submit,
} from '../../engine';
import { cloneGame, type Game } from '../../engine/game';
import { blankMain, expectAccepted, setHand, snapshot } from './helpers';

function openOffer(events = true): Game {
  const g = blankMain('answer-open-offer');
  setHand(g, 0, { brick: 2 });
  setHand(g, 1, { ore: 1 });
  setHand(g, 2, { ore: 1 });
  setHand(g, 3, { grain: 1 });
  expectAccepted(g, 0, { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 } });
  return events ? g : cloneGame(g); // a copy has events off
}

/** The same answers one at a time, in seat order. */
function oneByOne(g: Game, accepts: number): void {
  for (let s = 0; s < g.n; s++) {
    if ((offerAnswerers(g) >> s) & 1) expect(submit(g, s, (accepts >> s) & 1 ? ACCEPT : REJECT).ok).toBe(true);
  }
}

function state(g: Game) {
  return { snap: snapshot(g), events: JSON.stringify(gameEvents(g)), pending: pendingDecisions(g), stage: g.stage };
}

describe('answerOpenOffer', () => {
  it('lists the seats asked, and none once the offer is answered', () => {
    const g = openOffer();
    expect(offerAnswerers(g)).toBe(0b1110);
    expect(answerOpenOffer(g, 0b0100)).toBe(3);
    expect(offerAnswerers(g)).toBe(0);
    expect(pendingDecisions(g)).toEqual([{ seat: 0, kind: 'turn' }]);
  });

  for (const events of [true, false]) {
    for (const accepts of [0, 0b0010, 0b0100, 0b0110, 0b1000, 0b1110]) {
      it(`equals one-by-one answers (accepts ${accepts.toString(2)}, events ${events ? 'on' : 'off'})`, () => {
        const a = openOffer(events),
          b = openOffer(events);
        answerOpenOffer(a, accepts);
        oneByOne(b, accepts);
        expect(state(a)).toEqual(state(b));
      });
    }
  }

  it('takes a trade: the first accepter after the offerer who holds the get side', () => {
    const g = openOffer(false);
    answerOpenOffer(g, 0b1110); // seat 3 accepts too but holds no ore
    expect([...g.hand.slice(0, 10)]).toEqual([1, 0, 0, 0, 1, 1, 0, 0, 0, 0]);
  });

  it('answers only the seats still waiting when some answered already', () => {
    for (const events of [true, false]) {
      const a = openOffer(events),
        b = openOffer(events);
      for (const g of [a, b]) expect(submit(g, 2, { accept: true, talk: 'mine' }).ok).toBe(true);
      expect(answerOpenOffer(a, 0b1010)).toBe(2);
      oneByOne(b, 0b1010);
      expect(state(a)).toEqual(state(b));
      expect(a.talkLog.at(-1)).toMatchObject({ seat: 2, message: 'mine' });
    }
  });

  it('flags the answer of a struck seat as its default, as submit does, and clears the flag', () => {
    for (const events of [true, false]) {
      const a = openOffer(events),
        b = openOffer(events);
      for (const g of [a, b]) recordStrike(g, 3, 'late', 1, 'trade');
      answerOpenOffer(a, 0);
      oneByOne(b, 0);
      expect(state(a)).toEqual(state(b));
      expect(a.nextDefault[3]).toBe(0);
      if (events)
        expect(
          gameEvents(a).some((e) => e.kind === 'action' && e.seat === 3 && (e.data as { default?: boolean }).default),
        ).toBe(true);
    }
  });

  it('refuses when no offer is open, changing nothing', () => {
    const g = openOffer(false);
    answerOpenOffer(g, 0);
    const before = snapshot(cloneGame(g));
    expect(() => answerOpenOffer(g, 0b1110)).toThrow(/no offer is open/);
    expect(snapshot(g)).toBe(before);
  });
});
