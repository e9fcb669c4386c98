import { describe, expect, it } from 'vitest';
import {
  abortGame,
  currentTurn,
  defaultAction,
  gameEvents,
  isOver,
  newGame,
  outcome,
  pendingDecisions,
  recordStrike,
  releaseEvents,
  resignSeat,
  seatOrder,
  submit,
} from '../../engine/game';
import { placements } from '../../engine/outcome';
import { VICTORY_POINT } from '../../engine/state';
import { seatView } from '../../engine/view';
import { afterDefaultSetup, blankMain, expectAccepted, expectRejected, roadPath, setHand, town } from './helpers';
import { roundTrip } from './turns';

describe('placements', () => {
  it.each([
    {
      name: 'win, ties share and the next skips',
      vp: [10, 7, 7, 5],
      winner: 0,
      resigned: [0, 0, 0, 0],
      want: [1, 2, 2, 4],
    },
    { name: 'cap, everyone by true VP', vp: [8, 8, 6, 5], winner: -1, resigned: [0, 0, 0, 0], want: [1, 1, 3, 4] },
    {
      name: 'the winner first even if another seat has more',
      vp: [10, 11, 3],
      winner: 0,
      resigned: [0, 0, 0],
      want: [1, 2, 3],
    },
    {
      name: 'resigned seats after every other seat',
      vp: [9, 2, 5, 5],
      winner: -1,
      resigned: [1, 0, 0, 0],
      want: [4, 3, 1, 1],
    },
    {
      name: 'several resigned seats, among themselves by VP',
      vp: [9, 2, 7, 5],
      winner: -1,
      resigned: [1, 0, 1, 0],
      want: [3, 2, 4, 1],
    },
  ])('$name', ({ vp, winner, resigned, want }) => {
    expect(placements(vp, winner, resigned)).toEqual(want);
  });
});

describe('winning', () => {
  it('ends the game when the seat on turn reaches 10 VP after an action', () => {
    const g = blankMain('win');
    for (const v of [0, 10, 26, 41]) town(g, 0, v, true); // 4 cities: 8 VP
    town(g, 0, 44); // 9 VP
    roadPath(g, 0, [49, 52]);
    setHand(g, 0, { brick: 1, lumber: 1, wool: 1, grain: 1 });
    const events = expectAccepted(g, 0, { type: 'build_settlement', vertex: 52 });
    expect(isOver(g)).toBe(true);
    expect(pendingDecisions(g)).toEqual([]);
    expect(outcome(g)).toEqual({ reason: 'win', winner: 0, placements: [1, 2, 2, 2], vp: [10, 0, 0, 0], turns: 1 });
    expect(events.at(-1)).toEqual({
      kind: 'end',
      data: { reason: 'win', winner: 0, placements: [1, 2, 2, 2], vp: [10, 0, 0, 0], turns: 1 },
    });
    expectRejected(g, 0, { type: 'end_turn' }, 'game_over');
  });

  it('does not end the game for a seat with 10 VP off its turn; it wins at its own roll', () => {
    const g = blankMain('win-later');
    g.devOld[1 * 5 + VICTORY_POINT] = 5;
    for (const v of [0, 10, 26]) town(g, 1, v);
    town(g, 1, 41, true); // 5 + 3 + 2 = 10 VP for seat 1
    expectAccepted(g, 0, { type: 'end_turn' });
    expect(isOver(g)).toBe(true);
    expect(outcome(g)).toMatchObject({ reason: 'win', winner: 1, turns: 2 });
  });

  it('a resigned seat cannot win', () => {
    const g = blankMain('win-resigned');
    g.devOld[1 * 5 + VICTORY_POINT] = 5;
    for (const v of [0, 10, 26]) town(g, 1, v);
    town(g, 1, 41, true);
    resignSeat(g, 1);
    expectAccepted(g, 0, { type: 'end_turn' });
    expect(isOver(g)).toBe(false);
  });
});

describe('the turn cap', () => {
  it('plays turn 200 and ends when turn 201 would begin, ranking by true VP', () => {
    const g = blankMain('cap');
    town(g, 2, 20);
    g.devOld[3 * 5 + VICTORY_POINT] = 1;
    g.turn = 199;
    roundTrip(g); // through turn 200 (seat 1..3 turns are the defaults)
    expect(isOver(g)).toBe(true);
    expect(currentTurn(g)).toBe(200);
    expect(outcome(g)).toEqual({ reason: 'cap', winner: null, placements: [3, 3, 1, 1], vp: [0, 0, 1, 1], turns: 200 });
    expect(gameEvents(g).filter((e) => e.kind === 'roll').length).toBe(1);
  });
});

