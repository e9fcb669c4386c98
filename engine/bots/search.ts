// The `search` bot: a lookahead bot for authors to measure against. For a
// turn, setup or bandit decision it samples worlds consistent with what its
// seat may know (determinize.ts: opponents' hands, dev cards, deck order,
// dice and steal streams redrawn; it never looks at the real ones), ranks
// the candidates (legal answers, 1-for-1 offers included) by a static
// evaluation on one world, keeps the best few plus the greedy bot's choice,
// and plays each forward with the greedy policy for every seat until its own
// next turn, in the same worlds for every candidate so they meet the same
// luck. The best average evaluation wins; a move other than greedy's must win
// by a margin, as the averages are noisy. The work is a budget counted in
// simulated decisions (static evaluations and drawn worlds count too), not a
// clock, so its games reproduce; it keeps a decision within 5 ms (see
// bench/search.ts). Trade answers and discards
// are the greedy heuristic's. All its randomness comes from its own seed.

import { EDGE_VERTICES, VERTEX_HEXES, VERTEX_VERTICES } from '../board';
import { distanceOk } from '../rules/pieces';
import { nextSeat, submit } from '../game';
import { forgetGame, legalActions } from '../legal';
import { nextU32, stream } from '../rng';
import type { Game } from '../state';
import {
  STAGE_BANDIT,
  STAGE_OVER,
  STAGE_SETUP,
  STAGE_TRADE,
  STAGE_TURN,
  VICTORY_POINT,
  cloneGame,
  handTotal,
  refillGame,
  trueVp,
} from '../state';
import type { AnyAction } from '../types';
import { determinize } from './determinize';
import { GreedyBot } from './greedy';
import { PIPS } from './pips';

export interface SearchOptions {
  /** Sampled worlds per decision. */
  worlds: number;
  /** Candidates kept after the static ranking. */
  topK: number;
  /** Decisions played per rollout at most. */
  horizon: number;
  /**
   * Work per decision, in simulated decisions (a static evaluation or a drawn world counts as one): no new world is
   * started past it.
   */
  budget: number;
  /** Whether to make trade offers. */
  offers: boolean;
  /**
   * Builds the world a search looks at, into `into` when given (a spare game of the
   * same seat count) or a new game; tests swap in a peeking one to show what the real one avoids.
   * A world other than `g` itself becomes the search's: its arrays are overwritten by later decisions.
   */
  sample: (g: Game, seat: number, rng: Uint32Array, into?: Game) => Game;
}

export const SEARCH_DEFAULTS: Readonly<SearchOptions> = {
  worlds: 8,
  topK: 4,
  horizon: 60,
  budget: 250,
  offers: true,
  sample: determinize,
};

/** What drawing a world (determinize) costs in the budget, in simulated decisions. */
const WORLD_COST = 1;

/** Evaluation weights, tuned over seeded games against greedy x3 (see bench/search.ts). */
const W = Object.freeze({
  near: 0.5,
  far: 0.25,
  opp: 0.3,
  dev: 2.5,
  knight: 0.8,
  card: 0.6,
  pip: 0.6,
  kinds: 3.5,
  margin: 1,
});

/**
 * Typed arrays reused from decision to decision (the worlds', and those of the copy each rollout
 * plays on), per seat count: fresh copies, a few hundred per decision, made the garbage collector
 * pause decisions. Shared by every search bot of the process, as decisions never overlap (decide
 * is synchronous), so a new game's bots do not allocate their own to be promoted and discarded.
 */
const POOLS: Array<{ spare: Game[]; scratch: Game | null }> = [];

function poolFor(n: number): { spare: Game[]; scratch: Game | null } {
  return (POOLS[n] ??= { spare: [], scratch: null });
}

export class SearchBot {
  readonly name = 'search';
  private readonly rng: Uint32Array;
  private readonly greedy: GreedyBot;
  /** Reseeded for each rollout and for the static ranking's offer answers: no new bot per use. */
  private readonly policy = new GreedyBot('search/policy');
  private readonly answers = new GreedyBot('search/static');
  private readonly opts: SearchOptions;
  /**
   * What the last decision cost, for benchmarks: candidates, those rolled out, worlds, and the work counted in the
   * budget.
   */
  readonly last = { cands: 0, ranked: 0, worlds: 0, used: 0 };

