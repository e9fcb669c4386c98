// The board as plain data for bot authors in any language (`arena board
// --json`): the fixed geometry of the spec's numbering, and optionally one
// seed's resources and tokens. Everything here is derived from engine/board.ts,
// so it can never disagree with the engine.
import {
  EDGE_COUNT,
  EDGE_EDGES,
  EDGE_VERTICES,
  HEX_CENTER,
  HEX_COUNT,
  HEX_ROW_COL,
  PORTS,
  VERTEX_COUNT,
  VERTEX_EDGES,
  VERTEX_HEXES,
  VERTEX_PORT,
  VERTEX_VERTICES,
  VERTEX_XY,
  RESOURCES,
  hexVertices,
  slots,
  type Port,
} from './board';
import { boardView } from './view';
import { createGame, RULES_VERSION } from './state';
import type { BoardView } from './types';

export interface BoardData {
  rulesVersion: string;
  counts: { hexes: number; vertices: number; edges: number };
  hexes: Array<{ id: number; row: number; col: number; center: [number, number]; vertices: number[] }>;
  vertices: Array<{
    id: number;
    xy: [number, number];
    neighbours: number[];
    edges: number[];
    hexes: number[];
    /** The port a town here can use, or null. */
    port: { rate: 2 | 3; resource?: string } | null;
  }>;
  edges: Array<{ id: number; vertices: [number, number]; edges: number[] }>;
  ports: Port[];
  /** Present when a seed was given: that seed's resources, tokens and the bandit's start. */
  layout?: { seed: string } & BoardView;
}

export function boardData(seed?: string): BoardData {
  const data: BoardData = {
    rulesVersion: RULES_VERSION,
    counts: { hexes: HEX_COUNT, vertices: VERTEX_COUNT, edges: EDGE_COUNT },
    hexes: HEX_CENTER.map(([x, y], id) => ({
      id,
      row: HEX_ROW_COL[id][0],
      col: HEX_ROW_COL[id][1],
      center: [x, y],
      vertices: hexVertices(id),
    })),
    vertices: VERTEX_XY.map(([x, y], id) => {
      const code = VERTEX_PORT[id];
      return {
        id,
        xy: [x, y],
        neighbours: slots(VERTEX_VERTICES, id, 3),
        edges: slots(VERTEX_EDGES, id, 3),
        hexes: slots(VERTEX_HEXES, id, 3),
        port: code === -1 ? null : code === 5 ? { rate: 3 as const } : { rate: 2 as const, resource: RESOURCES[code] },
      };
    }),
    edges: Array.from({ length: EDGE_COUNT }, (_, id) => ({
      id,
      vertices: [EDGE_VERTICES[id * 2], EDGE_VERTICES[id * 2 + 1]] as [number, number],
      edges: slots(EDGE_EDGES, id, 4),
    })),
    ports: PORTS.map((p) => ({ ...p, vertices: [p.vertices[0], p.vertices[1]] as const })),
  };
  if (seed !== undefined) {
    // The board shuffle depends only on the seed, not on the seat count.
    data.layout = { seed, ...boardView(createGame(seed, 4, false)) };
  }
  return data;
}
