import { describe, expect, it } from 'vitest';
import { longestRoadLength } from '../../engine/awards';
import { KNIGHT, publicVp } from '../../engine/state';
import { blankMain, edge, expectAccepted, roadPath, setHand, town } from './helpers';
import { referenceRoadLength } from './invariants';

// Vertex paths on the real board (helpers.edge() throws if two are not adjacent).
const TOP = [3, 0, 4, 1, 5, 2, 6]; // 6 edges along the top coast
const HEX0_RING = [0, 4, 8, 12, 7, 3, 0]; // the 6 sides of hex 0

describe('longest road length', () => {
  it.each([
    { name: 'a straight path', paths: [TOP], towns: [], length: 6 },
    { name: 'a cycle (every edge counts)', paths: [HEX0_RING], towns: [], length: 6 },
    { name: 'a cycle with a tail', paths: [HEX0_RING, [8, 13, 9]], towns: [], length: 8 },
    {
      name: 'a fork: the longest branch pair, not the sum',
      paths: [
        [11, 7, 12, 8],
        [8, 4, 0],
        [8, 13, 9],
      ],
      towns: [],
      length: 5,
    },
    { name: 'capped by opponent towns at both ends', paths: [[3, 0, 4, 1, 5, 2]], towns: [3, 2], length: 5 },
    { name: 'cut by an opponent town in the middle', paths: [[3, 0, 4, 1, 5, 2]], towns: [1], length: 3 },
    { name: 'a cycle cut by an opponent town', paths: [HEX0_RING], towns: [8], length: 6 },
    {
      name: 'two separate roads',
      paths: [
        [3, 0, 4],
        [40, 45, 49, 52],
      ],
      towns: [],
      length: 3,
    },
    {
      name: 'a plain cycle next to a longer path',
      paths: [HEX0_RING, [40, 45, 49, 52, 48, 44, 39]],
      towns: [],
      length: 6,
    },
    { name: 'a path next to a longer plain cycle', paths: [[40, 45, 49], HEX0_RING], towns: [], length: 6 },
    {
      name: 'two cycles sharing an edge (a figure eight of hexes 0 and 1)',
      paths: [HEX0_RING, [4, 1, 5, 9, 13, 8]],
      towns: [],
      length: 11,
    },
  ])('$name', ({ paths, towns, length }) => {
    const g = blankMain('roads');
    for (const p of paths) roadPath(g, 0, p);
    for (const v of towns) town(g, 1, v);
    expect(longestRoadLength(g, 0)).toBe(length);
    expect(referenceRoadLength(g, 0)).toBe(length);
  });
});

