// Consistency checks used by the property tests: piece counts, VP, cached
// road lengths, dev card conservation, and a resource ledger rebuilt from the
// event log that must equal every hand.

import { EDGE_COUNT, EDGE_VERTICES, HEX_COUNT, HEX_VERTICES, RESOURCES, VERTEX_COUNT } from '../../engine/board';
import { longestRoadLength } from '../../engine/awards';
import type { Game } from '../../engine/state';
import { CITY_LIMIT, ROAD_LIMIT, SETTLEMENT_LIMIT, TOWN_LIMIT, publicVp } from '../../engine/state';
import type { GameEvent, ResourceCounts } from '../../engine/types';

/** Longest trail by brute force: a search from every vertex, written independently of engine/awards.ts. */
export function referenceRoadLength(g: Game, seat: number): number {
  const used = new Set<number>();
  const from = (v: number, len: number): number => {
    const owner = g.townOwner[v];
    if (len > 0 && owner !== -1 && owner !== seat) return len;
    let best = len;
    for (let e = 0; e < EDGE_COUNT; e++) {
      if (g.roadOwner[e] !== seat || used.has(e)) continue;
      const a = EDGE_VERTICES[e * 2],
        b = EDGE_VERTICES[e * 2 + 1];
      if (a !== v && b !== v) continue;
      used.add(e);
      best = Math.max(best, from(a === v ? b : a, len + 1));
      used.delete(e);
    }
    return best;
  };
  let best = 0;
  for (let v = 0; v < VERTEX_COUNT; v++) best = Math.max(best, from(v, 0));
  return best;
}

/** Returns a list of broken invariants (empty when all hold). */
export function brokenInvariants(g: Game): string[] {
  const bad: string[] = [];
  for (let i = 0; i < g.hand.length; i++) if (g.hand[i] < 0) bad.push(`negative hand at ${i}`);
  let devHeld = 0;
  for (let i = 0; i < g.devOld.length; i++) {
    if (g.devOld[i] < 0 || g.devNew[i] < 0) bad.push(`negative dev count at ${i}`);
    devHeld += g.devOld[i] + g.devNew[i];
  }
  if (devHeld > g.deckPos) bad.push(`more dev cards held (${devHeld}) than drawn (${g.deckPos})`);
  for (let s = 0; s < g.n; s++) {
    let roads = 0,
      settlements = 0,
      cities = 0;
    for (let e = 0; e < EDGE_COUNT; e++) if (g.roadOwner[e] === s) roads++;
    for (let v = 0; v < VERTEX_COUNT; v++) {
      if (g.townOwner[v] === s) g.isCity[v] ? cities++ : settlements++;
    }
    if (roads + g.roadsLeft[s] !== ROAD_LIMIT) bad.push(`seat ${s}: ${roads} roads but ${g.roadsLeft[s]} left`);
    if (settlements + g.settlementsLeft[s] !== SETTLEMENT_LIMIT)
      bad.push(`seat ${s}: settlements ${settlements} + left ${g.settlementsLeft[s]}`);
    if (cities + g.citiesLeft[s] !== CITY_LIMIT) bad.push(`seat ${s}: cities ${cities} + left ${g.citiesLeft[s]}`);
    const listed = Array.from(g.roadList.subarray(s * ROAD_LIMIT, s * ROAD_LIMIT + roads)).sort((a, b) => a - b);
    const owned = [...Array(EDGE_COUNT).keys()].filter((e) => g.roadOwner[e] === s);
    if (listed.join() !== owned.join()) bad.push(`seat ${s}: road list ${listed} but owns ${owned}`);
    const towns = Array.from(g.townList.subarray(s * TOWN_LIMIT, s * TOWN_LIMIT + settlements + cities)).sort(
      (a, b) => a - b,
    );
    const occupied = [...Array(VERTEX_COUNT).keys()].filter((v) => g.townOwner[v] === s);
    if (towns.join() !== occupied.join()) bad.push(`seat ${s}: town list ${towns} but occupies ${occupied}`);
    const vp = settlements + 2 * cities + (g.largestArmy === s ? 2 : 0) + (g.longestRoad === s ? 2 : 0);
    if (vp !== publicVp(g, s)) bad.push(`seat ${s}: public VP ${publicVp(g, s)} but board says ${vp}`);
    const len = longestRoadLength(g, s);
    const reference = referenceRoadLength(g, s);
    if (len !== reference) bad.push(`seat ${s}: road length ${len} but the reference search says ${reference}`);
    if (len !== g.roadLen[s]) bad.push(`seat ${s}: cached road length ${g.roadLen[s]} but real ${len}`);
  }
  for (let h = 0; h < HEX_COUNT; h++) {
    let mask = 0;
    for (let k = 0; k < 6; k++) {
      const owner = g.townOwner[HEX_VERTICES[h * 6 + k]];
      if (owner !== -1) mask |= 1 << owner;
    }
    if (mask !== g.hexTowns[h]) bad.push(`hex ${h}: town mask ${g.hexTowns[h]} but corners say ${mask}`);
  }
  if (g.longestRoad !== -1 && g.roadLen[g.longestRoad] < 5) bad.push('longest road held below 5');
  if (g.largestArmy !== -1 && g.knights[g.largestArmy] < 3) bad.push('largest army held below 3 knights');
  return bad;
}

