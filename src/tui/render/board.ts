// The island as text: pointy-top hexes laid out from the spec's lattice
// (engine/board.ts). Every vertex sits on its own text row; slanted sides are
// drawn on the rows of their two ends, upright sides on the rows between.
// Two scales: compact (fits 80x24 beside the panels) and wide.
import {
  EDGE_COUNT, EDGE_VERTICES, HEX_CENTER, HEX_COUNT, VERTEX_COUNT, VERTEX_XY,
} from '../../../engine/board';
import type { BoardView } from '../../../engine/types';
import { Grid } from './grid';
import { RESOURCE_COLOUR, RESOURCE_LETTER, seatColour } from './palette';
import type { Line, Style } from './style';

export type BoardScale = 'compact' | 'wide';

/** What the board drawing needs from one moment of the game. */
export interface BoardState {
  board: BoardView;
  roads: ReadonlyArray<{ edge: number; seat: number }>;
  towns: ReadonlyArray<{ vertex: number; seat: number; city: boolean }>;
  /** Hexes that paid out on the last roll, drawn highlighted (optional). */
  producing?: readonly number[];
  /** What the current event built, drawn highlighted (optional). */
  focus?: { vertex?: number; edge?: number };
  /** Label empty vertices and (compact) hexes with their ids, to follow the log's numbers. */
  showIds?: boolean;
}

interface Geometry {
  /** Columns per lattice x unit (odd). */
  sx: number;
  /** Text rows between the two ends of an upright side. */
  vgap: number;
  marginX: number;
  marginY: number;
}

const GEOMETRY: Record<BoardScale, Geometry> = {
  compact: { sx: 3, vgap: 1, marginX: 3, marginY: 1 },
  wide: { sx: 5, vgap: 2, marginX: 4, marginY: 1 },
};

const MIN_X = Math.min(...VERTEX_XY.map(([x]) => x));
const MAX_X = Math.max(...VERTEX_XY.map(([x]) => x));
/** Distinct vertex y levels, top to bottom. */
const LEVELS = [...new Set(VERTEX_XY.map(([, y]) => y))].sort((a, b) => a - b);

/** A level is an "apex" level when its vertices have their slanted sides going down. */
function isApexLevel(y: number): boolean {
  return ((y % 3) + 3) % 3 === 1;
}

function levelRows(g: Geometry): Map<number, number> {
  const rows = new Map<number, number>();
  let row = g.marginY;
  for (const y of LEVELS) {
    rows.set(y, row);
    row += isApexLevel(y) ? 1 : g.vgap + 1;
  }
  return rows;
}

export function boardSize(scale: BoardScale): { width: number; height: number } {
  const g = GEOMETRY[scale];
  const rows = levelRows(g);
  return {
    width: g.sx * (MAX_X - MIN_X) + 1 + 2 * g.marginX,
    height: rows.get(LEVELS[LEVELS.length - 1])! + 1 + g.marginY,
  };
}

const EDGE_STYLE: Style = { dim: true };

export function renderBoard(state: BoardState, scale: BoardScale): Line[] {
  const g = GEOMETRY[scale];
  const rows = levelRows(g);
  const { width, height } = boardSize(scale);
  const grid = new Grid(width, height);
  const col = (x: number) => g.marginX + g.sx * (x - MIN_X);
  const vpos = (v: number): [number, number] => [col(VERTEX_XY[v][0]), rows.get(VERTEX_XY[v][1])!];
  const half = (g.sx - 1) / 2;

  const roadOwner = new Map(state.roads.map((r) => [r.edge, r.seat]));
  for (let e = 0; e < EDGE_COUNT; e++) {
    const a = EDGE_VERTICES[e * 2], b = EDGE_VERTICES[e * 2 + 1];
    const owner = roadOwner.get(e);
    const style: Style = owner === undefined ? EDGE_STYLE : { color: seatColour(owner), bold: true, inverse: state.focus?.edge === e };
    const glyph = (plain: string) => (owner === undefined ? plain : String(owner));
    const [ca, ra] = vpos(a), [cb, rb] = vpos(b);
    if (ca === cb) {
      for (let r = Math.min(ra, rb) + 1; r < Math.max(ra, rb); r++) grid.put(ca, r, glyph('|'), style);
      continue;
    }
    // Slanted side: half its characters on the apex end's row, half on the other's.
    const [apexCol, apexRow, valleyCol, valleyRow] = isApexLevel(VERTEX_XY[a][1]) ? [ca, ra, cb, rb] : [cb, rb, ca, ra];
    const s = Math.sign(valleyCol - apexCol);
    for (let i = 1; i <= half; i++) {
      grid.put(apexCol + s * i, apexRow, glyph(i === half ? '.' : '-'), style);
      grid.put(valleyCol - s * i, valleyRow, glyph(i === half ? "'" : '-'), style);
    }
  }

  for (let h = 0; h < HEX_COUNT; h++) drawHex(grid, g, h, state, col(HEX_CENTER[h][0]), rows);

  const townAt = new Map(state.towns.map((t) => [t.vertex, t]));
  for (let v = 0; v < VERTEX_COUNT; v++) {
    const [c, r] = vpos(v);
    const town = townAt.get(v);
    if (!town) {
      if (state.showIds) grid.put(v < 10 ? c : c - 1, r, String(v), { color: 'yellow' });
      else grid.put(c, r, '·', EDGE_STYLE);
      continue;
    }
    // Settlement (n), city [n]: the shape tells them apart without colour.
    const [open, close] = town.city ? ['[', ']'] : ['(', ')'];
    grid.put(c - 1, r, `${open}${town.seat}${close}`, { color: seatColour(town.seat), bold: true, inverse: state.focus?.vertex === v });
  }

  drawPorts(grid, g, state.board.ports, vpos, col(HEX_CENTER[9][0]), hexMiddleRow(rows, g, 9));
  return grid.toLines();
}

