// The live screen of `arena watch`: header, board, one panel per seat
// (public facts only: VP, cards and dev cards as counts, knights, road,
// awards, strikes), the open offer, and the event log. The Ink app draws
// these lines; tests read them as text.
import { renderBoard, boardSize } from '../render/board';
import { countsText, describeEvent } from '../render/events';
import { seatColour } from '../render/palette';
import { chooseScale, shortName } from '../render/screen';
import { besides, lineWidth, span, truncate, type Line } from '../render/style';
import type { LiveState } from './state';

export interface LiveScreenOptions {
  width: number;
  height: number;
  footer?: Line | null;
  showIds?: boolean;
}

const MIN_SIDE = 30;

/** How the stream stands, in a few words. */
export function connectionText(s: LiveState): { text: string; alert: boolean } {
  if (s.ended)
    return {
      text: s.ended.status === 'completed' ? 'ENDED' : s.ended.status === 'aborted' ? 'ABORTED' : 'ENDED',
      alert: s.ended.status === 'aborted',
    };
  const c = s.connection;
  if (c.state === 'open') return { text: 'LIVE', alert: false };
  if (c.state === 'connecting') return { text: c.attempt > 1 ? 'reconnecting…' : 'connecting…', alert: c.attempt > 1 };
  return { text: `connection lost (${c.reason}); retrying in ${(c.delayMs / 1000).toFixed(1)} s`, alert: true };
}

export function liveHeader(s: LiveState): Line {
  const conn = connectionText(s);
  const out: Line = [
    span(conn.text, {
      bold: true,
      color: conn.alert ? 'red' : conn.text === 'LIVE' ? 'green' : undefined,
      inverse: conn.text === 'LIVE',
    }),
  ];
  const v = s.view;
  if (v) {
    out.push(span(` · ${v.phase === 'setup' ? 'setup' : `turn ${v.turn}`}`, { bold: true }));
    if (v.phase === 'over') out.push(span(' · game over', { bold: true }));
    else if (!s.ended) out.push(span(` · seat ${v.current} to play`));
    if (v.dice) out.push(span(` · dice ${v.dice[0]}+${v.dice[1]}=${v.dice[0] + v.dice[1]}`));
  }
  out.push(span(` · event ${s.lastSeq + 1}`));
  if (s.behind > 0)
    out.push(span(` · ${s.behind} event${s.behind === 1 ? '' : 's'} behind live`, { color: 'yellow', bold: true }));
  if (s.missed > 0) out.push(span(` · ${s.missed} events missed`, { color: 'red', bold: true }));
  out.push(span(` · match ${s.matchId}`, { dim: true }));
  return out;
}

/**
 * Per seat: who, placement once over, VP, awards, resigned; then counts and strikes (one line or two, as the width
 * allows).
 */
export function livePanels(s: LiveState, width: number): Line[] {
  const v = s.view;
  if (!v) return [];
  const out: Line[] = [];
  const players = s.match?.players ?? [];
  for (let seat = 0; seat < v.seatCount; seat++) {
    const current = !s.ended && v.phase !== 'over' && v.current === seat;
    const player = players.find((p) => p.seat === seat);
    const head: Line = [span(current ? '>' : ' ', { bold: true })];
    if (s.ended && player?.placement != null)
      head.push(span(`#${player.placement} `, { bold: true, inverse: player.placement === 1 }));
    head.push(
      span(`${seat} ${shortName(s.names[seat] ?? `seat ${seat}`)}`, {
        color: seatColour(seat),
        bold: true,
        inverse: current,
      }),
    );
    // At the end, the true VP (as the log's last line and `arena replay` say), and how much of it was hidden in play.
    const vp = s.finalVp?.[seat] ?? v.scores[seat];
    head.push(span(`  VP ${vp}`, { bold: true }));
    if (vp > v.scores[seat]) head.push(span(` (${vp - v.scores[seat]} hidden)`, { dim: true }));
    const awards: string[] = [];
    if (v.awards.largestArmy === seat) awards.push('ARMY');
    if (v.awards.longestRoad === seat) awards.push('ROAD');
    if (awards.length) head.push(span(` ${awards.join(' ')}`, { color: 'yellow', bold: true }));
    if (v.resigned[seat]) head.push(span(' RESIGNED', { color: 'red', bold: true, inverse: true }));
    if (s.ended && typeof player?.ratingDelta === 'number') {
      const d = player.ratingDelta;
      head.push(span(`  rating ${d >= 0 ? '+' : ''}${d.toFixed(1)}`, { dim: true }));
    }
    const strikes = s.strikes[seat] ?? 0;
    const counts = `  cards ${v.handCounts[seat]}  dev ${v.devCounts[seat]}  knights ${v.knightsPlayed[seat]}`;
    const rest: Line = [
      span(`  road ${v.roadLengths[seat]}  `),
      span(`strikes ${strikes}`, strikes > 0 ? { color: 'red', bold: true } : { dim: true }),
    ];
    out.push(truncate(head, width));
    // One line when it fits, else two: the strikes must stay in sight.
    const stats: Line = [span(counts), ...rest];
    if (lineWidth(stats) <= width) out.push(stats);
    else out.push(truncate([span(counts)], width), truncate(rest, width));
  }
  return out;
}

