import { describe, expect, it } from 'vitest';
import { defaultAction, gameEvents, pendingDecisions, submit } from '../../engine/game';
import { STAGE_BANDIT, STAGE_DISCARD, STAGE_TURN } from '../../engine/state';
import {
  blankMain,
  expectAccepted,
  expectRejected,
  handOf,
  rollTurnOne,
  seedWithFirstRoll,
  setHand,
  town,
} from './helpers';

/** Seat 0 to roll a 7; seats 1 and 3 hold more than 7 cards; towns on hex 4 for seats 1 and 2. */
function sevenPosition() {
  const g = blankMain(seedWithFirstRoll(7));
  town(g, 1, 18); // hex 4 (and 5, 9)
  town(g, 2, 12); // hex 0, 3, 4
  setHand(g, 1, { brick: 5, ore: 4 }); // 9 cards: owes 4
  setHand(g, 2, { wool: 7 }); // 7 cards: owes nothing
  setHand(g, 3, { brick: 2, lumber: 2, wool: 2, grain: 2, ore: 2 }); // 10 cards: owes 5
  if (g.bandit === 4) g.bandit = 0;
  rollTurnOne(g);
  return g;
}

describe('a rolled 7', () => {
  it('asks every seat over 7 cards to discard, all at once', () => {
    const g = sevenPosition();
    expect(g.die1 + g.die2).toBe(7);
    expect(g.stage).toBe(STAGE_DISCARD);
    expect(pendingDecisions(g)).toEqual([
      { seat: 1, kind: 'discard' },
      { seat: 3, kind: 'discard' },
    ]);
  });

  it.each([
    { name: 'too few', cards: { brick: 3 }, code: 'wrong_discard_count' },
    { name: 'too many', cards: { brick: 5 }, code: 'wrong_discard_count' },
    { name: 'cards not held', cards: { wool: 4 }, code: 'not_enough_cards' },
    { name: 'a negative count', cards: { brick: 5, ore: -1 }, code: 'bad_shape' },
    { name: 'an unknown resource', cards: { gold: 4 }, code: 'bad_shape' },
  ])('rejects a discard of $name', ({ cards, code }) => {
    expectRejected(sevenPosition(), 1, { cards }, code);
  });

  it('applies discards in seat order once all are in, whatever the arrival order, then asks the roller to move the bandit', () => {
    const logs = [
      [1, 3],
      [3, 1],
    ].map((order) => {
      const g = sevenPosition();
      const answers: Record<number, unknown> = {
        1: { cards: { brick: 4 } },
        3: { cards: { ore: 2, wool: 1, grain: 2 } },
      };
      const first = submit(g, order[0], answers[order[0]]);
      expect(first).toEqual({ ok: true, events: [] }); // buffered: nothing happens yet
      expect(handOf(g, order[0]).reduce((a, b) => a + b)).toBeGreaterThan(7);
      expectRejected(g, order[0], answers[order[0]], 'already_answered');
      expectAccepted(g, order[1], answers[order[1]]);
      expect(handOf(g, 1)).toEqual([1, 0, 0, 0, 4]);
      expect(handOf(g, 3)).toEqual([2, 2, 1, 0, 0]);
      expect(g.stage).toBe(STAGE_BANDIT);
      expect(pendingDecisions(g)).toEqual([{ seat: 0, kind: 'bandit' }]);
      return JSON.stringify(gameEvents(g));
    });
    expect(logs[0]).toBe(logs[1]);
  });

  it('goes straight to the bandit when nobody holds more than 7', () => {
    const g = blankMain(seedWithFirstRoll(7));
    setHand(g, 1, { brick: 7 });
    rollTurnOne(g);
    expect(pendingDecisions(g)).toEqual([{ seat: 0, kind: 'bandit' }]);
  });

  it('defaults a discard by dropping from the largest pile, ties in resource order', () => {
    const g = sevenPosition();
    // Seat 1: brick 5, ore 4 -> owes 4: brick, then brick/ore tie -> brick, then ore, then brick/ore tie -> brick.
    expect(defaultAction(g, 1)).toEqual({ cards: { brick: 3, ore: 1 } });
    // Seat 3: 2 of each -> owes 5: one of each, in order.
    expect(defaultAction(g, 3)).toEqual({ cards: { brick: 1, lumber: 1, wool: 1, grain: 1, ore: 1 } });
  });
});

describe('the bandit decision', () => {
  function banditPosition() {
    const g = sevenPosition();
    expectAccepted(g, 1, defaultAction(g, 1));
    expectAccepted(g, 3, defaultAction(g, 3));
    return g;
  }

  it('rejects the hex it is on, a victim without a town there, and the roller itself', () => {
    const g = banditPosition();
    expectRejected(g, 0, { hex: g.bandit }, 'bandit_same_hex');
    expectRejected(g, 0, { hex: 4, victim: 3 }, 'bad_victim');
    expectRejected(g, 0, { hex: 4, victim: 0 }, 'bad_victim');
    expectRejected(g, 0, { hex: 4, victim: 1, talk: 'x'.repeat(241) }, 'talk_too_long');
  });

  it('moves the bandit and steals one card from the victim', () => {
    const g = banditPosition();
    const before = handOf(g, 1).reduce((a, b) => a + b);
    const events = expectAccepted(g, 0, { hex: 4, victim: 1, talk: 'sorry' });
    expect(g.bandit).toBe(4);
    expect(handOf(g, 1).reduce((a, b) => a + b)).toBe(before - 1);
    expect(handOf(g, 0).reduce((a, b) => a + b)).toBe(1);
    const bandit = events.find((e) => e.kind === 'bandit');
    expect(bandit?.data).toMatchObject({ hex: 4, victim: 1 });
    expect(['brick', 'ore']).toContain((bandit!.data as { stole: string }).stole);
    expect(events.find((e) => e.kind === 'talk')).toEqual({ kind: 'talk', seat: 0, data: { message: 'sorry' } });
    expect(g.stage).toBe(STAGE_TURN);
  });

  it('accepts a victim with no cards and steals nothing', () => {
    const g = banditPosition();
    setHand(g, 2, {});
    const events = expectAccepted(g, 0, { hex: 4, victim: 2 });
    expect(events.find((e) => e.kind === 'bandit')?.data).toEqual({ hex: 4, victim: 2, stole: null });
    expect(handOf(g, 0)).toEqual([0, 0, 0, 0, 0]);
  });

  it('defaults to the lowest hex the bandit is not on, with no victim', () => {
    const g = banditPosition();
    expect(defaultAction(g, 0)).toEqual({ hex: g.bandit === 0 ? 1 : 0 });
  });
});
