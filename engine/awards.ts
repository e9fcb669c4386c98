// Longest road and largest army.
//
// Road length is the longest trail in the seat's road graph: no edge used
// twice, vertices may repeat (cycles count in full). An opponent's town cuts
// the graph at its vertex: a trail may end there but not pass through.

import { EDGE_COUNT, EDGE_VERTICES, VERTEX_COUNT, VERTEX_EDGES } from './board';
import type { Game } from './state';
import { LARGEST_ARMY_MIN, LONGEST_ROAD_MIN, ROAD_LIMIT, emit, roadCount } from './state';

// Scratch space, reused: the engine is single-threaded and walk() never nests across games.
const used = new Uint8Array(EDGE_COUNT);
const touched = new Uint8Array(EDGE_COUNT);
const seen = new Uint8Array(VERTEX_COUNT);

function walk(g: Game, seat: number, v: number, len: number): number {
  let best = len;
  // A trail may end at an opponent's town but never continue through it.
  if (len > 0) {
    const owner = g.townOwner[v];
    if (owner !== -1 && owner !== seat) return best;
  }
  for (let i = v * 3; i < v * 3 + 3; i++) {
    const e = VERTEX_EDGES[i];
    if (e === -1 || used[e] || g.roadOwner[e] !== seat) continue;
    used[e] = 1;
    touched[e] = 1;
    const w = EDGE_VERTICES[e * 2] === v ? EDGE_VERTICES[e * 2 + 1] : EDGE_VERTICES[e * 2];
    const l = walk(g, seat, w, len + 1);
    used[e] = 0;
    if (l > best) best = l;
  }
  return best;
}

/** Own roads at v. */
function ownDegree(g: Game, seat: number, v: number): number {
  let d = 0;
  for (let i = v * 3; i < v * 3 + 3; i++) {
    const e = VERTEX_EDGES[i];
    if (e !== -1 && g.roadOwner[e] === seat) d++;
  }
  return d;
}

/**
 * Length of the seat's longest road (longest trail, opponents' towns cut).
 *
 * A longest trail can always be taken to start at a vertex of own degree 1 or
 * 3, or at an opponent's town: a trail starting at an open degree-2 vertex is
 * either extendable by the other edge there, or closed, and a closed trail can
 * be rotated to start at any vertex it visits. Only a component that is a
 * plain cycle has no such vertex; its edges stay untouched by the first pass
 * and are walked from any of their vertices.
 */
export function longestRoadLength(g: Game, seat: number): number {
  return longestTrail(g, seat, null);
}

/** longestRoadLength's search over the seat's roads marked in `part` (all of them when null). */
function longestTrail(g: Game, seat: number, part: Uint8Array | null): number {
  let best = 0;
  seen.fill(0);
  const first = seat * ROAD_LIMIT,
    last = first + roadCount(g, seat);
  for (let i = first; i < last; i++) touched[g.roadList[i]] = 0;
  for (let i = first; i < last; i++) {
    const e = g.roadList[i];
    if (part !== null && part[e] === 0) continue;
    for (let end = 0; end < 2; end++) {
      const v = EDGE_VERTICES[e * 2 + end];
      if (seen[v]) continue;
      seen[v] = 1;
      const owner = g.townOwner[v];
      if (ownDegree(g, seat, v) === 2 && (owner === -1 || owner === seat)) continue;
      const l = walk(g, seat, v, 0);
      if (l > best) best = l;
    }
  }
  for (let i = first; i < last; i++) {
    const e = g.roadList[i];
    if (touched[e] || (part !== null && part[e] === 0)) continue;
    const l = walk(g, seat, EDGE_VERTICES[e * 2], 0);
    if (l > best) best = l;
  }
  return best;
}

const inPart = new Uint8Array(EDGE_COUNT);
const partStack = new Int8Array(EDGE_COUNT);
const partVertex = new Uint8Array(VERTEX_COUNT);
const partVertices = new Int8Array(VERTEX_COUNT);
const dfsVertex = new Int8Array(EDGE_COUNT + 1);
const dfsVia = new Int8Array(EDGE_COUNT + 1);
const dfsDist = new Int8Array(EDGE_COUNT + 1);
let farVia = -1;

