// The `greedy` bot: scores every legal action with a one-step heuristic and
// plays the best. It values production (pips, weighted toward resources it
// lacks), builds city > settlement > roads toward open spots > dev cards,
// trades with the bank only when that completes a build, and aims the
// bandit at the strongest opponent's production. It reads only its own hand
// and public state, so it sees exactly what its seat may know.

import {
  EDGE_VERTICES,
  HEX_COUNT,
  VERTEX_COUNT,
  VERTEX_HEXES,
  VERTEX_PORT,
  VERTEX_VERTICES,
  RESOURCES,
} from '../board';
import { fillLegalActions } from '../legal';
import { bankRate, distanceOk } from '../rules/pieces';
import { hasTownOn } from '../rules/bandit';
import { randInt, stream, streamInto } from '../rng';
import type { Game } from '../state';
import { COST_CITY, COST_DEV, COST_ROAD, COST_SETTLEMENT, handTotal, publicVp } from '../state';
import type { AnyAction, BanditAction, DiscardAction, ResourceCounts, SetupAction, TurnAction } from '../types';
import { PIPS } from './pips';

const RES_INDEX: Record<string, number> = { brick: 0, lumber: 1, wool: 2, grain: 3, ore: 4 };

export class GreedyBot {
  readonly name = 'greedy';
  private readonly rng: Uint32Array;
  private readonly hand = new Int16Array(5);
  /** Facts about the seat computed once per decision, not once per scored action. */
  private readonly ctx: Ctx = { produces: 0, spot: false };
  private readonly actions: AnyAction[] = [];

  constructor(seed: string) {
    this.rng = stream(seed, 'bot');
  }

  /** Starts over as a new GreedyBot(seed) would (the search bot reuses one per rollout). */
  reseed(seed: string): void {
    streamInto(this.rng, seed, 'bot');
  }

  decide(g: Game, seat: number): AnyAction {
    // One list reused for every decision: the search bot's rollouts make
    // thousands of greedy decisions, and fresh lists were most of its garbage.
    const actions = this.actions;
    const n = fillLegalActions(g, seat, actions);
    if (n === 0) throw new Error(`greedy bot: seat ${seat} owes no decision`);
    if (n === 1) return actions[0];
    this.ctx.produces = producesMask(g, seat);
    this.ctx.spot = hasSpot(g, seat);
    let best = actions[0];
    let bestScore = -Infinity;
    let ties = 0;
    for (let i = 0; i < n; i++) {
      const a = actions[i];
      const s = this.score(g, seat, a);
      if (s > bestScore) {
        best = a;
        bestScore = s;
        ties = 1;
      }
      // Reservoir choice among equal scores keeps play varied but reproducible.
      else if (s === bestScore && randInt(this.rng, ++ties) === 0) best = a;
    }
    return best;
  }

  private score(g: Game, seat: number, a: AnyAction): number {
    if ('settlement' in a) return this.scoreSetup(g, a);
    if ('cards' in a) return this.scoreDiscard(g, seat, a);
    if ('accept' in a) return this.scoreTradeResponse(g, seat, a.accept);
    if ('type' in a) return this.scoreTurn(g, seat, a);
    return banditScore(g, seat, (a as BanditAction).hex, (a as BanditAction).victim);
  }

  private scoreSetup(g: Game, a: SetupAction): number {
    const road = a.road;
    const far = EDGE_VERTICES[road * 2] === a.settlement ? EDGE_VERTICES[road * 2 + 1] : EDGE_VERTICES[road * 2];
    let next = 0;
    for (let i = far * 3; i < far * 3 + 3; i++) {
      const w = VERTEX_VERTICES[i];
      if (w !== -1 && w !== a.settlement && distanceOk(g, w)) next = Math.max(next, vertexValue(g, this.ctx, w));
    }
    return vertexValue(g, this.ctx, a.settlement) * 10 + next;
  }

