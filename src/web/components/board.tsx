// The hex board as SVG, drawn from the engine's own geometry (engine/board.ts:
// hex centres, vertex coordinates, edge endpoints, ports). The lattice has
// corners at (±1, ±1) and (0, ±2) around each centre; scaling x by √3 makes
// the hexagons regular.
import { memo, useEffect } from 'react';
import { EDGE_VERTICES, HEX_CENTER, PORTS, VERTEX_XY, hexVertices } from '../../../engine/index';
import type { PublicView } from '../../../engine/index';

const SX = Math.sqrt(3);
const px = (x: number) => x * SX;
const at = (v: number): [number, number] => [px(VERTEX_XY[v][0]), VERTEX_XY[v][1]];
// Board centre on the lattice: the middle hex (9).
const CX = px(HEX_CENTER[9][0]);
const CY = HEX_CENTER[9][1];
const MARGIN = 2.2;
const XS = VERTEX_XY.map(([x]) => px(x));
const YS = VERTEX_XY.map(([, y]) => y);
const VIEWBOX = [
  Math.min(...XS) - MARGIN,
  Math.min(...YS) - MARGIN,
  Math.max(...XS) - Math.min(...XS) + 2 * MARGIN,
  Math.max(...YS) - Math.min(...YS) + 2 * MARGIN,
]
  .map((n) => n.toFixed(3))
  .join(' ');

const HEX_POINTS: string[] = HEX_CENTER.map((_, h) =>
  hexVertices(h)
    .map((v) => at(v).join(','))
    .join(' '),
);

const RES_SHORT: Record<string, string> = {
  brick: 'brick',
  lumber: 'lumber',
  wool: 'wool',
  grain: 'grain',
  ore: 'ore',
};

function pips(token: number): number {
  return 6 - Math.abs(7 - token);
}

function House({ x, y, seat, city }: { x: number; y: number; seat: number; city: boolean }) {
  // A settlement is a small house; a city a wider, taller block with a roof.
  const s = city ? 0.62 : 0.44;
  const pts = city
    ? [
        [-s, s * 0.7],
        [s, s * 0.7],
        [s, -s * 0.1],
        [0, -s * 0.1],
        [0, -s * 0.55],
        [-s * 0.5, -s],
        [-s, -s * 0.55],
      ]
    : [
        [-s, s * 0.8],
        [s, s * 0.8],
        [s, -s * 0.2],
        [0, -s],
        [-s, -s * 0.2],
      ];
  return (
    <polygon
      className={`town seat${seat}`}
      points={pts.map(([dx, dy]) => `${(x + dx).toFixed(3)},${(y + dy).toFixed(3)}`).join(' ')}
    >
      <title>{`${city ? 'City' : 'Settlement'} of seat ${seat}`}</title>
    </polygon>
  );
}

export interface BoardProps {
  view: PublicView;
  /** Bot names per seat, for the accessible description. */
  names?: readonly string[];
}

