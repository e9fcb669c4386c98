// The whole screen for one moment: header, board, seat panels, event log,
// footer. Chooses the board scale and arrangement from the terminal size;
// the Ink app and `--plain` both draw exactly these lines.
import { shorten } from '../../term/width';
import { decisionLabel, decisionsAt, noteText } from '../decision-notes';
import type { Timeline } from '../timeline';
import { boardSize, renderBoard, type BoardScale } from './board';
import { countsText, describeEvent } from './events';
import { renderLog } from './log';
import { seatColour } from './palette';
import { renderSeatPanels } from './panels';
import { besides, span, truncate, type Line } from './style';

export interface ScreenOptions {
  width: number;
  height: number;
  /** Footer: the key help line, a prompt, or nothing (plain output). */
  footer?: Line | null;
  /** Shown in the header: "playing 4/s" or "paused". */
  status?: string;
  /** Replaces board, panels and log (the help overlay). */
  overlay?: Line[];
  /** Label vertices and hexes with their ids. */
  showIds?: boolean;
  /** Show the acting bot's notes beside its decision's time (default true; key d). */
  showNotes?: boolean;
}

const MIN_SIDE = 30;
/** Bot names come from bots: long ones are cut (to this many columns) so the panels keep room for the VP. */
const NAME_SHOWN = 20;

/** A bot name as the panels and the log show it. */
export function shortName(name: string): string {
  return shorten(name, NAME_SHOWN);
}

export function shownNames(t: Timeline): string[] {
  return t.names.map(shortName);
}

export function chooseScale(width: number, bodyHeight: number): BoardScale {
  const wide = boardSize('wide');
  return width >= wide.width + 2 + 48 && bodyHeight >= wide.height ? 'wide' : 'compact';
}

export function headerLine(t: Timeline, index: number, status?: string): Line {
  const f = t.frames[index];
  const turn = t.turnOf[index];
  const parts: Line = [span(turn === 0 ? 'setup' : `turn ${turn}`, { bold: true })];
  if (f.phase === 'over') parts.push(span(' · game over', { bold: true }));
  else if (f.phase === 'main') parts.push(span(` · seat ${f.current} to play`));
  if (f.dice) parts.push(span(` · dice ${f.dice[0]}+${f.dice[1]}=${f.dice[0] + f.dice[1]}`));
  parts.push(span(` · event ${index + 1}/${t.events.length}`));
  if (status) parts.push(span(` · ${status}`, { bold: true }));
  parts.push(span(` · match ${t.matchId}`, { dim: true }));
  return parts;
}

/** The hexes the roll at this event paid from, to highlight them on the board. */
function producingHexes(t: Timeline, index: number): number[] {
  const ev = t.events[index];
  if (ev?.kind !== 'roll') return [];
  const f = t.frames[index];
  if (!f.dice) return [];
  const total = f.dice[0] + f.dice[1];
  return t.board.hexes.filter((h) => h.token === total && h.id !== f.bandit).map((h) => h.id);
}

/** The town or road the current event built, to highlight it. */
function builtAt(t: Timeline, index: number): { vertex?: number; edge?: number } | undefined {
  const ev = t.events[index];
  if (ev?.kind !== 'build') return undefined;
  return ev.data.what === 'road' ? { edge: ev.data.at } : { vertex: ev.data.at };
}

function currentEventLine(t: Timeline, index: number): Line {
  const ev = t.events[index];
  return [span('▶ ', { bold: true }), ...describeEvent(ev, { names: shownNames(t) })];
}

/**
 * Under the event: the acting seat's decision (time taken) and, unless hidden,
 * the bot's note. Only for records that carry decisions; one line, cut to width.
 */
function decisionLine(t: Timeline, index: number, showNotes: boolean): Line {
  const ds = decisionsAt(t, index);
  if (ds.length === 0) return [];
  const d = ds[ds.length - 1];
  const line: Line = [span('  '), span(decisionLabel(d), { color: seatColour(d.seat) })];
  const note = noteText(d);
  if (note !== null)
    line.push(showNotes ? span(`  note: ${note}`, { dim: true }) : span('  (note hidden: d)', { dim: true }));
  return line;
}

/** The line between panels and log: a rule, or the offer on the table while one is open. */
function divider(t: Timeline, index: number, width: number): Line {
  const offer = t.frames[index].openTrade;
  if (!offer) return [span('─'.repeat(Math.min(width, 40)), { dim: true })];
  const to = offer.to === undefined ? 'everyone' : `seat ${offer.to}`;
  return [
    span('open offer: ', { bold: true }),
    span(`seat ${offer.from}`, { color: seatColour(offer.from), bold: true }),
    span(` gives ${countsText(offer.give)} for ${countsText(offer.get)}, to ${to}`),
  ];
}

export function composeScreen(t: Timeline, index: number, opts: ScreenOptions): Line[] {
  const { width } = opts;
  const footer = opts.footer ?? null;
  const bodyHeight = Math.max(1, opts.height - 1 - (footer ? 1 : 0));
  const out: Line[] = [truncate(headerLine(t, index, opts.status), width)];

  if (opts.overlay) {
    out.push(...opts.overlay.slice(0, bodyHeight).map((l) => truncate(l, width)));
    while (out.length < bodyHeight + 1) out.push([]);
  } else {
    // The current event in full: the log beside the board may have cut it short.
    out.push(truncate(currentEventLine(t, index), width));
    // Records with decisions keep a line for the decision under the event (blank when none), so the board does not
    // jump.
    const decisionRow = t.decisions && t.decisions.length > 0 ? 1 : 0;
    if (decisionRow) out.push(truncate(decisionLine(t, index, opts.showNotes ?? true), width));
    out.push(...composeBody(t, index, width, bodyHeight - 1 - decisionRow, opts.showIds ?? false));
  }
  if (footer) out.push(truncate(footer, width));
  return out;
}

