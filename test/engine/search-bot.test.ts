// builtin:search: it decides only on what its seat may know, reproduces from
// its seed, answers legally, and beats the greedy bot.
import { describe, expect, it } from 'vitest';
import {
  cloneGame,
  createBuiltinBot,
  gameEvents,
  newGame,
  nextSeat,
  submit,
  type AnyAction,
  type BuiltinBot,
  type Game,
} from '../../engine';
import { determinize } from '../../engine/bots/determinize';
import { SearchBot } from '../../engine/bots/search';
import { STAGE_TRADE, STAGE_TURN, addTalk, recycleGame, refillGame } from '../../engine/state';
import { forgetGame, legalActions } from '../../engine/legal';
import { playToEnd, simulate } from '../../src/sim/simulate';
import { auditRng, hiddenTwin } from './hidden-twin';

/**
 * Everything but the deciding seat's own hand and dev cards redrawn: other hands, other devs, deck, dice, steals, seed.
 */
const OTHERS = { dice: true, hands: 'others', devs: 'others' } as const;

/**
 * Plays a game with `make` at one seat and greedy elsewhere. At every decision
 * of that seat a second instance (same seed) decides on a hidden twin of the
 * game; the real game goes on with the first one's answer. Returns how many
 * decisions were compared and how many differed.
 */
function twinGame(
  seed: string,
  seat: number,
  make: (seed: string) => BuiltinBot,
): { compared: number; differed: number } {
  const g = newGame(seed, 4, { events: false });
  const real = make(`${seed}:bot`);
  const twin = make(`${seed}:bot`);
  const greedy = [0, 1, 2, 3].map((s) => createBuiltinBot('greedy', `${seed}:${s}`));
  const r = auditRng(seed);
  let compared = 0,
    differed = 0;
  for (let s = nextSeat(g); s !== -1; s = nextSeat(g)) {
    let a: AnyAction;
    if (s === seat) {
      const t: Game = hiddenTwin(g, seat, OTHERS, r);
      a = real.decide(g, s);
      const b = twin.decide(t, s);
      compared++;
      if (JSON.stringify(a) !== JSON.stringify(b)) differed++;
    } else {
      a = greedy[s].decide(g, s);
    }
    const res = submit(g, s, a);
    if (!res.ok) throw new Error(`illegal answer at seat ${s}: ${res.reason.code}`);
  }
  return { compared, differed };
}

/** A 4-seat game of greedy bots after `steps` decisions (or at its end). */
function playedGame(seed: string, steps: number): Game {
  const g = newGame(seed, 4, { events: false });
  const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('greedy', `${seed}:${s}`));
  for (let i = 0, s = nextSeat(g); i < steps && s !== -1; i++, s = nextSeat(g)) submit(g, s, bots[s].decide(g, s));
  return g;
}

describe('recycleGame', () => {
  it('gives a game equal to cloneGame, whatever the spent game held, and independent of both', () => {
    // The spent game is another, finished game with talk in its log: every field must be overwritten.
    const spent = playedGame('recycle/spent', 100_000);
    addTalk(spent, 1, 'gg');
    expect(spent.outcome).not.toBeNull();
    for (const steps of [0, 40, 400, 100_000]) {
      const src = playedGame(`recycle/src/${steps}`, steps);
      if (steps === 400) addTalk(src, 0, 'hello');
      const copy = recycleGame(cloneGame(spent), src);
      expect(copy).toEqual(cloneGame(src));
      // Its arrays are its own: playing on the copy leaves the source as it was.
      const before = cloneGame(src);
      const s = nextSeat(copy);
      if (s !== -1) submit(copy, s, createBuiltinBot('greedy', 'x').decide(copy, s));
      copy.hand[0]++;
      expect(src).toEqual(before);
    }
  });

  it('gives a new object, so caches keyed by the game never see a game go back in time', () => {
    const spent = playedGame('recycle/identity', 50);
    const src = playedGame('recycle/identity2', 10);
    const copy = recycleGame(spent, src);
    expect(copy).not.toBe(spent);
    expect(copy).not.toBe(src);
  });

  it('copies an open trade offer and its buffered answers', () => {
    let g: Game | null = null;
    for (let i = 0; i < 40 && !g; i++) {
      const x = newGame(`recycle/trade/${i}`, 4, { events: false });
      const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('search', `rt/${i}:${s}`));
      for (let s = nextSeat(x); s !== -1; s = nextSeat(x)) {
        submit(x, s, bots[s].decide(x, s));
        if (x.stage === STAGE_TRADE && x.bufAction.some((a) => a !== null)) {
          g = x;
          break;
        }
      }
    }
    expect(g).not.toBeNull();
    expect(recycleGame(playedGame('recycle/other', 300), g!)).toEqual(cloneGame(g!));
  });

  it('refuses a spent game of another seat count', () => {
    const three = newGame('recycle/3', 3, { events: false });
    expect(() => recycleGame(three, newGame('recycle/4', 4, { events: false }))).toThrow(RangeError);
  });
});