describe('strikes, resignation and abort', () => {
  it('flags the default played after a strike, and every answer of a resigned seat', () => {
    const g = afterDefaultSetup('strikes');
    const seat = pendingDecisions(g)[0].seat;
    const ev = recordStrike(g, seat, 'late', 1, pendingDecisions(g)[0].kind);
    expect(ev).toEqual({
      kind: 'timeout',
      seat,
      data: { reason: 'late', strikes: 1, decision: pendingDecisions(g)[0].kind },
    });
    const events = expectAccepted(g, seat, defaultAction(g, seat));
    expect(events[0]).toMatchObject({ kind: 'action', seat, data: { default: true } });
    expect(resignSeat(g, 1)).toEqual([{ kind: 'resign', seat: 1, data: { strikes: 0 } }]);
    expect(resignSeat(g, 1)).toEqual([]);
    let checked = false;
    for (let guard = 0; guard < 1000 && !checked; guard++) {
      for (const d of pendingDecisions(g)) {
        const evs = expectAccepted(g, d.seat, defaultAction(g, d.seat));
        const mine = evs.find((e) => e.kind === 'action' && e.seat === 1);
        if (mine) {
          expect(mine.data).toMatchObject({ default: true });
          checked = true;
        }
      }
    }
    expect(checked).toBe(true);
  });

  it('aborting ends the game with no outcome', () => {
    const g = afterDefaultSetup('abort');
    expect(abortGame(g)).toEqual([{ kind: 'end', data: { reason: 'aborted', turns: 1 } }]);
    expect(isOver(g)).toBe(true);
    expect(outcome(g)).toBeNull();
    expect(pendingDecisions(g)).toEqual([]);
    expect(abortGame(g)).toEqual([]);
  });
});

describe('table talk', () => {
  it('keeps the last 20 entries, most recent last', () => {
    const g = blankMain('talk');
    for (let i = 0; i < 25; i++) {
      expectAccepted(g, 0, { type: 'end_turn', talk: `line ${i}` });
      // Everyone else plays defaults until seat 0 owes its next turn decision.
      for (
        let p = pendingDecisions(g);
        !(p.length === 1 && p[0].seat === 0 && p[0].kind === 'turn');
        p = pendingDecisions(g)
      ) {
        for (const d of p) expectAccepted(g, d.seat, defaultAction(g, d.seat));
      }
    }
    const log = seatView(g, 2).talkLog;
    expect(log).toHaveLength(20);
    expect(log[0].message).toBe('line 5');
    expect(log[19]).toMatchObject({ seat: 0, message: 'line 24' });
  });
});

describe('seed', () => {
  it('shuffles the seats from the seed: a permutation, the same for the same seed', () => {
    const a = seatOrder('s1', 4);
    expect([...a].sort()).toEqual([0, 1, 2, 3]);
    expect(seatOrder('s1', 4)).toEqual(a);
    const distinct = new Set(Array.from({ length: 50 }, (_, i) => seatOrder(`x${i}`, 4).join('')));
    expect(distinct.size).toBeGreaterThan(10);
  });

  it('fixes the board from the seed: the composition, the tokens, the bandit on the desert', () => {
    const g = newGame('board', 4);
    const counts = [0, 0, 0, 0, 0, 0];
    for (const r of g.hexRes) counts[r]++;
    expect(counts).toEqual([3, 4, 4, 4, 3, 1]);
    expect([...g.hexToken].filter((t) => t > 0).sort((a, b) => a - b)).toEqual([
      2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12,
    ]);
    expect(g.hexRes[g.bandit]).toBe(5);
    expect(g.hexToken[g.bandit]).toBe(0);
    expect(newGame('board', 4).hexRes).toEqual(g.hexRes);
    const deck = [0, 0, 0, 0, 0];
    for (const c of g.deck) deck[c]++;
    expect(deck).toEqual([14, 5, 2, 2, 2]);
    expect(gameEvents(g)[0]).toMatchObject({ kind: 'start', data: { rulesVersion: 'pioneers/1', seatCount: 4 } });
  });

  it('rejects a seat count other than 3 or 4', () => {
    expect(() => newGame('x', 5 as 4)).toThrow(/3 or 4/);
  });
});

describe('releaseEvents', () => {
  it('empties the log of a finished game; events handed on before keep their data', () => {
    const g = newGame('release', 4);
    while (!isOver(g)) {
      const d = pendingDecisions(g)[0];
      submit(g, d.seat, defaultAction(g, d.seat));
    }
    const handedOn = [...gameEvents(g)];
    const json = JSON.stringify(handedOn);
    expect(handedOn.length).toBeGreaterThan(100);
    releaseEvents(g);
    expect(gameEvents(g)).toEqual([]);
    expect(JSON.stringify(handedOn)).toBe(json);
    expect(outcome(g)).not.toBeNull();
  });

  it('does nothing to a game played with events off', () => {
    const g = newGame('release', 4, { events: false });
    releaseEvents(g);
    expect(gameEvents(g)).toEqual([]);
  });
});