  private scoreTurn(g: Game, seat: number, a: TurnAction): number {
    const o = seat * 5;
    switch (a.type) {
      case 'end_turn':
        return 0;
      case 'build_city':
        return 1000 + vertexValue(g, this.ctx, a.vertex);
      case 'build_settlement':
        return 900 + vertexValue(g, this.ctx, a.vertex);
      case 'buy_dev':
        // Save for a settlement when a spot is open and nearly affordable.
        return this.ctx.spot && g.settlementsLeft[seat] > 0 && missing(g.hand, o, COST_SETTLEMENT) <= 1 ? -1 : 200;
      case 'build_road': {
        if (g.settlementsLeft[seat] === 0 || this.ctx.spot) return -1;
        const v = roadValue(g, this.ctx, a.edge);
        return v > 0 ? 300 + v : -1;
      }
      case 'play_roadworks': {
        if (g.settlementsLeft[seat] === 0) return -1;
        let v = 0;
        for (let i = 0; i < a.edges.length; i++) v += roadValue(g, this.ctx, a.edges[i]);
        return v > 0 ? 350 + v : -1;
      }
      case 'play_knight': {
        const onOwn = hasTownOn(g, seat, g.bandit) ? 400 : 0;
        const army =
          g.knights[seat] + 1 >= 3 &&
          g.largestArmy !== seat &&
          (g.largestArmy === -1 || g.knights[seat] + 1 > g.knights[g.largestArmy])
            ? 500
            : 0;
        return 100 + onOwn + army + banditScore(g, seat, a.hex, a.victim);
      }
      case 'play_windfall': {
        this.loadHand(g, seat);
        const before = handValue(g, seat, this.ctx, this.hand);
        // Index loops, not iterators: rollouts score thousands of these.
        for (let r = 0; r < 5; r++) this.hand[r] += a.take[RESOURCES[r]] ?? 0;
        return 250 + handValue(g, seat, this.ctx, this.hand) - before;
      }
      case 'play_embargo': {
        // Opponents' hands are hidden: take the resource we most lack for the next build.
        const need = nextNeed(g, seat);
        return need === RES_INDEX[a.resource] ? 150 : -1;
      }
      case 'bank_trade': {
        this.loadHand(g, seat);
        const before = handValue(g, seat, this.ctx, this.hand);
        const gi = RES_INDEX[a.give];
        this.hand[gi] -= bankRate(g, seat, gi);
        this.hand[RES_INDEX[a.get]] += 1;
        const gain = handValue(g, seat, this.ctx, this.hand) - before;
        return gain >= 40 ? 100 + gain : -1;
      }
      case 'offer_trade':
        return -1;
    }
  }

  private scoreDiscard(g: Game, seat: number, a: DiscardAction): number {
    this.loadHand(g, seat);
    subtract(this.hand, a.cards);
    return handValue(g, seat, this.ctx, this.hand);
  }

  private scoreTradeResponse(g: Game, seat: number, accept: boolean): number {
    if (!accept) return 0;
    // Never feed a seat that is close to winning.
    if (publicVp(g, g.tradeFrom) >= 7) return -1;
    this.loadHand(g, seat);
    const before = handValue(g, seat, this.ctx, this.hand);
    for (let r = 0; r < 5; r++) this.hand[r] += g.tradeGive[r] - g.tradeGet[r];
    return handValue(g, seat, this.ctx, this.hand) - before - 5;
  }

  private loadHand(g: Game, seat: number): void {
    for (let r = 0; r < 5; r++) this.hand[r] = g.hand[seat * 5 + r];
  }
}

/** Production value of a vertex for a seat: pips, weighted up for resources it does not produce yet, plus ports. */
function vertexValue(g: Game, ctx: Ctx, v: number): number {
  let value = 0;
  for (let i = v * 3; i < v * 3 + 3; i++) {
    const h = VERTEX_HEXES[i];
    if (h === -1 || g.hexToken[h] === 0) continue;
    const pips = PIPS[g.hexToken[h]];
    const r = g.hexRes[h];
    value += pips * ((ctx.produces >> r) & 1 ? 1 : 1.5) * (r === 4 || r === 3 ? 1.1 : 1);
  }
  const port = VERTEX_PORT[v];
  if (port === 5) value += 1;
  else if (port >= 0 && (ctx.produces >> port) & 1) value += 1.5;
  return value;
}

interface Ctx {
  /** Bit r set when the seat has a town on a producing hex of resource r. */
  produces: number;
  /** A free settlement spot at the end of one of the seat's roads. */
  spot: boolean;
}

