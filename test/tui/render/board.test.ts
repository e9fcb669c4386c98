// The board drawing: every distinction readable without colour.
import { describe, expect, it } from 'vitest';
import { EDGE_COUNT, PORTS, VERTEX_COUNT, VERTEX_EDGES, slots } from '../../../engine/board';
import type { BoardView } from '../../../engine/types';
import { boardSize, hexCell, renderBoard, vertexCell, type BoardScale } from '../../../src/tui/render/board';
import { lineText, plainText } from '../../../src/tui/render/style';

const KINDS = ['brick', 'lumber', 'wool', 'grain', 'ore'] as const;
const TOKENS = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12];
function testBoard(bandit: number): BoardView {
  let k = 0;
  return {
    hexes: Array.from({ length: 19 }, (_, id) =>
      id === 9 ? { id, resource: 'desert' as const, token: null } : { id, resource: KINDS[id % 5], token: TOKENS[k++] },
    ),
    ports: PORTS.map((p) => ({
      vertices: [p.vertices[0], p.vertices[1]] as [number, number],
      rate: p.rate,
      ...(p.resource ? { resource: p.resource } : {}),
    })),
    bandit,
  };
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

/** The run of digits in `line` that covers column `col` ('' when that cell is no digit). */
function digitRunAt(line: string, col: number): string {
  const chars = [...line];
  if (!/[0-9]/.test(chars[col] ?? '')) return '';
  let a = col,
    b = col;
  while (a > 0 && /[0-9]/.test(chars[a - 1])) a--;
  while (b + 1 < chars.length && /[0-9]/.test(chars[b + 1])) b++;
  return chars.slice(a, b + 1).join('');
}

describe.each(['compact', 'wide'] as BoardScale[])('renderBoard (%s)', (scale) => {
  const empty = renderBoard({ board: testBoard(9), roads: [], towns: [] }, scale);
  const text = plainText(empty);

  it('has the size it reports, every line within it', () => {
    const size = boardSize(scale);
    expect(empty).toHaveLength(size.height);
    for (const l of empty) expect(lineText(l).length).toBeLessThanOrEqual(size.width);
  });

  it('marks all 54 vertices, the bandit, 6s and 8s, and the nine ports', () => {
    expect(count(text, '·')).toBe(54);
    expect(count(text, 'X')).toBe(1);
    expect(count(text, '6*')).toBe(2);
    expect(count(text, '8*')).toBe(2);
    expect(count(text, '3?')).toBe(4);
    for (const r of ['B', 'L', 'W', 'G', 'O']) expect(count(text, `2${r}`)).toBe(1);
  });

  it('shows settlements as (n), cities as [n] and roads as the seat digit', () => {
    const board = testBoard(0);
    const towns = [
      { vertex: 24, seat: 2, city: false },
      { vertex: 40, seat: 1, city: true },
    ];
    const road = slots(VERTEX_EDGES, 24, 3)[0];
    const without = plainText(renderBoard({ board, roads: [], towns }, scale));
    const withRoad = plainText(renderBoard({ board, roads: [{ edge: road, seat: 3 }], towns }, scale));
    expect(count(without, '(2)')).toBe(1);
    expect(count(without, '[1]')).toBe(1);
    expect(count(without, '·')).toBe(52);
    // The road replaces side characters with its seat's digit and changes nothing else.
    expect(count(withRoad, '3')).toBeGreaterThan(count(without, '3'));
    const a = [...without],
      b = [...withRoad];
    expect(b).toHaveLength(a.length);
    const changed = a.map((c, i) => [c, b[i]]).filter(([c, d]) => c !== d);
    expect(changed.length).toBeGreaterThan(0);
    for (const [before, after] of changed) {
      expect(after).toBe('3');
      expect("-.'|").toContain(before);
    }
  });

  it('labels vertices and hexes with their ids on request', () => {
    const ids = plainText(
      renderBoard(
        { board: testBoard(9), roads: [], towns: [{ vertex: 40, seat: 1, city: false }], showIds: true },
        scale,
      ),
    );
    expect(count(ids, '·')).toBe(0);
    for (const v of [0, 9, 10, 39, 41, 53]) expect(ids).toContain(String(v));
    expect(count(ids, '(1)')).toBe(1);
    if (scale === 'compact') {
      expect(ids).toContain('X9');
      for (const h of [0, 7, 18]) expect(ids).toContain(`#${h}`);
    } else {
      for (const h of [0, 7, 18]) expect(ids).toContain(`h${h}`);
    }
  });

  it('draws the bandit inside its hex, on the row of its number, not on the corner row below', () => {
    for (const hex of [9, 0, 13]) {
      const lines = plainText(renderBoard({ board: testBoard(hex), roads: [], towns: [] }, scale)).split('\n');
      const rows = lines.filter((l) => l.includes('X'));
      expect(rows, `bandit on hex ${hex}`).toHaveLength(1);
      const [, row] = hexCell(hex, scale);
      expect(lines[row]).toContain('X');
      // The number row of a hex lies between its upright sides: '|', never a vertex '·'.
      expect(rows[0]).toContain('|');
      expect(rows[0]).not.toContain('·');
      const token = testBoard(hex).hexes[hex].token;
      if (token !== null) expect(rows[0]).toMatch(new RegExp(`X\\)? +${token}\\b`));
    }
  });

  it('keeps every id label apart from its neighbours, even with roads on every side and towns around', () => {
    const allRoads = Array.from({ length: EDGE_COUNT }, (_, edge) => ({ edge, seat: edge % 4 }));
    const towns = [
      { vertex: 16, seat: 0, city: false },
      { vertex: 31, seat: 2, city: true },
      { vertex: 32, seat: 1, city: false },
    ];
    for (const bandit of [9, 11]) {
      const lines = plainText(
        renderBoard({ board: testBoard(bandit), roads: allRoads, towns, showIds: true }, scale),
      ).split('\n');
      const text = lines.join('\n');
      for (let v = 0; v < VERTEX_COUNT; v++) {
        if (towns.some((t) => t.vertex === v)) continue;
        const [col, row] = vertexCell(v, scale);
        expect(digitRunAt(lines[row], col), `vertex ${v}`).toBe(String(v));
      }
      // A hex label stands alone: nothing but spaces and side characters on either side.
      const label = (h: number) =>
        new RegExp(`(^|[\\s|'.\\-])${scale === 'compact' ? '[#X]' : 'h'}${h}(?=[\\s|'.\\-]|$)`, 'm');
      for (let h = 0; h < 19; h++) expect(text, `hex ${h}`).toMatch(label(h));
      if (scale === 'compact') expect(text).toContain(`X${bandit}`);
      // Ports too keep a space from vertex ids and towns.
      expect(text).not.toMatch(/(2[BLWGO]|3\?)[0-9([]|[0-9)\]](2[BLWGO]|3\?)/);
    }
  });

  it('contains no escape codes in plain text', () => {
    expect(text).not.toMatch(/\x1b/);
  });
});

describe('board scales', () => {
  it('compact fits beside 40 columns of panels in 80x24', () => {
    const { width, height } = boardSize('compact');
    expect(width).toBeLessThanOrEqual(40);
    expect(height).toBeLessThanOrEqual(21);
  });
  it('wide uses more room', () => {
    expect(boardSize('wide').width).toBeGreaterThan(boardSize('compact').width);
  });
});