describe('longest road award', () => {
  it('goes to the first seat reaching 5 and is kept on a tie', () => {
    const g = blankMain('award');
    roadPath(g, 0, [3, 0, 4, 1, 5]);
    expect(g.longestRoad).toBe(-1);
    roadPath(g, 0, [5, 2]);
    expect(g.longestRoad).toBe(0);
    expect(publicVp(g, 0)).toBe(2);
    roadPath(g, 1, [40, 45, 49, 52, 48, 44]); // 5: ties, holder keeps
    expect(g.longestRoad).toBe(0);
    roadPath(g, 1, [44, 39]); // 6 > 5: strictly exceeded
    expect(g.longestRoad).toBe(1);
  });

  it('is taken by a real build_road that strictly exceeds the holder, with an award event', () => {
    const g = blankMain('award-build');
    roadPath(g, 1, [3, 0, 4, 1, 5, 2]);
    town(g, 0, 40);
    roadPath(g, 0, [40, 45, 49, 52, 48, 44]);
    expect(g.longestRoad).toBe(1);
    setHand(g, 0, { brick: 1, lumber: 1 });
    const events = expectAccepted(g, 0, { type: 'build_road', edge: edge(44, 39) });
    expect(events.at(-1)).toEqual({ kind: 'award', seat: 0, data: { award: 'longestRoad', seat: 0, from: 1 } });
  });

  function severance(otherPaths: number[][]) {
    const g = blankMain('sever');
    roadPath(g, 0, TOP); // 6, holder
    for (const [i, p] of otherPaths.entries()) roadPath(g, i + 2, p);
    expect(g.longestRoad).toBe(0);
    // Seat 1 builds a settlement at 5, in the middle of seat 0's road: 3-0-4-1-5 | 5-2-6 -> 4.
    roadPath(g, 1, [9, 5]);
    setHand(g, 1, { brick: 1, lumber: 1, wool: 1, grain: 1 });
    g.current = 1;
    g.pendingCache = null;
    expectAccepted(g, 1, { type: 'build_settlement', vertex: 5 });
    expect(g.roadLen[0]).toBe(4);
    return g;
  }

  it('a holder severed below 5 loses it to the sole strict maximum of 5 or more', () => {
    const g = severance([[40, 45, 49, 52, 48, 44]]);
    expect(g.longestRoad).toBe(2);
  });

  it('a holder severed below 5 loses it to nobody when the maximum is tied', () => {
    const g = severance([
      [40, 45, 49, 52, 48, 44],
      [21, 27, 33, 28, 34, 29],
    ]);
    expect(g.roadLen[2]).toBe(5);
    expect(g.roadLen[3]).toBe(5);
    expect(g.longestRoad).toBe(-1);
  });

  it('a holder severed below 5 loses it to nobody when nobody has 5', () => {
    const g = severance([[40, 45, 49, 52]]);
    expect(g.longestRoad).toBe(-1);
    expect(g.log!.at(-1)).toEqual({ kind: 'award', data: { award: 'longestRoad', seat: null, from: 0 } });
  });

  it('a severed holder exceeded by two tied seats loses it to nobody', () => {
    const g = blankMain('sever-tie');
    roadPath(g, 0, [11, 7, 3, 0, 4, 1, 5, 2, 6]); // 8
    roadPath(g, 2, [40, 45, 49, 52, 48, 44, 39]); // 6
    roadPath(g, 3, [21, 27, 33, 28, 34, 29, 35]); // 6
    expect(g.longestRoad).toBe(0);
    town(g, 1, 1); // 11-7-3-0-4-1 | 1-5-2-6: 5, strictly exceeded by two equal roads
    expect(g.roadLen[0]).toBe(5);
    expect(g.longestRoad).toBe(-1);
  });

  it('a severed holder still at 5 or more keeps it against an equal road', () => {
    const g = blankMain('sever-keep');
    roadPath(g, 0, [11, 7, 3, 0, 4, 1, 5, 2, 6]); // 8
    roadPath(g, 2, [40, 45, 49, 52, 48, 44]); // 5
    expect(g.longestRoad).toBe(0);
    roadPath(g, 1, [9, 5]);
    setHand(g, 1, { brick: 1, lumber: 1, wool: 1, grain: 1 });
    g.current = 1;
    g.pendingCache = null;
    expectAccepted(g, 1, { type: 'build_settlement', vertex: 5 }); // 11-7-3-0-4-1-5 = 6 | 5-2-6
    expect(g.roadLen[0]).toBe(6);
    expect(g.longestRoad).toBe(0);
  });
});

describe('largest army', () => {
  function knights(g: ReturnType<typeof blankMain>, seat: number, count: number) {
    g.current = seat;
    g.pendingCache = null;
    for (let i = 0; i < count; i++) {
      g.devOld[seat * 5 + KNIGHT] = 1;
      g.devPlayed = false;
      expectAccepted(g, seat, { type: 'play_knight', hex: g.bandit === 0 ? 1 : 0 });
    }
  }

  it('goes to the first seat with 3 knights and transfers only when strictly exceeded', () => {
    const g = blankMain('army');
    knights(g, 0, 2);
    expect(g.largestArmy).toBe(-1);
    knights(g, 0, 1);
    expect(g.largestArmy).toBe(0);
    expect(publicVp(g, 0)).toBe(2);
    knights(g, 1, 3);
    expect(g.largestArmy).toBe(0);
    knights(g, 1, 1);
    expect(g.largestArmy).toBe(1);
    expect(publicVp(g, 0)).toBe(0);
  });
});
