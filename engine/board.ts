// Board numbering and adjacency, derived at load time from the spec's rules
// (section 3, "Board numbering (fixed forever)"), never typed in by hand.
// Everything is a flat typed array so hot loops index without allocating.

export const HEX_COUNT = 19;
export const VERTEX_COUNT = 54;
export const EDGE_COUNT = 72;

/** Resource indices used throughout the engine. The spec's names map 1:1. */
export const RESOURCES = ['brick', 'lumber', 'wool', 'grain', 'ore'] as const;
export type ResourceName = (typeof RESOURCES)[number];
export const DESERT = 5;
export type HexKind = ResourceName | 'desert';
export const HEX_KINDS: readonly HexKind[] = [...RESOURCES, 'desert'];

const ROW_LENGTHS = [3, 4, 5, 4, 3];
const ROW_OFFSETS = [2, 1, 0, 1, 2];
/** Corner offsets from a hex centre, in the spec's corner order. */
const CORNERS: ReadonlyArray<readonly [number, number]> = [
  [0, -2],
  [1, -1],
  [1, 1],
  [0, 2],
  [-1, 1],
  [-1, -1],
];

/** Lattice coordinates of each hex centre (x, y), as in the spec. */
export const HEX_CENTER: ReadonlyArray<readonly [number, number]> = (() => {
  const out: Array<[number, number]> = [];
  ROW_LENGTHS.forEach((len, r) => {
    for (let c = 0; c < len; c++) out.push([2 * c + ROW_OFFSETS[r], 3 * r]);
  });
  return out;
})();

/** Row and column of each hex (row-major, rows of 3, 4, 5, 4, 3). */
export const HEX_ROW_COL: ReadonlyArray<readonly [number, number]> = (() => {
  const out: Array<[number, number]> = [];
  ROW_LENGTHS.forEach((len, r) => {
    for (let c = 0; c < len; c++) out.push([r, c]);
  });
  return out;
})();

/** Lattice coordinates (x, y) of each vertex, in vertex-id order. */
export const VERTEX_XY: ReadonlyArray<readonly [number, number]> = (() => {
  const seen = new Map<string, [number, number]>();
  for (const [cx, cy] of HEX_CENTER) {
    for (const [dx, dy] of CORNERS) seen.set(`${cx + dx},${cy + dy}`, [cx + dx, cy + dy]);
  }
  return [...seen.values()].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
})();

const vertexIdByXY = new Map<string, number>(VERTEX_XY.map(([x, y], i) => [`${x},${y}`, i]));

/** HEX_VERTICES[h * 6 + k] = vertex at corner k of hex h (spec corner order). */
export const HEX_VERTICES = new Int8Array(HEX_COUNT * 6);
HEX_CENTER.forEach(([cx, cy], h) => {
  CORNERS.forEach(([dx, dy], k) => {
    HEX_VERTICES[h * 6 + k] = vertexIdByXY.get(`${cx + dx},${cy + dy}`)!;
  });
});

/** Edge endpoints as (low, high) pairs, sorted by (low, high). */
export const EDGE_VERTICES = new Int8Array(EDGE_COUNT * 2);
/** How many hexes each edge borders (1 on the coast, 2 inland). */
export const EDGE_HEX_COUNT = new Int8Array(EDGE_COUNT);
const edgeIdByPair = new Map<number, number>();
{
  const sides = new Map<number, number>(); // key low*64+high -> hex count
  for (let h = 0; h < HEX_COUNT; h++) {
    for (let k = 0; k < 6; k++) {
      const a = HEX_VERTICES[h * 6 + k];
      const b = HEX_VERTICES[h * 6 + ((k + 1) % 6)];
      const key = Math.min(a, b) * 64 + Math.max(a, b);
      sides.set(key, (sides.get(key) ?? 0) + 1);
    }
  }
  const keys = [...sides.keys()].sort((x, y) => x - y);
  if (keys.length !== EDGE_COUNT) throw new Error(`board: expected ${EDGE_COUNT} edges, derived ${keys.length}`);
  keys.forEach((key, e) => {
    EDGE_VERTICES[e * 2] = key >> 6;
    EDGE_VERTICES[e * 2 + 1] = key & 63;
    EDGE_HEX_COUNT[e] = sides.get(key)!;
    edgeIdByPair.set(key, e);
  });
}

/** The edge joining two vertices, or -1 when they are not adjacent. */
export function edgeBetween(a: number, b: number): number {
  return edgeIdByPair.get(Math.min(a, b) * 64 + Math.max(a, b)) ?? -1;
}