function producesMask(g: Game, seat: number): number {
  let mask = 0;
  for (let v = 0; v < VERTEX_COUNT; v++) {
    if (g.townOwner[v] !== seat) continue;
    for (let i = v * 3; i < v * 3 + 3; i++) {
      const h = VERTEX_HEXES[i];
      if (h !== -1 && g.hexToken[h] !== 0) mask |= 1 << g.hexRes[h];
    }
  }
  return mask;
}

/** Is there a free settlement spot at the end of one of the seat's roads? */
function hasSpot(g: Game, seat: number): boolean {
  for (let e = 0; e < 72; e++) {
    if (g.roadOwner[e] !== seat) continue;
    if (distanceOk(g, EDGE_VERTICES[e * 2]) || distanceOk(g, EDGE_VERTICES[e * 2 + 1])) return true;
  }
  return false;
}

/** How much a new road at e opens up: the best spot it reaches, or one step beyond it. */
function roadValue(g: Game, ctx: Ctx, e: number): number {
  let best = 0;
  for (let end = 0; end < 2; end++) {
    const w = EDGE_VERTICES[e * 2 + end];
    // An opponent's town blocks the way (the legal generator already kept such roads out).
    if (g.townOwner[w] !== -1) continue;
    if (distanceOk(g, w)) best = Math.max(best, vertexValue(g, ctx, w));
    for (let i = w * 3; i < w * 3 + 3; i++) {
      const x = VERTEX_VERTICES[i];
      if (x !== -1 && distanceOk(g, x)) best = Math.max(best, 0.6 * vertexValue(g, ctx, x));
    }
  }
  return best;
}

/** Cards still missing to pay a cost from hand[o..o+5]. */
function missing(hand: ArrayLike<number>, o: number, cost: readonly number[]): number {
  let m = 0;
  for (let r = 0; r < 5; r++) m += Math.max(0, cost[r] - hand[o + r]);
  return m;
}

/** Worth of a hand: what it can build now, and progress toward the next build. */
function handValue(g: Game, seat: number, ctx: Ctx, hand: Int16Array): number {
  const canCity = g.citiesLeft[seat] > 0 && g.settlementsLeft[seat] < 5;
  const canSettle = g.settlementsLeft[seat] > 0 && ctx.spot;
  let v = 0;
  if (canCity && missing(hand, 0, COST_CITY) === 0) v = Math.max(v, 100);
  if (canSettle && missing(hand, 0, COST_SETTLEMENT) === 0) v = Math.max(v, 90);
  if (g.deckPos < 25 && missing(hand, 0, COST_DEV) === 0) v = Math.max(v, 40);
  if (missing(hand, 0, COST_ROAD) === 0) v = Math.max(v, 20);
  // Progress toward the best target, so trades and discards move toward it.
  if (canCity) v += 3 * (5 - missing(hand, 0, COST_CITY));
  if (canSettle) v += 3 * (4 - missing(hand, 0, COST_SETTLEMENT));
  for (let r = 0; r < 5; r++) if (hand[r] < 0) return -1000;
  return v;
}

/** The resource most lacking for the seat's next build, or -1. */
function nextNeed(g: Game, seat: number): number {
  const o = seat * 5;
  const target = g.citiesLeft[seat] > 0 && g.settlementsLeft[seat] < 5 ? COST_CITY : COST_SETTLEMENT;
  let best = -1;
  let gap = 0;
  for (let r = 0; r < 5; r++) {
    const m = target[r] - g.hand[o + r];
    if (m > gap) {
      gap = m;
      best = r;
    }
  }
  return best;
}

/** A bandit move's worth: opponents' production blocked (leaders count more), own production never, plus the steal. */
function banditScore(g: Game, seat: number, hex: number, victim: number | undefined): number {
  if (hex < 0 || hex >= HEX_COUNT) return -Infinity;
  if (hasTownOn(g, seat, hex)) return -100;
  const pips = PIPS[g.hexToken[hex]];
  let blocked = 0;
  for (let s = 0; s < g.n; s++) {
    if (s === seat || !hasTownOn(g, s, hex)) continue;
    blocked += pips * (1 + publicVp(g, s) / 5);
  }
  const steal = victim === undefined ? 0 : Math.min(handTotal(g, victim), 6) + publicVp(g, victim) / 2;
  return blocked * 2 + steal;
}

function subtract(hand: Int16Array, cards: ResourceCounts): void {
  for (let r = 0; r < 5; r++) hand[r] -= cards[RESOURCES[r]] ?? 0;
}
