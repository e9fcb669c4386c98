// The island as text: pointy-top hexes laid out from the spec's lattice
// (engine/board.ts). Every vertex sits on its own text row; slanted sides are
// drawn on the rows of their two ends, upright sides on the rows between.
// Two scales: compact (fits 80x24 beside the panels) and wide.
import { EDGE_COUNT, EDGE_VERTICES, HEX_CENTER, HEX_COUNT, VERTEX_COUNT, VERTEX_XY } from '../../../engine/index';
import type { BoardView } from '../../../engine/index';
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

const columnOf = (g: Geometry, x: number) => g.marginX + g.sx * (x - MIN_X);

/** Where vertex v is drawn: [column, row]. */
export function vertexCell(v: number, scale: BoardScale): [number, number] {
  const g = GEOMETRY[scale];
  return [columnOf(g, VERTEX_XY[v][0]), levelRows(g).get(VERTEX_XY[v][1])!];
}

/**
 * The centre of hex h's number row (its token; the bandit and, on the compact board with ids, its id): [column, row].
 */
export function hexCell(h: number, scale: BoardScale): [number, number] {
  const g = GEOMETRY[scale];
  return [columnOf(g, HEX_CENTER[h][0]), numberRow(levelRows(g), g, h)];
}

/** The row of a hex's number: below the letter (compact), below the name (wide). */
function numberRow(rows: Map<number, number>, g: Geometry, h: number): number {
  return rows.get(HEX_CENTER[h][1] - 1)! + (g.sx === 3 ? 1 : 2);
}

export function renderBoard(state: BoardState, scale: BoardScale): Line[] {
  const g = GEOMETRY[scale];
  const rows = levelRows(g);
  const { width, height } = boardSize(scale);
  const grid = new Grid(width, height);
  const col = (x: number) => columnOf(g, x);
  const vpos = (v: number): [number, number] => [col(VERTEX_XY[v][0]), rows.get(VERTEX_XY[v][1])!];
  const half = (g.sx - 1) / 2;

  const roadOwner = new Map(state.roads.map((r) => [r.edge, r.seat]));
  const townAt = new Map(state.towns.map((t) => [t.vertex, t]));
  // With ids on, an empty vertex shows its number; a road's seat digit right
  // beside it would run into that number ("23" + "3"), so there the road keeps
  // its side character (still in the seat's colour).
  const labelled = (v: number) => state.showIds === true && !townAt.has(v);
  // A label is drawn ending at the vertex's column: the cell just right of
  // the vertex, and the one just left of the label's first digit, touch it.
  const touchesLabel = (v: number, dir: number, i: number) =>
    labelled(v) && (dir > 0 ? i === 1 : i === String(v).length);
  for (let e = 0; e < EDGE_COUNT; e++) {
    const a = EDGE_VERTICES[e * 2],
      b = EDGE_VERTICES[e * 2 + 1];
    const owner = roadOwner.get(e);
    const style: Style =
      owner === undefined ? EDGE_STYLE : { color: seatColour(owner), bold: true, inverse: state.focus?.edge === e };
    const glyph = (plain: string, besideLabel = false) => (owner === undefined || besideLabel ? plain : String(owner));
    const [ca, ra] = vpos(a),
      [cb, rb] = vpos(b);
    if (ca === cb) {
      for (let r = Math.min(ra, rb) + 1; r < Math.max(ra, rb); r++) grid.put(ca, r, glyph('|'), style);
      continue;
    }
    // Slanted side: half its characters on the apex end's row, half on the other's.
    const [apex, valley] = isApexLevel(VERTEX_XY[a][1]) ? [a, b] : [b, a];
    const [apexCol, apexRow] = vpos(apex),
      [valleyCol, valleyRow] = vpos(valley);
    const s = Math.sign(valleyCol - apexCol);
    for (let i = 1; i <= half; i++) {
      grid.put(apexCol + s * i, apexRow, glyph(i === half ? '.' : '-', touchesLabel(apex, s, i)), style);
      grid.put(valleyCol - s * i, valleyRow, glyph(i === half ? "'" : '-', touchesLabel(valley, -s, i)), style);
    }
  }

  for (let h = 0; h < HEX_COUNT; h++) drawHex(grid, g, h, state, col(HEX_CENTER[h][0]), rows);

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
    grid.put(c - 1, r, `${open}${town.seat}${close}`, {
      color: seatColour(town.seat),
      bold: true,
      inverse: state.focus?.vertex === v,
    });
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
  const upperRow = rows.get(HEX_CENTER[h][1] - 1)!; // row of the upper side corners (inside: below the apex)
  const numRow = numberRow(rows, g, h);
  const kindStyle: Style = { color: RESOURCE_COLOUR[hex.resource], bold: hex.resource !== 'desert' };
  const bandit = state.board.bandit === h;
  const banditStyle: Style = { color: 'redBright', bold: true, inverse: true };
  const hot = hex.token === 6 || hex.token === 8;
  const tokenStyle: Style = bandit ? { dim: true } : hot ? { color: 'red', bold: true } : {};
  const mark = hot ? '*' : ' ';
  const producing = state.producing?.includes(h) ?? false;

  // The bandit sits on the hex's number row, between its upright sides, where
  // it reads as inside the hex (the corner rows belong to the neighbours too).
  if (g.sx === 3) {
    grid.put(c, upperRow, RESOURCE_LETTER[hex.resource], { ...kindStyle, inverse: producing });
    if (state.showIds) {
      // No room for both here: with ids on, the hex's id takes its number's place (#7, or X7 under the bandit).
      grid.put(c - 1, numRow, `${bandit ? 'X' : '#'}${h}`, bandit ? banditStyle : { dim: true });
      return;
    }
    if (bandit) {
      // "|X 8* |": the X, then the number with a space on its right, so no road digit runs into it.
      grid.put(hex.token === null ? c : c - 2, numRow, 'X', banditStyle);
      if (hex.token !== null) grid.put(c, numRow, `${hex.token}${mark}`.trimEnd(), tokenStyle);
    } else if (hex.token !== null) {
      grid.put(c - 1, numRow, String(hex.token).padStart(2) + mark, tokenStyle);
    }
    return;
  }
  // Wide: hex id, resource name, token with its odds as pips (or the bandit and the token).
  grid.put(c - 1, upperRow, `h${h}`.padEnd(3), { dim: true });
  const name = hex.resource;
  grid.put(c - Math.floor(name.length / 2), upperRow + 1, name, { ...kindStyle, inverse: producing });
  if (bandit) {
    // The pips give way: a hex under the bandit pays nothing whatever its odds.
    grid.put(hex.token === null ? c - 1 : c - 4, numRow, '(X)', banditStyle);
    if (hex.token !== null) grid.put(c, numRow, `${hex.token}${mark}`.trimEnd(), tokenStyle);
  } else if (hex.token !== null) {
    const pips = 6 - Math.abs(7 - hex.token);
    grid.put(c - 3, numRow, `${String(hex.token).padStart(2)}${mark}${'•'.repeat(pips)}`, tokenStyle);
  }
}