/** Up to 3 entries per vertex, padded with -1: neighbouring vertices, touching edges, touching hexes. */
export const VERTEX_VERTICES = new Int8Array(VERTEX_COUNT * 3).fill(-1);
export const VERTEX_EDGES = new Int8Array(VERTEX_COUNT * 3).fill(-1);
export const VERTEX_HEXES = new Int8Array(VERTEX_COUNT * 3).fill(-1);
function pushSlot(arr: Int8Array, v: number, value: number): void {
  for (let i = v * 3; i < v * 3 + 3; i++) {
    if (arr[i] === value) return;
    if (arr[i] === -1) {
      arr[i] = value;
      return;
    }
  }
  throw new Error(`board: vertex ${v} has more than 3 neighbours`);
}
for (let e = 0; e < EDGE_COUNT; e++) {
  const a = EDGE_VERTICES[e * 2],
    b = EDGE_VERTICES[e * 2 + 1];
  pushSlot(VERTEX_VERTICES, a, b);
  pushSlot(VERTEX_VERTICES, b, a);
  pushSlot(VERTEX_EDGES, a, e);
  pushSlot(VERTEX_EDGES, b, e);
}
for (let h = 0; h < HEX_COUNT; h++) {
  for (let k = 0; k < 6; k++) pushSlot(VERTEX_HEXES, HEX_VERTICES[h * 6 + k], h);
}

/** Up to 4 edges sharing an endpoint with each edge, padded with -1. */
export const EDGE_EDGES = new Int8Array(EDGE_COUNT * 4).fill(-1);
for (let e = 0; e < EDGE_COUNT; e++) {
  let n = 0;
  for (let end = 0; end < 2; end++) {
    const v = EDGE_VERTICES[e * 2 + end];
    for (let i = v * 3; i < v * 3 + 3; i++) {
      const f = VERTEX_EDGES[i];
      if (f !== -1 && f !== e) EDGE_EDGES[e * 4 + n++] = f;
    }
  }
}

/** The 30 coastal edges as a ring: from the lowest-id coastal edge toward its higher vertex. */
export const COAST_RING: readonly number[] = (() => {
  const coastal = new Set<number>();
  for (let e = 0; e < EDGE_COUNT; e++) if (EDGE_HEX_COUNT[e] === 1) coastal.add(e);
  const first = Math.min(...coastal);
  const ring = [first];
  let at = EDGE_VERTICES[first * 2 + 1];
  let prev = first;
  while (ring.length < coastal.size) {
    let next = -1;
    for (let i = at * 3; i < at * 3 + 3; i++) {
      const f = VERTEX_EDGES[i];
      if (f !== -1 && f !== prev && coastal.has(f)) next = f;
    }
    if (next === -1 || next === first) throw new Error('board: coast is not a single ring');
    ring.push(next);
    at = EDGE_VERTICES[next * 2] === at ? EDGE_VERTICES[next * 2 + 1] : EDGE_VERTICES[next * 2];
    prev = next;
  }
  return ring;
})();

export interface Port {
  /** The two vertices of the port's coastal edge, low first. */
  vertices: readonly [number, number];
  rate: 2 | 3;
  /** Absent for a generic 3:1 port. */
  resource?: ResourceName;
}

/** Ring positions and kinds of the nine fixed ports, in ring order. */
const PORT_POSITIONS = [0, 3, 7, 10, 13, 17, 20, 23, 27];
const PORT_KINDS: ReadonlyArray<ResourceName | null> = [
  null,
  'brick',
  null,
  'lumber',
  null,
  'wool',
  'grain',
  null,
  'ore',
];

export const PORTS: readonly Port[] = PORT_POSITIONS.map((pos, i) => {
  const e = COAST_RING[pos];
  const kind = PORT_KINDS[i];
  const vertices = [EDGE_VERTICES[e * 2], EDGE_VERTICES[e * 2 + 1]] as const;
  return kind === null ? { vertices, rate: 3 as const } : { vertices, rate: 2 as const, resource: kind };
});

/** Port at each vertex: -1 none, 0..4 the resource of a 2:1 port, 5 a generic 3:1 port. */
export const VERTEX_PORT = new Int8Array(VERTEX_COUNT).fill(-1);
for (const p of PORTS) {
  const code = p.resource === undefined ? 5 : RESOURCES.indexOf(p.resource);
  VERTEX_PORT[p.vertices[0]] = code;
  VERTEX_PORT[p.vertices[1]] = code;
}

/** Vertices of hex h, in corner order. */
export function hexVertices(h: number): number[] {
  return Array.from(HEX_VERTICES.subarray(h * 6, h * 6 + 6));
}

/** Neighbours of a padded-by-(-1) slot table entry, e.g. slots(VERTEX_EDGES, v, 3). */
export function slots(table: Int8Array, index: number, width: number): number[] {
  const out: number[] = [];
  for (let i = index * width; i < index * width + width; i++) if (table[i] !== -1) out.push(table[i]);
  return out;
}
