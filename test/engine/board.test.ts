import { describe, expect, it } from 'vitest';
import * as B from '../../engine/board';

// The spec's printed table: vertices of each hex, in corner order.
const SPEC_HEX_VERTICES = [
  [0, 4, 8, 12, 7, 3],
  [1, 5, 9, 13, 8, 4],
  [2, 6, 10, 14, 9, 5],
  [7, 12, 17, 22, 16, 11],
  [8, 13, 18, 23, 17, 12],
  [9, 14, 19, 24, 18, 13],
  [10, 15, 20, 25, 19, 14],
  [16, 22, 28, 33, 27, 21],
  [17, 23, 29, 34, 28, 22],
  [18, 24, 30, 35, 29, 23],
  [19, 25, 31, 36, 30, 24],
  [20, 26, 32, 37, 31, 25],
  [28, 34, 39, 43, 38, 33],
  [29, 35, 40, 44, 39, 34],
  [30, 36, 41, 45, 40, 35],
  [31, 37, 42, 46, 41, 36],
  [39, 44, 48, 51, 47, 43],
  [40, 45, 49, 52, 48, 44],
  [41, 46, 50, 53, 49, 45],
];

const SPEC_PORTS = [
  { resource: undefined, vertices: [0, 3] },
  { resource: 'brick', vertices: [11, 16] },
  { resource: undefined, vertices: [33, 38] },
  { resource: 'lumber', vertices: [47, 51] },
  { resource: undefined, vertices: [49, 52] },
  { resource: 'wool', vertices: [42, 46] },
  { resource: 'grain', vertices: [26, 32] },
  { resource: undefined, vertices: [10, 15] },
  { resource: 'ore', vertices: [1, 5] },
];

describe('board numbering', () => {
  it('has 19 hexes, 54 vertices, 72 edges and 30 coastal edges', () => {
    expect(B.HEX_CENTER).toHaveLength(19);
    expect(B.VERTEX_XY).toHaveLength(B.VERTEX_COUNT);
    expect(B.VERTEX_COUNT).toBe(54);
    expect(B.EDGE_VERTICES.length / 2).toBe(72);
    expect(B.COAST_RING).toHaveLength(30);
    expect([...B.EDGE_HEX_COUNT].filter((c) => c === 1)).toHaveLength(30);
  });

  it('matches the spec table of hex vertices', () => {
    for (let h = 0; h < 19; h++) expect(B.hexVertices(h)).toEqual(SPEC_HEX_VERTICES[h]);
  });

  it('numbers edge 0 as (0,3) and edge 1 as (0,4), sorted by (low, high)', () => {
    expect([B.EDGE_VERTICES[0], B.EDGE_VERTICES[1]]).toEqual([0, 3]);
    expect([B.EDGE_VERTICES[2], B.EDGE_VERTICES[3]]).toEqual([0, 4]);
    for (let e = 1; e < 72; e++) {
      const prev = B.EDGE_VERTICES[(e - 1) * 2] * 64 + B.EDGE_VERTICES[(e - 1) * 2 + 1];
      const cur = B.EDGE_VERTICES[e * 2] * 64 + B.EDGE_VERTICES[e * 2 + 1];
      expect(cur).toBeGreaterThan(prev);
      expect(B.EDGE_VERTICES[e * 2]).toBeLessThan(B.EDGE_VERTICES[e * 2 + 1]);
    }
  });

  it('places the nine ports exactly as the spec resolves them', () => {
    expect(B.PORTS.map((p) => ({ resource: p.resource, vertices: [...p.vertices] }))).toEqual(SPEC_PORTS);
    expect(B.PORTS.map((p) => p.rate)).toEqual([3, 2, 3, 2, 3, 2, 2, 3, 2]);
    expect(B.VERTEX_PORT[0]).toBe(5);
    expect(B.VERTEX_PORT[1]).toBe(B.RESOURCES.indexOf('ore'));
    expect(B.VERTEX_PORT[2]).toBe(-1);
  });

  it('has symmetric, consistent adjacency tables', () => {
    for (let v = 0; v < 54; v++) {
      const nbrs = B.slots(B.VERTEX_VERTICES, v, 3);
      expect(nbrs.length).toBeGreaterThanOrEqual(2);
      for (const w of nbrs) {
        expect(B.slots(B.VERTEX_VERTICES, w, 3)).toContain(v);
        const e = B.edgeBetween(v, w);
        expect(B.slots(B.VERTEX_EDGES, v, 3)).toContain(e);
      }
      for (const h of B.slots(B.VERTEX_HEXES, v, 3)) expect(B.hexVertices(h)).toContain(v);
    }
    expect(B.edgeBetween(0, 1)).toBe(-1);
    for (let e = 0; e < 72; e++) {
      for (const f of B.slots(B.EDGE_EDGES, e, 4)) expect(B.slots(B.EDGE_EDGES, f, 4)).toContain(e);
    }
  });
});
