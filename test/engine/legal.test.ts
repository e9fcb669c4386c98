import { describe, expect, it } from 'vitest';
import { legalActions, legalActionsFromView } from '../../engine/legal';
import { ROADWORKS, WINDFALL } from '../../engine/state';
import type { AnyAction, TurnAction } from '../../engine/types';
import { seatView } from '../../engine/view';
import { blankMain, edge, expectAccepted, roadPath, setHand, town } from './helpers';
import { submit } from '../../engine/game';

const types = (actions: AnyAction[]) => new Set(actions.map((a) => (a as TurnAction).type));

function position() {
  const g = blankMain('legal');
  town(g, 0, 8);
  roadPath(g, 0, [8, 13]);
  town(g, 1, 18);
  return g;
}

describe('legalActions for turn decisions', () => {
  it('lists only end_turn with an empty hand and no cards', () => {
    expect(legalActions(position(), 0)).toEqual([{ type: 'end_turn' }]);
  });

  it('lists the roads reachable from the network, excluding continuation through an opponent town', () => {
    const g = position();
    setHand(g, 0, { brick: 1, lumber: 1 });
    const roads = legalActions(g, 0)
      .filter((a) => (a as TurnAction).type === 'build_road')
      .map((a) => (a as { edge: number }).edge);
    expect(roads.sort((a, b) => a - b)).toEqual(
      [edge(8, 4), edge(8, 12), edge(13, 9), edge(13, 18)].sort((a, b) => a - b),
    );
    town(g, 1, 13); // now 13 blocks: only the edges at seat 0's town remain
    const blocked = legalActions(g, 0)
      .filter((a) => (a as TurnAction).type === 'build_road')
      .map((a) => (a as { edge: number }).edge);
    expect(blocked.sort((a, b) => a - b)).toEqual([edge(8, 4), edge(8, 12)].sort((a, b) => a - b));
  });

  it('offers 1-for-1 open offers only while fewer than 5 were made', () => {
    const g = position();
    setHand(g, 0, { brick: 1 });
    expect(legalActions(g, 0).filter((a) => (a as TurnAction).type === 'offer_trade')).toHaveLength(4);
    g.offers = 5;
    expect(types(legalActions(g, 0))).toEqual(new Set(['end_turn']));
  });

  it('lists bank trades at the seat rate only', () => {
    const g = position();
    setHand(g, 0, { wool: 3 });
    expect(types(legalActions(g, 0)).has('bank_trade')).toBe(false);
    setHand(g, 0, { wool: 4 });
    expect(legalActions(g, 0).filter((a) => (a as TurnAction).type === 'bank_trade')).toHaveLength(4);
  });

  it('lists no dev plays for a card bought this turn or after a play', () => {
    const g = position();
    g.devNew[WINDFALL] = 1;
    expect(types(legalActions(g, 0)).has('play_windfall')).toBe(false);
    g.devOld[WINDFALL] = 1;
    expect(legalActions(g, 0).filter((a) => (a as TurnAction).type === 'play_windfall')).toHaveLength(15);
    g.devPlayed = true;
    expect(types(legalActions(g, 0)).has('play_windfall')).toBe(false);
  });

  it('lists roadworks singles and each legal pair once, every one accepted', () => {
    const g = withRoadworks();
    const works = legalActions(g, 0).filter((a) => (a as TurnAction).type === 'play_roadworks') as Array<{
      edges: number[];
    }>;
    const keys = works.map((w) => [...w.edges].sort((a, b) => a - b).join('-'));
    expect(new Set(keys).size).toBe(keys.length);
    expect(works.filter((w) => w.edges.length === 1)).toHaveLength(4);
    expect(keys).toContain([edge(13, 9), edge(9, 14)].sort((a, b) => a - b).join('-'));
    for (const w of works) {
      const r = submit(withRoadworks(), 0, { type: 'play_roadworks', edges: w.edges });
      expect(r.ok, JSON.stringify(w)).toBe(true);
    }
  });
});

function withRoadworks() {
  const g = position();
  g.devOld[ROADWORKS] = 1;
  return g;
}

describe('legalActionsFromView', () => {
  it('gives the same list as the game, given the memo the view lacks', () => {
    const g = position();
    setHand(g, 0, { brick: 2, lumber: 2, wool: 1, grain: 1 });
    g.devOld[WINDFALL] = 1;
    const memo = { devPlayedThisTurn: false, offersThisTurn: 0 };
    expect(legalActionsFromView(seatView(g, 0), 'turn', memo)).toEqual(legalActions(g, 0));
    expectAccepted(g, 0, { type: 'play_windfall', take: { ore: 2 } });
    expect(legalActionsFromView(seatView(g, 0), 'turn', { devPlayedThisTurn: true, offersThisTurn: 0 })).toEqual(
      legalActions(g, 0),
    );
  });
});