/** An opponent's town is at v: a trail may end there but not pass through. */
function cut(g: Game, seat: number, v: number): boolean {
  const owner = g.townOwner[v];
  return owner !== -1 && owner !== seat;
}

/**
 * In a part that is a tree: the greatest distance from v (reached over edge
 * `via`, -1 at the start) in edges, without passing an opponent's town;
 * farVia is set to the last edge of a farthest path.
 */
function farthest(g: Game, seat: number, v: number, via: number, dist: number): number {
  let sp = 0,
    best = -1;
  dfsVertex[sp] = v;
  dfsVia[sp] = via;
  dfsDist[sp++] = dist;
  while (sp > 0) {
    sp--;
    const u = dfsVertex[sp],
      from = dfsVia[sp],
      d = dfsDist[sp];
    if (d > best) {
      best = d;
      farVia = from;
    }
    if (from !== -1 && cut(g, seat, u)) continue;
    for (let i = u * 3; i < u * 3 + 3; i++) {
      const x = VERTEX_EDGES[i];
      if (x === -1 || x === from || g.roadOwner[x] !== seat) continue;
      dfsVertex[sp] = EDGE_VERTICES[x * 2] === u ? EDGE_VERTICES[x * 2 + 1] : EDGE_VERTICES[x * 2];
      dfsVia[sp] = x;
      dfsDist[sp++] = d + 1;
    }
  }
  return best;
}

/**
 * Length of the longest trail among the seat's roads that are reachable from
 * edge e without passing through an opponent's town (e's part of the
 * network), or 0 when that part has no more edges than `atMost`: a trail
 * there can then be no longer, so no search is needed.
 */
function longestInPart(g: Game, seat: number, e: number, atMost: number): number {
  // Collect the part; count its vertices, an opponent's town once per road
  // ending there (no trail passes it, so each such end is a leaf of its own).
  let sp = 0,
    edges = 0,
    vertices = 0,
    distinct = 0;
  partStack[sp++] = e;
  inPart[e] = 1;
  while (sp > 0) {
    const f = partStack[--sp];
    edges++;
    for (let end = 0; end < 2; end++) {
      const v = EDGE_VERTICES[f * 2 + end];
      if (cut(g, seat, v)) {
        vertices++;
        continue;
      }
      if (partVertex[v] === 1) continue;
      partVertex[v] = 1;
      partVertices[distinct++] = v;
      for (let i = v * 3; i < v * 3 + 3; i++) {
        const x = VERTEX_EDGES[i];
        if (x !== -1 && inPart[x] === 0 && g.roadOwner[x] === seat) {
          inPart[x] = 1;
          partStack[sp++] = x;
        }
      }
    }
  }
  vertices += distinct;
  for (let i = 0; i < distinct; i++) partVertex[partVertices[i]] = 0;
  const first = seat * ROAD_LIMIT,
    last = first + roadCount(g, seat);
  if (edges <= atMost || edges === vertices - 1) {
    for (let i = first; i < last; i++) inPart[g.roadList[i]] = 0;
    if (edges <= atMost) return 0;
    // A tree (the common case): the longest trail is its longest path, found
    // by the farthest point from anywhere, then the farthest point from that.
    // Start from an end of e that a trail may pass (a legal road has one).
    const start = cut(g, seat, EDGE_VERTICES[e * 2]) ? EDGE_VERTICES[e * 2 + 1] : EDGE_VERTICES[e * 2];
    if (cut(g, seat, start)) return 1;
    farthest(g, seat, start, -1, 0);
    const leaf = farVia;
    // The far end is a leaf reached over `leaf`: walk back from its other side.
    const a = EDGE_VERTICES[leaf * 2],
      b = EDGE_VERTICES[leaf * 2 + 1];
    const far = farthest(g, seat, a, leaf, 1);
    const far2 = farthest(g, seat, b, leaf, 1);
    return Math.max(far, far2);
  }
  // The same search as longestRoadLength, from this part's vertices only. A
  // start at an opponent's town may also walk into the part beyond it; those
  // trails are real and already counted in the old length, so no harm.
  const best = longestTrail(g, seat, inPart);
  for (let i = first; i < last; i++) inPart[g.roadList[i]] = 0;
  return best;
}

