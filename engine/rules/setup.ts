// Setup: snake-order placement of one settlement and one touching road;
// the second settlement pays one card per adjacent producing hex.

import { DESERT, EDGE_VERTICES, VERTEX_HEXES } from '../board';
import { roadsBuilt } from '../awards';
import type { Game } from '../state';
import type { RejectionCode } from '../types';
import { emit, setupSeat, toCounts } from '../state';
import { distanceOk, placeRoad, placeSettlement } from './pieces';

export function checkSetup(g: Game, settlement: number, road: number): RejectionCode | null {
  if (g.townOwner[settlement] !== -1) return 'occupied';
  if (!distanceOk(g, settlement)) return 'distance_rule';
  if (EDGE_VERTICES[road * 2] !== settlement && EDGE_VERTICES[road * 2 + 1] !== settlement) return 'road_not_adjacent';
  if (g.roadOwner[road] !== -1) return 'occupied';
  return null;
}

/** Places the pieces and pays the second settlement. Returns true when setup is complete. */
export function applySetup(g: Game, settlement: number, road: number): boolean {
  const seat = setupSeat(g);
  placeSettlement(g, seat, settlement);
  if (g.log) emit(g, 'build', seat, { what: 'settlement', at: settlement });
  placeRoad(g, seat, road);
  if (g.log) emit(g, 'build', seat, { what: 'road', at: road });
  roadsBuilt(g, seat, road); // keeps the cached lengths exact; nobody reaches 5 in setup
  if (g.setupStep >= g.n) {
    const o = seat * 5;
    const gained = g.log ? new Int16Array(5) : null;
    for (let i = settlement * 3; i < settlement * 3 + 3; i++) {
      const h = VERTEX_HEXES[i];
      if (h === -1 || g.hexRes[h] === DESERT) continue;
      g.hand[o + g.hexRes[h]]++;
      if (gained) gained[g.hexRes[h]]++;
    }
    if (g.log && gained) emit(g, 'payout', seat, { gained: toCounts(gained) });
  }
  g.setupStep++;
  g.pendingCache = null;
  return g.setupStep === 2 * g.n;
}