function divider(s: LiveState, width: number): Line {
  const offer = s.view?.openTrade;
  if (!offer) return [span('─'.repeat(Math.min(width, 40)), { dim: true })];
  const to = offer.to === undefined ? 'everyone' : `seat ${offer.to}`;
  return truncate(
    [
      span('open offer: ', { bold: true }),
      span(`seat ${offer.from}`, { color: seatColour(offer.from), bold: true }),
      span(` gives ${countsText(offer.give)} for ${countsText(offer.get)}, to ${to}`),
    ],
    width,
  );
}

export function liveLog(s: LiveState, width: number, height: number, short: boolean): Line[] {
  if (height <= 0) return [];
  const names = s.names.map(shortName);
  const entries = s.log.slice(Math.max(0, s.log.length - height));
  return entries.map((e, i) => {
    const prefix = span(`${String(e.turn).padStart(3)} `, { dim: true });
    const body = describeEvent(e.ev, { names, short });
    const newest = i === entries.length - 1;
    const line: Line = newest
      ? [span('▶', { bold: true }), ...[prefix, ...body].map((x) => ({ ...x, inverse: true, dim: false }))]
      : [span(' '), prefix, ...body];
    return truncate(line, width);
  });
}

/** Highlights for the board: the hexes the last roll paid from, the piece the last event built. */
function highlights(s: LiveState): { producing: number[]; focus?: { vertex?: number; edge?: number } } {
  const last = s.log.at(-1)?.ev;
  const v = s.view;
  if (!last || !v || last.seq !== s.viewSeq) return { producing: [] };
  if (last.kind === 'roll') {
    const total = last.data.dice[0] + last.data.dice[1];
    return { producing: v.board.hexes.filter((h) => h.token === total && h.id !== v.board.bandit).map((h) => h.id) };
  }
  if (last.kind === 'build')
    return { producing: [], focus: last.data.what === 'road' ? { edge: last.data.at } : { vertex: last.data.at } };
  return { producing: [] };
}

export function composeLiveScreen(s: LiveState, opts: LiveScreenOptions): Line[] {
  const { width } = opts;
  const footer = opts.footer ?? null;
  const bodyHeight = Math.max(1, opts.height - 1 - (footer ? 1 : 0));
  const out: Line[] = [truncate(liveHeader(s), width)];
  const v = s.view;
  if (!v) {
    out.push([
      span(s.ended ? 'the match ended before any position was shown' : 'waiting for the first position of the match…', {
        dim: true,
      }),
    ]);
    while (out.length < bodyHeight + 1) out.push([]);
  } else {
    const scale = chooseScale(width, bodyHeight);
    const size = boardSize(scale);
    const board = renderBoard(
      { board: v.board, roads: v.roads, towns: v.towns, ...highlights(s), showIds: opts.showIds ?? false },
      scale,
    );
    const sideWidth = width - size.width - 2;
    let body: Line[];
    if (sideWidth >= MIN_SIDE) {
      const panels = livePanels(s, sideWidth);
      const logHeight = Math.max(3, bodyHeight - panels.length - 1);
      const side = [...panels, divider(s, sideWidth), ...liveLog(s, sideWidth, logHeight, sideWidth < 44)];
      body = besides([
        { lines: board, width: size.width },
        { lines: side, width: sideWidth },
      ]);
    } else {
      body = [...board.map((l) => truncate(l, width)), ...livePanels(s, width), divider(s, width)];
      body.push(...liveLog(s, width, Math.max(0, bodyHeight - body.length), true));
    }
    while (body.length < bodyHeight) body.push([]);
    out.push(...body.slice(0, bodyHeight));
  }
  if (footer) out.push(truncate(footer, width));
  return out;
}

/** The help overlay (key ?): every key of the live viewer. */
export function liveHelp(): Line[] {
  const key = (k: string, what: string): Line => [span(`  ${k.padEnd(8)}`, { bold: true }), span(what)];
  return [
    [span('arena watch: keys', { bold: true })],
    [],
    key('q Esc', 'quit'),
    key('i', 'show or hide the vertex and hex ids the log uses'),
    key('l', 'jump to live: show every event received at once (when "N events behind live")'),
    key('?', 'this help'),
    key('Ctrl-C', 'quit (exit 130)'),
    [],
    [span('A match faster than --speed events a second (default 5) is shown at that pace;', { dim: true })],
    [span('the header says how many events behind live the screen is.', { dim: true })],
    [],
    [span('any key closes this help', { dim: true })],
  ];
}

export function liveFooter(s: LiveState): Line {
  const keys: Line = [
    span('q', { bold: true }),
    span(' quit  '),
    span('i', { bold: true }),
    span(' ids  '),
    span('?', { bold: true }),
    span(' help'),
  ];
  if (s.behind > 0) keys.push(span('  '), span('l', { bold: true }), span(' jump to live'));
  if (s.ended)
    return [
      span(`match ${s.ended.status}; this is the final position.  `, { bold: true }),
      ...keys,
      span(`   arena replay ${s.matchId} steps through it`, { dim: true }),
    ];
  return keys;
}