  constructor(seed: string, opts: Partial<SearchOptions> = {}) {
    this.rng = stream(seed, 'bot');
    this.greedy = new GreedyBot(`${seed}/greedy`);
    this.opts = { ...SEARCH_DEFAULTS, ...opts };
  }

  decide(g: Game, seat: number): AnyAction {
    const last = this.last;
    last.cands = last.ranked = last.worlds = last.used = 0;
    const actions = legalActions(g, seat);
    if (actions.length === 0) throw new Error(`search bot: seat ${seat} owes no decision`);
    if (actions.length === 1) return actions[0];
    // Trade answers and discards: cheap, and the greedy heuristic handles them well.
    if (g.stage !== STAGE_TURN && g.stage !== STAGE_SETUP && g.stage !== STAGE_BANDIT)
      return this.greedy.decide(g, seat);
    // Offers (open 1-for-1) are tried in the worlds like any move: the rollout policy answers them.
    const cands: AnyAction[] = this.opts.offers
      ? actions
      : actions.filter((a) => !('type' in a) || a.type !== 'offer_trade');
    if (cands.length === 1) return cands[0];

    last.cands = cands.length;
    const { topK, sample } = this.opts;
    // Nothing is hidden in setup that a rollout to its end could meet (no dice, no cards): one world is enough.
    const nW = g.stage === STAGE_SETUP ? 1 : this.opts.worlds;
    // The budget's count of work other than rollouts: drawing worlds, the static ranking.
    let fixed = 0;
    // Worlds are drawn as needed; each has its own seed for the rollout policy's tie-breaks.
    const worlds: Game[] = [];
    const seeds: string[] = [];
    const pool = poolFor(g.n);
    const spare = pool.spare;
    const world = (w: number): Game => {
      while (worlds.length <= w) {
        const k = worlds.length;
        worlds.push(sample(g, seat, this.rng, spare[k]));
        fixed += WORLD_COST;
        // The world's arrays are reused by the next decision: never the real game's.
        if (worlds[k] !== g) spare[k] = worlds[k];
        seeds.push(`rollout/${nextU32(this.rng)}`);
      }
      return worlds[w];
    };
    // One copy at a time is played on: refilled in place, so a copy allocates nothing.
    const copy = (src: Game): Game => {
      const x = pool.scratch;
      if (x === null) return (pool.scratch = cloneGame(src));
      refillGame(x, src);
      forgetGame(x);
      return x;
    };

    // Static ranking on the first world, to keep the rollouts for the few best.
    // Each evaluation (an offer's answers included) costs about a simulated decision and counts
    // as one in the budget, so a decision with many candidates keeps fewer worlds instead of taking longer.
    let ranked = cands;
    if (cands.length > topK) {
      const answers = this.answers;
      answers.reseed('search/static');
      const scored = cands.map((a, i) => {
        const x = copy(world(0));
        submit(x, seat, a);
        fixed++;
        // An offer is judged by its outcome: the others answer it first.
        while (x.stage === STAGE_TRADE) {
          const s = nextSeat(x);
          submit(x, s, answers.decide(x, s));
        }
        return { a, i, s: evaluate(x, seat) };
      });
      scored.sort((p, q) => q.s - p.s || p.i - q.i);
      ranked = scored.slice(0, topK).map((p) => p.a);
    }

    // The greedy choice is the default; another must beat it by a margin, since the averages are noisy.
    const preferred = this.greedy.decide(g, seat);
    if (!ranked.includes(preferred)) ranked = [preferred, ...ranked];
    const start = g.turn;
    // World by world, every candidate in each, so all are averaged over the same worlds, within a
    // budget counted in simulated decisions (a count, not a clock, so the choice is reproducible).
    const totals = new Float64Array(ranked.length);
    let rolled = 0,
      done = 0;
    // A world costs about what the last ones did on average, plus one for drawing it: start one
    // only if that fits the budget.
    for (
      let w = 0;
      w < nW && (done === 0 || fixed + WORLD_COST + rolled + rolled / done <= this.opts.budget);
      w++, done++
    ) {
      for (let i = 0; i < ranked.length; i++) {
        const x = copy(world(w));
        submit(x, seat, ranked[i]);
        rolled += this.rollout(x, seat, start, seeds[w]);
        totals[i] += evaluate(x, seat);
      }
    }
    last.ranked = ranked.length;
    last.worlds = done;
    last.used = fixed + rolled;
    let best = ranked[0];
    let bestScore = -Infinity;
    for (let i = 0; i < ranked.length; i++) {
      const score = totals[i] / done + (ranked[i] === preferred ? W.margin : 0);
      if (score > bestScore) {
        bestScore = score;
        best = ranked[i];
      }
    }
    return best;
  }

