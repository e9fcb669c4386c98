// Placing pieces on the board and the geometric rules shared by setup,
// builds and roadworks: distance rule, road connectivity, ports.

import { EDGE_VERTICES, RESOURCES, VERTEX_EDGES, VERTEX_HEXES, VERTEX_PORT, VERTEX_VERTICES } from '../board';
import type { Game } from '../state';
import type { RejectionCode } from '../types';
import {
  BANK_RATE,
  GENERIC_PORT_RATE,
  RESOURCE_PORT_RATE,
  ROAD_LIMIT,
  TOWN_LIMIT,
  roadCount,
  townCount,
} from '../state';

/** The vertex and all its neighbours are town-free. */
export function distanceOk(g: Game, v: number): boolean {
  if (g.townOwner[v] !== -1) return false;
  for (let i = v * 3; i < v * 3 + 3; i++) {
    const w = VERTEX_VERTICES[i];
    if (w !== -1 && g.townOwner[w] !== -1) return false;
  }
  return true;
}

/** Some road of the seat touches v. */
export function touchesOwnRoad(g: Game, seat: number, v: number): boolean {
  for (let i = v * 3; i < v * 3 + 3; i++) {
    const e = VERTEX_EDGES[i];
    if (e !== -1 && g.roadOwner[e] === seat) return true;
  }
  return false;
}

/**
 * Why a road on edge e would not be legal for the seat (ignoring cost and
 * limits), or null: it must be empty and reach the seat's network at an
 * endpoint holding an own town, or holding an own road and no opponent town.
 */
export function roadPlaceCode(g: Game, seat: number, e: number): RejectionCode | null {
  if (g.roadOwner[e] !== -1) return 'occupied';
  let blocked = false;
  for (let end = 0; end < 2; end++) {
    const v = EDGE_VERTICES[e * 2 + end];
    const owner = g.townOwner[v];
    if (owner === seat) return null;
    if (touchesOwnRoad(g, seat, v)) {
      if (owner === -1) return null;
      blocked = true;
    }
  }
  return blocked ? 'blocked_by_town' : 'not_connected';
}

/** The only way roads are added: keeps roadOwner, roadsLeft and roadList in step. */
export function placeRoad(g: Game, seat: number, e: number): void {
  g.roadList[seat * ROAD_LIMIT + roadCount(g, seat)] = e;
  g.roadOwner[e] = seat;
  g.roadsLeft[seat]--;
}

/** The only way settlements are added: keeps townOwner, settlementsLeft, townList, hexTowns and ports in step. */
export function placeSettlement(g: Game, seat: number, v: number): void {
  g.townList[seat * TOWN_LIMIT + townCount(g, seat)] = v;
  g.townOwner[v] = seat;
  for (let i = v * 3; i < v * 3 + 3; i++) if (VERTEX_HEXES[i] !== -1) g.hexTowns[VERTEX_HEXES[i]] |= 1 << seat;
  g.settlementsLeft[seat]--;
  const port = VERTEX_PORT[v];
  if (port !== -1) g.portMask[seat] |= 1 << port;
}

/** Best bank rate for giving resource r: 2 with its port, 3 with a generic port, else 4. */
export function bankRate(g: Game, seat: number, r: number): number {
  const m = g.portMask[seat];
  if (m & (1 << r)) return RESOURCE_PORT_RATE;
  if (m & (1 << RESOURCES.length)) return GENERIC_PORT_RATE;
  return BANK_RATE;
}
