// Builds: road, settlement, city, dev card purchase. check* says why not
// (a stable code) or null; apply* assumes the check passed.

import { VERTEX_EDGES } from '../board';
import { roadsBuilt, updateLongestRoad } from '../awards';
import type { Game } from '../state';
import type { RejectionCode } from '../types';
import { COST_CITY, COST_DEV, COST_ROAD, COST_SETTLEMENT, canAfford, emit, pay } from '../state';
import { DEV_CARDS } from '../types';
import { distanceOk, placeRoad, placeSettlement, roadPlaceCode, touchesOwnRoad } from './pieces';

export function checkRoad(g: Game, seat: number, e: number): RejectionCode | null {
  const where = roadPlaceCode(g, seat, e);
  if (where) return where;
  if (g.roadsLeft[seat] === 0) return 'limit_reached';
  if (!canAfford(g, seat, COST_ROAD)) return 'cannot_afford';
  return null;
}

export function applyRoad(g: Game, seat: number, e: number, free: boolean): void {
  if (!free) pay(g, seat, COST_ROAD);
  placeRoad(g, seat, e);
  if (g.log) emit(g, 'build', seat, { what: 'road', at: e });
  roadsBuilt(g, seat, e);
}

export function checkSettlement(g: Game, seat: number, v: number): RejectionCode | null {
  if (g.townOwner[v] !== -1) return 'occupied';
  if (!distanceOk(g, v)) return 'distance_rule';
  if (!touchesOwnRoad(g, seat, v)) return 'not_connected';
  if (g.settlementsLeft[seat] === 0) return 'limit_reached';
  if (!canAfford(g, seat, COST_SETTLEMENT)) return 'cannot_afford';
  return null;
}

export function applySettlement(g: Game, seat: number, v: number): void {
  pay(g, seat, COST_SETTLEMENT);
  placeSettlement(g, seat, v);
  if (g.log) emit(g, 'build', seat, { what: 'settlement', at: v });
  // A town on an opponent's road cuts it: recompute the owners of roads through v.
  let mask = 0;
  for (let i = v * 3; i < v * 3 + 3; i++) {
    const e = VERTEX_EDGES[i];
    if (e !== -1 && g.roadOwner[e] !== -1 && g.roadOwner[e] !== seat) mask |= 1 << g.roadOwner[e];
  }
  if (mask) updateLongestRoad(g, mask);
}

export function checkCity(g: Game, seat: number, v: number): RejectionCode | null {
  if (g.townOwner[v] !== seat || g.isCity[v]) return 'not_own_settlement';
  if (g.citiesLeft[seat] === 0) return 'limit_reached';
  if (!canAfford(g, seat, COST_CITY)) return 'cannot_afford';
  return null;
}

export function applyCity(g: Game, seat: number, v: number): void {
  pay(g, seat, COST_CITY);
  g.isCity[v] = 1;
  g.citiesLeft[seat]--;
  g.settlementsLeft[seat]++; // the settlement piece goes back to the seat
  if (g.log) emit(g, 'build', seat, { what: 'city', at: v });
}

export function checkBuyDev(g: Game, seat: number): RejectionCode | null {
  if (g.deckPos >= g.deck.length) return 'deck_empty';
  if (!canAfford(g, seat, COST_DEV)) return 'cannot_afford';
  return null;
}

export function applyBuyDev(g: Game, seat: number): void {
  pay(g, seat, COST_DEV);
  const card = g.deck[g.deckPos++];
  g.devNew[seat * 5 + card]++;
  if (g.log) emit(g, 'dev', seat, { action: 'buy', card: DEV_CARDS[card] });
}
