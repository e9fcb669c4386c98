// One panel per seat: who it is, VP (public and true), cards in hand by
// resource, dev cards, knights, road length, awards, strikes.
import type { Frame } from '../timeline';
import { DEV_LETTER, RESOURCE_COLOUR, RESOURCE_LETTER, RESOURCE_ORDER, seatColour } from './palette';
import { span, truncate, type Line } from './style';

export interface PanelOptions {
  names: readonly string[];
  width: number;
  /** Final placements (1-based), shown once the game is over. */
  placements?: readonly number[] | null;
}

function devText(cards: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of cards) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].map(([c, n]) => `${DEV_LETTER[c] ?? c}${n}`).join(' ');
}

/** Three lines per seat; the seat whose turn it is is marked with '>' and shown inverse. */
export function renderSeatPanel(frame: Frame, seat: number, opts: PanelOptions): Line[] {
  const name = opts.names[seat] ?? `seat ${seat}`;
  const colour = seatColour(seat);
  const current = frame.phase !== 'over' && frame.current === seat;
  const me = frame.seats[seat];
  const awards: string[] = [];
  if (frame.awards.largestArmy === seat) awards.push('ARMY');
  if (frame.awards.longestRoad === seat) awards.push('ROAD');

  const placement = frame.phase === 'over' ? opts.placements?.[seat] : undefined;
  const head: Line = [
    span(current ? '>' : ' ', { bold: true }),
    ...(placement !== undefined ? [span(`#${placement} `, { bold: true, inverse: placement === 1 })] : []),
    span(`${seat} ${name}`, { color: colour, bold: true, inverse: current }),
    span(`  VP ${frame.scores[seat]}`, { bold: true }),
    span(` (true ${me.trueVp})`),
  ];
  if (awards.length) head.push(span(` ${awards.join(' ')}`, { color: 'yellow', bold: true }));
  if (frame.resigned[seat]) head.push(span(' RESIGNED', { color: 'red', bold: true, inverse: true }));

  const hand: Line = [span('  ')];
  for (const r of RESOURCE_ORDER) {
    hand.push(span(`${RESOURCE_LETTER[r]}${me.hand[r] ?? 0}`, { color: RESOURCE_COLOUR[r] }), span(' '));
  }
  hand.push(span(`=${frame.handCounts[seat]}`, { dim: true }));
  const playable = me.devCards.length ? devText(me.devCards) : '-';
  hand.push(span(`  dev ${playable}`));
  if (me.devBoughtThisTurn.length) hand.push(span(` new ${devText(me.devBoughtThisTurn)}`, { dim: true }));

  const strikes = frame.strikes[seat] ?? 0;
  const stats: Line = [
    span(`  knights ${frame.knightsPlayed[seat]}  road ${frame.roadLengths[seat]}  `),
    span(`strikes ${strikes}`, strikes > 0 ? { color: 'red', bold: true } : { dim: true }),
  ];
  return [head, hand, stats].map((l) => truncate(l, opts.width));
}

export function renderSeatPanels(frame: Frame, opts: PanelOptions): Line[] {
  const out: Line[] = [];
  for (let s = 0; s < frame.seats.length; s++) out.push(...renderSeatPanel(frame, s, opts));
  return out;
}