function add(ledger: number[], seat: number, c: ResourceCounts | undefined, sign: number): void {
  if (!c) return;
  RESOURCES.forEach((r, i) => {
    ledger[seat * 5 + i] += sign * (c[r] ?? 0);
  });
}

const COSTS: Record<string, ResourceCounts> = {
  road: { brick: 1, lumber: 1 },
  settlement: { brick: 1, lumber: 1, wool: 1, grain: 1 },
  city: { grain: 2, ore: 3 },
};

/**
 * Rebuilds every hand from the events alone. Any card that appears or
 * vanishes without an event explaining it makes the ledger differ from g.hand.
 * Also returns the dev cards played, for deck conservation.
 */
export function ledgerFromEvents(events: readonly GameEvent[], n: number): { hands: number[]; devPlayed: number } {
  const ledger = new Array<number>(n * 5).fill(0);
  let inSetup = true;
  let devPlayed = 0;
  for (const e of events) {
    const d = (e.data ?? {}) as Record<string, unknown>;
    const seat = e.seat ?? -1;
    switch (e.kind) {
      case 'action':
        inSetup = d.kind === 'setup';
        break;
      case 'payout':
        add(ledger, seat, d.gained as ResourceCounts, 1);
        break;
      case 'roll':
        (d.produced as ResourceCounts[]).forEach((c, s) => add(ledger, s, c, 1));
        break;
      case 'discard':
        add(ledger, seat, d.cards as ResourceCounts, -1);
        break;
      case 'bandit':
        if (typeof d.stole === 'string') {
          add(ledger, seat, { [d.stole]: 1 }, 1);
          add(ledger, d.victim as number, { [d.stole]: 1 }, -1);
        }
        break;
      case 'build':
        if (!inSetup && !d.free) add(ledger, seat, COSTS[d.what as string], -1);
        break;
      case 'dev':
        if (d.action === 'buy') add(ledger, seat, { ore: 1, wool: 1, grain: 1 }, -1);
        else {
          devPlayed++;
          if (d.card === 'windfall') add(ledger, seat, d.take as ResourceCounts, 1);
          if (d.card === 'embargo') {
            (d.taken as number[]).forEach((k, s) => {
              add(ledger, s, { [d.resource as string]: k }, -1);
              add(ledger, seat, { [d.resource as string]: k }, 1);
            });
          }
        }
        break;
      case 'trade':
        if (d.accepted === false) break;
        add(ledger, d.from as number, d.give as ResourceCounts, -1);
        add(ledger, d.from as number, d.get as ResourceCounts, 1);
        if (d.to !== 'bank') {
          add(ledger, d.to as number, d.give as ResourceCounts, 1);
          add(ledger, d.to as number, d.get as ResourceCounts, -1);
        }
        break;
    }
  }
  return { hands: ledger, devPlayed };
}
