// The engine keeps each seat's road length up to date incrementally when a
// road is built (a road out to a vertex with no other own road takes one walk
// from its other end; otherwise only the part of the network the road joins
// is searched, and a part without cycles takes the fast longest-path route). These tests
// build networks road by road, with opponents' towns cutting them, and
// compare with the plain reference search after every step.
import { describe, expect, it } from 'vitest';
import { EDGE_COUNT, EDGE_VERTICES, VERTEX_COUNT } from '../../engine/board';
import { applyRoad, applySettlement } from '../../engine/rules/build';
import { applyRoadworks } from '../../engine/rules/dev';
import { distanceOk, placeSettlement, roadPlaceCode } from '../../engine/rules/pieces';
import { ROADWORKS, type Game } from '../../engine/state';
import { blankMain, setHand } from './helpers';
import { referenceRoadLength } from './invariants';
import { rng } from './testRng';

/** Edges minus vertices plus parts: above 0 when the seat's roads hold a cycle. */
function cycles(g: Game, seat: number): number {
  const parent = Array.from({ length: VERTEX_COUNT }, (_, v) => v);
  const find = (v: number): number => (parent[v] === v ? v : (parent[v] = find(parent[v])));
  let extra = 0;
  for (let e = 0; e < EDGE_COUNT; e++) {
    if (g.roadOwner[e] !== seat) continue;
    const a = find(EDGE_VERTICES[e * 2]),
      b = find(EDGE_VERTICES[e * 2 + 1]);
    if (a === b) extra++;
    else parent[a] = b;
  }
  return extra;
}

function legalRoads(g: Game, seat: number): number[] {
  const out: number[] = [];
  for (let e = 0; e < EDGE_COUNT; e++) if (roadPlaceCode(g, seat, e) === null) out.push(e);
  return out;
}

describe('incremental road length', () => {
  it('equals the reference search after every road and every cutting town, in 150 random networks', () => {
    let steps = 0,
      withCycles = 0,
      cutSteps = 0;
    for (let i = 0; i < 150; i++) {
      const next = rng(`roads-${i}`);
      const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)];
      const g = blankMain(`roads-${i}`, 4);
      // Seat 0 starts from one or two towns; seats 1..3 drop towns that may cut its roads.
      placeSettlement(g, 0, pick([...Array(VERTEX_COUNT).keys()]));
      if (next() < 0.5) {
        const free = [...Array(VERTEX_COUNT).keys()].filter((v) => distanceOk(g, v));
        placeSettlement(g, 0, pick(free));
      }
      let sawCycle = false;
      while (g.roadsLeft[0] > 0) {
        const roads = legalRoads(g, 0);
        if (roads.length === 0) break;
        if (g.roadsLeft[0] >= 2 && next() < 0.15) {
          // Roadworks: two free roads, the second possibly joining the first.
          const a = pick(roads);
          g.roadOwner[a] = 0;
          const seconds = legalRoads(g, 0).filter((b) => b !== a);
          g.roadOwner[a] = -1;
          if (seconds.length > 0) {
            g.devOld[ROADWORKS] = 1;
            g.devPlayed = false;
            applyRoadworks(g, 0, [a, pick(seconds)]);
          }
        } else {
          applyRoad(g, 0, pick(roads), true);
        }
        steps++;
        expect(g.roadLen[0]).toBe(referenceRoadLength(g, 0));
        if (next() < 0.3) {
          // An opponent settles on a free spot on or next to seat 0's roads (the distance rule holds).
          const spots = [...Array(VERTEX_COUNT).keys()].filter((v) => distanceOk(g, v));
          if (spots.length > 0) {
            const seat = 1 + Math.floor(next() * 3);
            setHand(g, seat, { brick: 1, lumber: 1, wool: 1, grain: 1 });
            const before = g.roadLen[0];
            applySettlement(g, seat, pick(spots));
            if (g.roadLen[0] !== before) cutSteps++;
            expect(g.roadLen[0]).toBe(referenceRoadLength(g, 0));
          }
        }
        if (cycles(g, 0) > 0) sawCycle = true;
      }
      if (sawCycle) withCycles++;
    }
    // The random networks exercise both routes and real cuts.
    expect(steps).toBeGreaterThan(1500);
    expect(withCycles).toBeGreaterThan(20);
    expect(cutSteps).toBeGreaterThan(5);
  });
});