describe('refillGame', () => {
  it('makes a game equal to cloneGame in place; after forgetGame its legal actions are those of a fresh copy', () => {
    const x = cloneGame(playedGame('refill/spent', 100_000));
    for (const steps of [0, 40, 400, 100_000]) {
      const src = playedGame(`refill/src/${steps}`, steps);
      // The generator has seen x at a later point of another game first.
      const s0 = nextSeat(x);
      if (s0 !== -1) legalActions(x, s0);
      refillGame(x, src);
      forgetGame(x);
      expect(x).toEqual(cloneGame(src));
      const s = nextSeat(x);
      if (s !== -1) expect(legalActions(x, s)).toEqual(legalActions(cloneGame(src), s));
    }
  });

  it('needs forgetGame: two games just after setup look the same to the cache (as many pieces) but not on the board', () => {
    // The first turn decision of seat 0 (setup is 8 steps; a 7 would ask for the bandit first).
    const firstTurn = (seed: string) => {
      for (let i = 0; ; i++) {
        const g = playedGame(`${seed}/${i}`, 8);
        if (g.stage === STAGE_TURN) {
          g.hand.fill(1);
          return g;
        } // every build affordable
      }
    };
    const a = firstTurn('refill/a'),
      b = firstTurn('refill/b');
    const fromA = legalActions(cloneGame(a), 0),
      fromB = legalActions(cloneGame(b), 0);
    expect(fromB).not.toEqual(fromA);
    // The generator remembers the last game it saw: x, with a's board, right before the refill.
    const x = cloneGame(a);
    expect(legalActions(x, 0)).toEqual(fromA);
    refillGame(x, b);
    forgetGame(x);
    expect(legalActions(x, 0)).toEqual(fromB);
  });

  it('refuses the game itself and a game of another seat count', () => {
    const g = playedGame('refill/self', 10);
    expect(() => refillGame(g, g)).toThrow(RangeError);
    expect(() => refillGame(newGame('refill/3', 3, { events: false }), g)).toThrow(RangeError);
  });
});

describe('builtin:search', () => {
  it("decides the same whether its worlds reuse the last decision's arrays or are fresh copies", () => {
    const play = (fresh: boolean) => {
      const g = newGame('search-reuse', 4, { events: false });
      const bots: BuiltinBot[] = [0, 1, 2, 3].map((s) =>
        fresh && s % 2 === 0
          ? new SearchBot(`r:${s}`, { sample: (x, seat, rng) => determinize(x, seat, rng) })
          : createBuiltinBot(s % 2 === 0 ? 'search' : 'greedy', `r:${s}`),
      );
      const answers: string[] = [];
      playToEnd(g, bots, (_s, a) => answers.push(JSON.stringify(a)));
      return answers;
    };
    expect(play(false)).toEqual(play(true));
  });

  it('decides the same on the real game and on a twin with every fact hidden from its seat redrawn', () => {
    let compared = 0;
    for (let i = 0; i < 4; i++) {
      const res = twinGame(`search-twin/${i}`, i, (seed) => createBuiltinBot('search', seed));
      expect(res.differed).toBe(0);
      compared += res.compared;
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('the twin check catches a search that clones the real game without redrawing it', () => {
    // The same bot looking at a plain copy (real dice, deck and hands): the twin
    // test above must see it decide differently, or it would prove nothing.
    const peeking = (seed: string) => new SearchBot(seed, { sample: (g) => cloneGame(g) });
    const res = twinGame('search-twin/0', 0, peeking);
    expect(res.differed).toBeGreaterThan(0);
  });

  it('the same seed gives the same games', () => {
    const play = (seed: string) => {
      const g = newGame(seed, 4);
      const bots = [0, 1, 2, 3].map((s) => createBuiltinBot(s % 2 ? 'greedy' : 'search', `${seed}:${s}`));
      playToEnd(g, bots);
      return JSON.stringify(gameEvents(g));
    };
    expect(play('search-det/1')).toBe(play('search-det/1'));
    expect(play('search-det/2')).not.toBe(play('search-det/1'));
  });

  it('answers legally in 3- and 4-seat games, against itself and against bots that trade and make it discard', () => {
    // playToEnd throws on the first illegal answer.
    for (let i = 0; i < 2; i++) {
      playToEnd(
        newGame(`search-legal3/${i}`, 3, { events: false }),
        [0, 1, 2].map((s) => createBuiltinBot('search', `l3/${i}:${s}`)),
      );
      const mixed = ['search', 'random', 'random', 'random'] as const;
      playToEnd(
        newGame(`search-legal4/${i}`, 4, { events: false }),
        mixed.map((n, s) => createBuiltinBot(n, `l4/${i}:${s}`)),
      );
    }
  });

  // About 15 s alone; the time limit leaves room for a busy machine.
  it('takes first place in clearly more than a quarter of 4-seat games against greedy x3', { timeout: 90_000 }, () => {
    // Seeded games are deterministic, so this figure is fixed for these seeds:
    // 51 of 100 here, 47.0% over bench/search.ts's 1,000 games; an equal bot takes 25%.
    const res = simulate({ games: 100, bots: ['search', 'greedy', 'greedy', 'greedy'], seed: 'search-strength' });
    expect(res.bots[0].winRate).toBeGreaterThanOrEqual(0.4);
  });
});