function drawPorts(
  grid: Grid,
  g: Geometry,
  ports: BoardView['ports'],
  vpos: (v: number) => [number, number],
  centreCol: number,
  centreRow: number,
): void {
  for (const p of ports) {
    const [c1, r1] = vpos(p.vertices[0]);
    const [c2, r2] = vpos(p.vertices[1]);
    const mc = (c1 + c2) / 2,
      mr = (r1 + r2) / 2;
    // Outward from the island's centre; text rows are about twice as tall as columns are wide.
    const dc = mc - centreCol,
      dr = (mr - centreRow) * 2;
    const len = Math.hypot(dc, dr) || 1;
    const label = p.rate === 2 && p.resource ? `2${RESOURCE_LETTER[p.resource]}` : '3?';
    const style: Style = p.resource ? { color: RESOURCE_COLOUR[p.resource], bold: true } : { bold: true };
    // Best with a blank cell either side, so the label never runs into a vertex id; else anywhere blank.
    const spots = [g.sx - 0.5, g.sx + 0.5, g.sx - 1.5, g.sx + 1.5, 2].map((dist) => ({
      col: Math.round(mc + (dc / len) * dist - 0.5),
      row: Math.min(grid.height - 1, Math.max(0, Math.round(mr + ((dr / len) * dist) / 2))),
    }));
    const apart = (col: number, row: number) =>
      (col === 0 || grid.isBlank(col - 1, row, 1)) && (col + 2 >= grid.width || grid.isBlank(col + 2, row, 1));
    const spot =
      spots.find((p) => grid.isBlank(p.col, p.row, 2) && apart(p.col, p.row)) ??
      spots.find((p) => grid.isBlank(p.col, p.row, 2));
    if (spot) grid.put(spot.col, spot.row, label, style);
  }
}
