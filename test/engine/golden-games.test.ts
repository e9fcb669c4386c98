// Pins the games themselves: speed work on the engine and the built-in bots
// must not change a single game for a given seed. The digests below were
// recorded before the issue-14 optimisations (commit e83aeb6) and must never
// be updated to make this pass: a change here means games changed, which the
// README would have to announce (the random bot's draws are part of it).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createBuiltinBot,
  gameEvents,
  isOver,
  newGame,
  outcome,
  pendingDecisions,
  submit,
  type BuiltinBotName,
  type Game,
} from '../../engine';
import { playToEnd } from '../../src/sim/simulate';

/**
 * One answer at a time through submit; or, with `driver`, through playToEnd,
 * which lets bots that can answer all seats asked by an offer at once.
 */
function play(seed: string, bots: readonly BuiltinBotName[], events: boolean, driver = false): Game {
  const g = newGame(seed, bots.length as 3 | 4, { events });
  const seats = bots.map((n, s) => createBuiltinBot(n, `${seed}:${s}`));
  if (driver) {
    playToEnd(g, seats);
    return g;
  }
  while (!isOver(g)) {
    const seat = pendingDecisions(g)[0].seat;
    const r = submit(g, seat, seats[seat].decide(g, seat));
    if (!r.ok) throw new Error(`${seed}: ${r.reason.code} ${r.reason.message}`);
  }
  return g;
}

/** Everything a finished game's state holds that play can change. */
function stateDigest(g: Game): string {
  return JSON.stringify([
    outcome(g),
    g.turn,
    g.current,
    g.bandit,
    g.deckPos,
    g.largestArmy,
    g.longestRoad,
    [...g.hand],
    [...g.roadOwner],
    [...g.townOwner],
    [...g.isCity],
    [...g.devOld],
    [...g.devNew],
    [...g.knights],
    [...g.roadLen],
    [...g.diceRng],
    [...g.stealRng],
  ]);
}

const EVENT_LOGS: Array<[string, BuiltinBotName[], number, string, string]> = [
  [
    'random4',
    ['random', 'random', 'random', 'random'],
    40,
    '6e13e519e0041a32e84d784f3525c606fd186643e2b942097e22b16dddac41c0',
    'null:200 1:174 null:200 null:200 2:183 null:200 null:200 null:200 null:200 null:200 null:200 0:137 null:200 null:200 null:200 0:197 null:200 3:132 null:200 3:180 null:200 null:200 null:200 0:137 null:200 null:200 3:128 null:200 null:200 1:154 1:138 null:200 null:200 null:200 null:200 null:200 null:200 3:180 3:104 null:200',
  ],
  [
    'random3',
    ['random', 'random', 'random'],
    20,
    'd0fc3563794e53490c3abbd61a02428bdcf445c8e27d2ab11db6c8ab064c79dd',
    'null:200 null:200 null:200 null:200 null:200 null:200 1:146 null:200 0:127 null:200 null:200 null:200 1:110 null:200 null:200 null:200 null:200 null:200 null:200 null:200',
  ],
  [
    'greedy1',
    ['greedy', 'random', 'random', 'random'],
    10,
    '260c3c35aae570af5ca62a9e5043fb597d7592c6943437a77481a3db886d0306',
    '0:73 0:61 0:53 0:53 0:81 0:57 0:45 0:49 0:57 0:65',
  ],
  [
    'greedy4',
    ['greedy', 'greedy', 'greedy', 'greedy'],
    5,
    '7506089e3f39e8258deb22a2e74c6bb5915d01d8adc5896234bea1a49eeb2acc',
    '0:73 1:66 2:87 1:74 1:50',
  ],
];

describe('the same seed gives the same games as before the speed work', () => {
  for (const [name, bots, count, digest, outcomes] of EVENT_LOGS) {
    it(`${name}: ${count} games' event logs and outcomes`, () => {
      const h = createHash('sha256');
      const outs: string[] = [];
      for (let i = 0; i < count; i++) {
        const seed = `golden/${name}/${i}`;
        const g = play(seed, bots, true);
        h.update(JSON.stringify(gameEvents(g)));
        const o = outcome(g)!;
        outs.push(`${o.winner}:${o.turns}`);
        // Events off (the simulation's fast path) ends in exactly the same state,
        // and so does the simulation's driver, events on (same log) or off.
        expect(stateDigest(play(seed, bots, false))).toBe(stateDigest(g));
        expect(stateDigest(play(seed, bots, false, true))).toBe(stateDigest(g));
        const driven = play(seed, bots, true, true);
        expect(JSON.stringify(gameEvents(driven))).toBe(JSON.stringify(gameEvents(g)));
      }
      expect(outs.join(' ')).toBe(outcomes);
      expect(h.digest('hex')).toBe(digest);
    });
  }
});

const FINAL_STATES: Array<[string, BuiltinBotName[], number, string]> = [
  [
    'random4',
    ['random', 'random', 'random', 'random'],
    300,
    'd967155219e0cbe8538a41395dad17f00f359eba0471f4807ebc750fcc8fd0ef',
  ],
  ['random3', ['random', 'random', 'random'], 100, '8d7c6771a5a2df0ad9eb689dd55a83245d78e00afc733a158dcf519cf778580e'],
];

describe('the same seed gives the same final states with events off (simulation speed)', () => {
  for (const [name, bots, count, digest] of FINAL_STATES) {
    it(`${name}: ${count} games`, () => {
      const h = createHash('sha256');
      for (let i = 0; i < count; i++) h.update(stateDigest(play(`golden-fast/${name}/${i}`, bots, false)));
      expect(h.digest('hex')).toBe(digest);
    });
    it(`${name}: ${count} games through the simulation's driver`, () => {
      const h = createHash('sha256');
      for (let i = 0; i < count; i++) h.update(stateDigest(play(`golden-fast/${name}/${i}`, bots, false, true)));
      expect(h.digest('hex')).toBe(digest);
    });
  }
});
