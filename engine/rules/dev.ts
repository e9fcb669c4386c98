// Playing development cards: one per turn, never a card bought this turn,
// never a victory_point card.

import { RESOURCES } from '../board';
import { roadsBuilt, updateLargestArmy } from '../awards';
import type { Game } from '../state';
import { EMBARGO, KNIGHT, ROADWORKS, WINDFALL, emit, toCounts } from '../state';
import type { RejectionCode } from '../types';
import { applyBandit, checkBandit } from './bandit';
import { placeRoad, roadPlaceCode } from './pieces';

export function checkPlayable(g: Game, seat: number, card: number): RejectionCode | null {
  if (g.devPlayed) return 'dev_already_played';
  if (g.devOld[seat * 5 + card] > 0) return null;
  return g.devNew[seat * 5 + card] > 0 ? 'dev_bought_this_turn' : 'no_such_card';
}

function markPlayed(g: Game, seat: number, card: number): void {
  g.devOld[seat * 5 + card]--;
  g.devPlayed = true;
}

export function checkKnight(g: Game, seat: number, hex: number, victim: number): RejectionCode | null {
  return checkPlayable(g, seat, KNIGHT) ?? checkBandit(g, seat, hex, victim);
}

export function applyKnight(g: Game, seat: number, hex: number, victim: number): void {
  markPlayed(g, seat, KNIGHT);
  g.knights[seat]++;
  if (g.log) emit(g, 'dev', seat, { action: 'play', card: 'knight' });
  applyBandit(g, seat, hex, victim);
  updateLargestArmy(g, seat);
}

/** Each edge legal in order (the first may connect the second), within the roads left. */
export function checkRoadworks(g: Game, seat: number, edges: readonly number[]): RejectionCode | null {
  const played = checkPlayable(g, seat, ROADWORKS);
  if (played) return played;
  if (edges.length > g.roadsLeft[seat]) return 'limit_reached';
  const first = roadPlaceCode(g, seat, edges[0]);
  if (first || edges.length === 1) return first;
  // Place the first road for a moment to judge the second; restored before returning.
  g.roadOwner[edges[0]] = seat;
  const second = roadPlaceCode(g, seat, edges[1]);
  g.roadOwner[edges[0]] = -1;
  return second;
}

export function applyRoadworks(g: Game, seat: number, edges: readonly number[]): void {
  markPlayed(g, seat, ROADWORKS);
  if (g.log) emit(g, 'dev', seat, { action: 'play', card: 'roadworks', edges: edges.slice() });
  for (const e of edges) {
    placeRoad(g, seat, e);
    if (g.log) emit(g, 'build', seat, { what: 'road', at: e, free: true });
  }
  roadsBuilt(g, seat, edges[0], edges.length > 1 ? edges[1] : -1);
}

/** take: five counts summing to exactly 2. */
export function checkWindfall(g: Game, seat: number, take: ArrayLike<number>): RejectionCode | null {
  const played = checkPlayable(g, seat, WINDFALL);
  if (played) return played;
  let t = 0;
  for (let r = 0; r < 5; r++) t += take[r];
  return t === 2 ? null : 'bad_amount';
}

export function applyWindfall(g: Game, seat: number, take: ArrayLike<number>): void {
  markPlayed(g, seat, WINDFALL);
  for (let r = 0; r < 5; r++) g.hand[seat * 5 + r] += take[r];
  if (g.log) {
    emit(g, 'dev', seat, { action: 'play', card: 'windfall', take: toCounts(take) });
  }
}

export function checkEmbargo(g: Game, seat: number): RejectionCode | null {
  return checkPlayable(g, seat, EMBARGO);
}

export function applyEmbargo(g: Game, seat: number, r: number): void {
  markPlayed(g, seat, EMBARGO);
  const taken = g.log ? new Array<number>(g.n).fill(0) : null;
  for (let s = 0; s < g.n; s++) {
    if (s === seat) continue;
    const c = g.hand[s * 5 + r];
    g.hand[s * 5 + r] = 0;
    g.hand[seat * 5 + r] += c;
    if (taken) taken[s] = c;
  }
  if (g.log) emit(g, 'dev', seat, { action: 'play', card: 'embargo', resource: RESOURCES[r], taken: taken! });
}