/**
 * The longest trail through the seat's road e, or 0 when none can be longer
 * than `atMost`. Most new roads reach out from the network to a vertex with
 * no other own road: every trail through e then ends there, so the longest is
 * e plus the longest trail from its other end that does not use e, one walk
 * instead of searching the whole part.
 */
function longestThrough(g: Game, seat: number, e: number, atMost: number): number {
  const a = EDGE_VERTICES[e * 2],
    b = EDGE_VERTICES[e * 2 + 1];
  const from = ownDegree(g, seat, b) === 1 ? a : ownDegree(g, seat, a) === 1 ? b : -1;
  if (from === -1) return longestInPart(g, seat, e, atMost);
  used[e] = 1;
  const l = walk(g, seat, from, 1);
  used[e] = 0;
  return l;
}

/**
 * After the seat built roads (the edges given): only trails through them are
 * new, and all of those lie in their part of the network, so the seat's
 * length is the larger of the old one and the longest trail there. Then the
 * award moves as in updateLongestRoad.
 */
export function roadsBuilt(g: Game, seat: number, e1: number, e2 = -1): void {
  let len = g.roadLen[seat];
  const a = longestThrough(g, seat, e1, len);
  if (a > len) len = a;
  if (e2 !== -1) {
    const b = longestThrough(g, seat, e2, len);
    if (b > len) len = b;
  }
  g.roadLen[seat] = len;
  moveLongestRoad(g);
}

/**
 * Recomputes the road lengths of the given seats (bitmask) and moves the
 * longest-road award by the spec's rules:
 * - nobody holds it: the sole strict maximum of 5 or more takes it;
 * - the holder keeps it unless strictly exceeded; then the sole strict maximum takes it, or
 *   nobody when two seats tie above the holder (only possible after a cut);
 * - a holder severed below 5 loses it to the sole strict maximum of 5 or more, or to nobody.
 */
export function updateLongestRoad(g: Game, seatMask: number): void {
  for (let s = 0; s < g.n; s++) if (seatMask & (1 << s)) g.roadLen[s] = longestRoadLength(g, s);
  moveLongestRoad(g);
}

/** Moves the longest-road award by the cached lengths (see updateLongestRoad). */
function moveLongestRoad(g: Game): void {
  const holder = g.longestRoad;
  // The sole strict maximum among all seats other than the holder.
  let max = -1,
    maxSeat = -1,
    ties = 0;
  for (let s = 0; s < g.n; s++) {
    if (s === holder) continue;
    const l = g.roadLen[s];
    if (l > max) {
      max = l;
      maxSeat = s;
      ties = 1;
    } else if (l === max) ties++;
  }
  const sole = ties === 1 && max >= LONGEST_ROAD_MIN ? maxSeat : -1;
  let next = holder;
  if (holder === -1) next = sole;
  else if (g.roadLen[holder] < LONGEST_ROAD_MIN) next = sole;
  else if (max > g.roadLen[holder]) next = sole; // strictly exceeded: to the sole maximum, or nobody if that is tied
  if (next !== holder) {
    g.longestRoad = next;
    if (g.log)
      emit(g, 'award', next === -1 ? undefined : next, {
        award: 'longestRoad',
        seat: next === -1 ? null : next,
        from: holder === -1 ? null : holder,
      });
  }
}

/** After a knight: the first seat to 3+ knights takes largest army; it transfers only when strictly exceeded. */
export function updateLargestArmy(g: Game, seat: number): void {
  const k = g.knights[seat];
  const holder = g.largestArmy;
  if (holder === seat || k < LARGEST_ARMY_MIN) return;
  if (holder !== -1 && k <= g.knights[holder]) return;
  g.largestArmy = seat;
  if (g.log) emit(g, 'award', seat, { award: 'largestArmy', seat, from: holder === -1 ? null : holder });
}
