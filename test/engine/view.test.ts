import { describe, expect, it } from 'vitest';
import { newGame } from '../../engine/game';
import { KNIGHT, VICTORY_POINT } from '../../engine/state';
import { publicView, seatView } from '../../engine/view';
import { PioneersViewSchema, PublicViewSchema } from '../../src/protocol/view';
import { afterDefaultSetup, expectAccepted, setHand } from './helpers';

function position() {
  const g = afterDefaultSetup('views', 4);
  setHand(g, 0, { brick: 2, ore: 1 });
  setHand(g, 1, { wool: 5 });
  g.devOld[1 * 5 + VICTORY_POINT] = 1;
  g.devOld[1 * 5 + KNIGHT] = 2;
  return g;
}

describe('seatView', () => {
  it('has exactly the spec fields and passes the protocol schema', () => {
    const g = position();
    const v = seatView(g, 0);
    expect(Object.keys(v).sort()).toEqual([
      'awards',
      'board',
      'deckRemaining',
      'devBoughtThisTurn',
      'devCards',
      'devCounts',
      'dice',
      'hand',
      'handCounts',
      'knightsPlayed',
      'myScore',
      'openTrade',
      'phase',
      'roads',
      'scores',
      'seat',
      'seatCount',
      'talkLog',
      'towns',
      'turn',
    ]);
    expect(PioneersViewSchema.safeParse(v).success).toBe(true);
    expect(v.phase).toBe('main');
    expect(v.towns).toHaveLength(8);
    expect(v.roads).toHaveLength(8);
    expect(v.board.hexes).toHaveLength(19);
    expect(v.board.ports).toHaveLength(9);
  });

  it("shows the own hand and cards, and only counts of the others'", () => {
    const g = position();
    const mine = seatView(g, 1);
    expect(mine.hand).toEqual({ brick: 0, lumber: 0, wool: 5, grain: 0, ore: 0 });
    expect(mine.devCards.sort()).toEqual(['knight', 'knight', 'victory_point']);
    expect(mine.myScore).toBe(mine.scores[1] + 1);
    const theirs = seatView(g, 0);
    expect(theirs.hand).toEqual({ brick: 2, lumber: 0, wool: 0, grain: 0, ore: 1 });
    expect(theirs.handCounts[1]).toBe(5);
    expect(theirs.devCounts[1]).toBe(3);
    expect(theirs.devCards).toEqual([]);
    expect(theirs.scores[1]).toBe(2); // two settlements; the VP card stays hidden
    const text = JSON.stringify(theirs);
    expect(text).not.toContain('victory_point');
    expect(text).not.toContain('"wool":5');
  });

  it('is in phase setup with no dice and turn 0 before the first roll', () => {
    expect(seatView(newGame('setup-view', 4), 2)).toMatchObject({ phase: 'setup', dice: null, turn: 0 });
    const v = seatView(position(), 0);
    expect(v.turn).toBe(1);
    expect(v.dice).toHaveLength(2);
  });

  it('rejects a seat outside the game', () => {
    expect(() => seatView(position(), 4)).toThrow(RangeError);
  });
});

describe('publicView', () => {
  it('shows counts only: no hands, no dev card identities, no seed', () => {
    const g = position();
    expectAccepted(g, g.current, { type: 'end_turn', talk: 'gg' });
    const v = publicView(g);
    expect(PublicViewSchema.safeParse(v).success).toBe(true);
    const text = JSON.stringify(v);
    for (const hidden of ['hand"', 'victory_point', 'knight"', 'views']) expect(text).not.toContain(hidden);
    expect(v.handCounts[1]).toBeGreaterThanOrEqual(5);
    expect(v.devCounts[1]).toBe(3);
    expect(v.resigned).toEqual([false, false, false, false]);
    expect(v.talkLog).toEqual([{ seat: 0, message: 'gg', turn: 1 }]);
  });
});