export const Board = memo(function Board({ view, names = [] }: BoardProps) {
  const hexes = [...view.board.hexes].sort((a, b) => a.id - b.id);
  const who = (s: number) => names[s] ?? `seat ${s}`;
  const summary =
    `Board, turn ${view.turn}: ${view.towns.length} towns and ${view.roads.length} roads placed; the bandit is on hex ${view.board.bandit}. ` +
    Array.from({ length: view.seatCount }, (_, s) => {
      const towns = view.towns.filter((t) => t.seat === s);
      const cities = towns.filter((t) => t.city).length;
      return `${who(s)}: ${towns.length - cities} settlements, ${cities} cities, ${view.roads.filter((r) => r.seat === s).length} roads`;
    }).join('; ') +
    '.';
  const [bx, by] = [px(HEX_CENTER[view.board.bandit][0]), HEX_CENTER[view.board.bandit][1]];
  useEffect(() => {
    // For load-time measurements: when the first board reached the page.
    if (performance.getEntriesByName('arena:board').length === 0) performance.mark('arena:board');
  }, []);
  return (
    <svg className="board" viewBox={VIEWBOX} role="img" aria-label={summary} data-turn={view.turn}>
      <g aria-hidden="true">
        {hexes.map((hex) => {
          const [cx, cy] = [px(HEX_CENTER[hex.id][0]), HEX_CENTER[hex.id][1]];
          return (
            <g key={hex.id} data-hex={hex.id}>
              <polygon className={`hex ${hex.resource}`} points={HEX_POINTS[hex.id]}>
                <title>{`Hex ${hex.id}: ${hex.resource}${hex.token ? ` ${hex.token}` : ''}`}</title>
              </polygon>
              {hex.token !== null && (
                <g className={`token${hex.token === 6 || hex.token === 8 ? ' hot' : ''}`}>
                  <circle cx={cx} cy={cy} r={0.55} />
                  <text x={cx} y={cy - 0.06}>
                    {hex.token}
                  </text>
                  <text className="pips" x={cx} y={cy + 0.32}>
                    {'•'.repeat(pips(hex.token))}
                  </text>
                </g>
              )}
              <text className="res-label" x={cx} y={cy + (hex.token === null ? 0 : 0.95)}>
                {RES_SHORT[hex.resource] ?? 'desert'}
              </text>
            </g>
          );
        })}
        {PORTS.map((p, i) => {
          const [a, b] = [at(p.vertices[0]), at(p.vertices[1])];
          const mx = (a[0] + b[0]) / 2;
          const my = (a[1] + b[1]) / 2;
          const len = Math.hypot(mx - CX, my - CY) || 1;
          const ox = mx + ((mx - CX) / len) * 1.05;
          const oy = my + ((my - CY) / len) * 1.05;
          return (
            <g key={i} className="port" data-port={i}>
              <line x1={ox} y1={oy} x2={a[0]} y2={a[1]} />
              <line x1={ox} y1={oy} x2={b[0]} y2={b[1]} />
              <circle cx={ox} cy={oy} r={0.5} />
              <text x={ox} y={oy - 0.12}>{`${p.rate}:1`}</text>
              <text x={ox} y={oy + 0.2}>
                {p.resource ?? 'any'}
              </text>
              <title>{p.resource ? `2:1 ${p.resource} port` : '3:1 port'}</title>
            </g>
          );
        })}
        {view.roads.map((r) => {
          const [a, b] = [at(EDGE_VERTICES[r.edge * 2]), at(EDGE_VERTICES[r.edge * 2 + 1])];
          // Shortened a little so roads do not run under the towns at their ends.
          const k = 0.18;
          const x1 = a[0] + (b[0] - a[0]) * k,
            y1 = a[1] + (b[1] - a[1]) * k;
          const x2 = b[0] + (a[0] - b[0]) * k,
            y2 = b[1] + (a[1] - b[1]) * k;
          return (
            <g key={`r${r.edge}`} data-road={r.edge} data-seat={r.seat}>
              <line className="road-edge" x1={x1} y1={y1} x2={x2} y2={y2} />
              <line className={`road seat${r.seat}`} x1={x1} y1={y1} x2={x2} y2={y2}>
                <title>{`Road of seat ${r.seat}`}</title>
              </line>
            </g>
          );
        })}
        {view.towns.map((t) => {
          const [x, y] = at(t.vertex);
          return (
            <g key={`t${t.vertex}`} data-town={t.vertex} data-seat={t.seat} data-city={t.city ? 'true' : 'false'}>
              <House x={x} y={y} seat={t.seat} city={t.city} />
            </g>
          );
        })}
        <g data-bandit={view.board.bandit}>
          <ellipse className="bandit" cx={bx - 0.78} cy={by + 0.05} rx={0.22} ry={0.42} />
          <circle className="bandit" cx={bx - 0.78} cy={by - 0.42} r={0.18} />
          <title>The bandit</title>
        </g>
      </g>
    </svg>
  );
});