function composeBody(t: Timeline, index: number, width: number, bodyHeight: number, showIds: boolean): Line[] {
  const f = t.frames[index];
  const names = shownNames(t);
  const scale = chooseScale(width, bodyHeight);
  const size = boardSize(scale);
  const board = renderBoard(
    {
      board: { ...t.board, bandit: f.bandit },
      roads: f.roads,
      towns: f.towns,
      producing: producingHexes(t, index),
      focus: builtAt(t, index),
      showIds,
    },
    scale,
  );
  const sideWidth = width - size.width - 2;

  if (sideWidth >= MIN_SIDE) {
    const short = sideWidth < 44;
    const panels = renderSeatPanels(f, { names, width: sideWidth, placements: t.outcome?.placements });
    const logHeight = Math.max(3, bodyHeight - panels.length - 1);
    const side = [
      ...panels,
      truncate(divider(t, index, sideWidth), sideWidth),
      ...renderLog(t, index, { width: sideWidth, height: logHeight, short, names }),
    ];
    const body = besides([
      { lines: board, width: size.width },
      { lines: side, width: sideWidth },
    ]);
    while (body.length < bodyHeight) body.push([]);
    return body.slice(0, bodyHeight);
  }
  // Narrow: board, then panels, then as much log as fits.
  const panels = renderSeatPanels(f, { names, width, placements: t.outcome?.placements });
  const body = [...board.map((l) => truncate(l, width)), ...panels, truncate(divider(t, index, width), width)];
  const logHeight = Math.max(0, bodyHeight - body.length);
  body.push(...renderLog(t, index, { width, height: logHeight, short: true, names }));
  return body.slice(0, bodyHeight);
}

export const KEY_HELP: ReadonlyArray<readonly [string, string]> = [
  ['space', 'play / pause'],
  ['← →', 'one event back / forward'],
  ['↑ ↓', 'one turn back / forward'],
  ['[ ]', 'slower / faster'],
  ['g', 'jump to a turn (type the number, Enter)'],
  ['s', "jump to a seat's next action (then the seat digit)"],
  ['n N', 'next / previous strike; the line under the header says why'],
  ['Home End', 'first / last event'],
  ['i', 'show / hide vertex and hex ids on the board'],
  ['d', "show / hide the bot's notes (debug) under the event"],
  ['q', 'quit'],
];

/**
 * The key help line. `n strike` appears when the match has strikes; what does
 * not fit `width` goes, least needed first (the help overlay lists every key).
 */
export function footerLine(opts: { strikes?: boolean; width?: number } = {}): Line {
  const items: Array<[key: string, what: string, keep: number]> = [
    ['space', 'play', 9],
    ['←→', 'event', 8],
    ['↑↓', 'turn', 7],
    ['[ ]', 'speed', 2],
    ['g', 'turn#', 4],
    ['s', 'seat', 3],
    ...(opts.strikes ? [['n', 'strike', 6] as [string, string, number]] : []),
    ['i', 'ids', 1],
    ['?', 'help', 10],
    ['q', 'quit', 10],
  ];
  const widthOf = (list: typeof items) =>
    list.reduce((n, [k, w]) => n + k.length + 1 + w.length, 0) + 2 * (list.length - 1);
  let shown = items;
  while (opts.width !== undefined && widthOf(shown) > opts.width && shown.length > 2) {
    const least = Math.min(...shown.map((x) => x[2]));
    shown = shown.filter((x) => x[2] !== least);
  }
  return shown.flatMap(([k, what], i) => [
    span(k, { bold: true }),
    span(` ${what}${i < shown.length - 1 ? '  ' : ''}`),
  ]);
}

export function helpOverlay(): Line[] {
  const out: Line[] = [[span('Keys', { bold: true }), span('   (press any key to close this help)', { dim: true })]];
  for (const [k, what] of KEY_HELP) out.push([span(`  ${k.padEnd(10)}`, { bold: true }), span(what)]);
  const text = (t: string): Line => [span(`  ${t}`)];
  out.push([], [span('Board', { bold: true })]);
  out.push(text('B brick  L lumber  W wool  G grain  O ore  - desert  X bandit'));
  out.push(text('the number under a letter is its token; 6 and 8 are marked *'));
  out.push(text('(n) settlement of seat n   [n] city of seat n   n along sides: road'));
  out.push(text('ports on the coast: 2B = 2:1 brick, 3? = 3:1 any resource'));
  out.push(text('with i: vertex ids on the corners; hex ids #n (Xn: the bandit)'));
  out.push(text('take the place of the numbers on the small board (h<n> on the large)'));
  out.push([], [span('Panels', { bold: true })]);
  out.push(text('VP public (true: with hidden VP cards)   hand B L W G O =total'));
  out.push(text('dev: K knight  V victory point  R roadworks  F windfall  E embargo'));
  return out;
}