function hexMiddleRow(rows: Map<number, number>, g: Geometry, h: number): number {
  const upper = rows.get(HEX_CENTER[h][1] - 1)!;
  return upper + Math.ceil(g.vgap / 2);
}

function drawHex(grid: Grid, g: Geometry, h: number, state: BoardState, c: number, rows: Map<number, number>): void {
  const hex = state.board.hexes[h];
  if (!hex) return;
  const cy = HEX_CENTER[h][1];
  const upperRow = rows.get(cy - 1)!; // row of the upper side corners (inside: below the apex)
  const lowerRow = rows.get(cy + 1)!; // row of the lower side corners
  const kindStyle: Style = { color: RESOURCE_COLOUR[hex.resource], bold: hex.resource !== 'desert' };
  const bandit = state.board.bandit === h;
  const hot = hex.token === 6 || hex.token === 8;
  const tokenStyle: Style = bandit ? { dim: true } : hot ? { color: 'red', bold: true } : {};
  const mark = hot ? '*' : ' ';
  const producing = state.producing?.includes(h) ?? false;

  if (g.sx === 3) {
    grid.put(c, upperRow, RESOURCE_LETTER[hex.resource], { ...kindStyle, inverse: producing });
    if (hex.token !== null) grid.put(c - 1, upperRow + 1, String(hex.token).padStart(2) + mark, tokenStyle);
    // With ids on, the bottom of the hex reads #7 (or X7 under the bandit).
    if (state.showIds) grid.put(c - 1, lowerRow, `${bandit ? 'X' : '#'}${h}`, bandit ? { color: 'redBright', bold: true, inverse: true } : { dim: true });
    else if (bandit) grid.put(c, lowerRow, 'X', { color: 'redBright', bold: true, inverse: true });
    return;
  }
  // Wide: hex id, resource name, token with its odds as pips, the bandit.
  grid.put(c - 1, upperRow, `h${h}`.padEnd(3), { dim: true });
  const name = hex.resource;
  grid.put(c - Math.floor(name.length / 2), upperRow + 1, name, { ...kindStyle, inverse: producing });
  if (hex.token !== null) {
    const pips = 6 - Math.abs(7 - hex.token);
    const text = `${String(hex.token).padStart(2)}${mark}${'•'.repeat(pips)}`;
    grid.put(c - 3, upperRow + 2, text, tokenStyle);
  }
  if (bandit) grid.put(c - 1, lowerRow, '(X)', { color: 'redBright', bold: true, inverse: true });
}

function drawPorts(
  grid: Grid, g: Geometry, ports: BoardView['ports'],
  vpos: (v: number) => [number, number], centreCol: number, centreRow: number,
): void {
  for (const p of ports) {
    const [c1, r1] = vpos(p.vertices[0]);
    const [c2, r2] = vpos(p.vertices[1]);
    const mc = (c1 + c2) / 2, mr = (r1 + r2) / 2;
    // Outward from the island's centre; text rows are about twice as tall as columns are wide.
    const dc = mc - centreCol, dr = (mr - centreRow) * 2;
    const len = Math.hypot(dc, dr) || 1;
    const label = p.rate === 2 && p.resource ? `2${RESOURCE_LETTER[p.resource]}` : '3?';
    const style: Style = p.resource ? { color: RESOURCE_COLOUR[p.resource], bold: true } : { bold: true };
    for (const dist of [g.sx - 0.5, g.sx + 0.5, g.sx - 1.5, g.sx + 1.5, 2]) {
      const col = Math.round(mc + (dc / len) * dist - 0.5);
      const row = Math.min(grid.height - 1, Math.max(0, Math.round(mr + ((dr / len) * dist) / 2)));
      if (grid.isBlank(col, row, 2)) {
        grid.put(col, row, label, style);
        break;
      }
    }
  }
}