  /** Plays x forward with the greedy policy for every seat until the seat's next turn (or the end of setup). */
  private rollout(x: Game, seat: number, startTurn: number, seed: string): number {
    const policy = this.policy;
    policy.reseed(seed);
    const setup = x.stage === STAGE_SETUP || startTurn === 0;
    let d = 0;
    for (; d < this.opts.horizon; d++) {
      if (x.stage === STAGE_OVER) break;
      if (setup ? x.stage !== STAGE_SETUP : x.turn > startTurn && x.current === seat) break;
      const s = nextSeat(x);
      submit(x, s, policy.decide(x, s));
    }
    return d;
  }
}

/**
 * Expected production in pips (cities count twice, the bandit's hex nothing), and how many
 * resources it covers, as pips * 8 + kinds: a number, not an object, as it runs for every
 * seat of every evaluation and the objects were a share of the search's garbage.
 */
function production(g: Game, s: number): number {
  let pips = 0,
    mask = 0;
  const o = s * 9;
  const count = 9 - g.settlementsLeft[s] - g.citiesLeft[s];
  for (let k = 0; k < count; k++) {
    const v = g.townList[o + k];
    const mult = g.isCity[v] ? 2 : 1;
    for (let i = v * 3; i < v * 3 + 3; i++) {
      const h = VERTEX_HEXES[i];
      if (h === -1 || g.hexToken[h] === 0 || h === g.bandit) continue;
      pips += mult * PIPS[g.hexToken[h]];
      mask |= 1 << g.hexRes[h];
    }
  }
  let kinds = 0;
  for (; mask; mask &= mask - 1) kinds++;
  return pips * 8 + kinds;
}

function vertexPips(g: Game, v: number): number {
  let pips = 0;
  for (let i = v * 3; i < v * 3 + 3; i++) {
    const h = VERTEX_HEXES[i];
    if (h !== -1) pips += PIPS[g.hexToken[h]];
  }
  return pips;
}

/** Pips of the best free settlement spot at the end of the seat's roads, and of the best one a road further. */
function spots(g: Game, s: number): { near: number; far: number } {
  let near = 0,
    far = 0;
  const count = 15 - g.roadsLeft[s];
  for (let k = 0; k < count; k++) {
    const e = g.roadList[s * 15 + k];
    for (let end = 0; end < 2; end++) {
      const v = EDGE_VERTICES[e * 2 + end];
      if (g.townOwner[v] !== -1 && g.townOwner[v] !== s) continue;
      if (g.townOwner[v] === -1 && distanceOk(g, v)) near = Math.max(near, vertexPips(g, v));
      for (let i = v * 3; i < v * 3 + 3; i++) {
        const x = VERTEX_VERTICES[i];
        if (x !== -1 && g.townOwner[x] === -1 && distanceOk(g, x)) far = Math.max(far, vertexPips(g, x));
      }
    }
  }
  return { near, far };
}

/** A seat's standing: true VP first, then production, cards in hand and dev cards. */
function standing(g: Game, s: number): number {
  const p = production(g, s);
  const pips = p >> 3,
    kinds = p & 7;
  const cards = handTotal(g, s);
  let devs = 0;
  for (let c = 0; c < 5; c++) if (c !== VICTORY_POINT) devs += g.devOld[s * 5 + c] + g.devNew[s * 5 + c];
  let v =
    10 * trueVp(g, s) +
    W.pip * pips +
    W.kinds * kinds +
    Math.min(cards, 7) * W.card +
    devs * W.dev +
    g.knights[s] * W.knight +
    0.2 * g.roadLen[s];
  if (g.settlementsLeft[s] > 0) {
    const sp = spots(g, s);
    v += W.near * sp.near + W.far * sp.far;
  }
  return v;
}

/** The position for `seat` (the world is a sample, so reading all of it is fair). */
export function evaluate(g: Game, seat: number): number {
  if (g.stage === STAGE_OVER) return g.winner === seat ? 1000 : g.winner === -1 ? 0 : -1000;
  let opp = -Infinity;
  for (let s = 0; s < g.n; s++) if (s !== seat) opp = Math.max(opp, standing(g, s));
  return standing(g, seat) - W.opp * opp;
}
