// A replay event in words, for the match page's log: "Alpha (seat 0) rolled
// 3+5=8: Bravo (seat 1) +1 grain". The words are src/protocol/describe.ts's,
// the terminal's too; here seats get their bot's name and hexes their
// resource. Both forms: the full replay of a finished match and the public
// events of a live one (no stolen card, no bought card, no rejection details).
import { HEX_COUNT } from '../../../engine/index';
import type { BoardView } from '../../../engine/index';
import {
  describeEvent as describeSegments,
  type DescribedEvent,
  type Marked,
  type Segment,
} from '../../protocol/describe';

export interface EventLike {
  seq?: number;
  kind: string;
  seat?: number;
  data?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export interface DescribeContext {
  /** Bot name per seat. */
  names: readonly string[];
  /** The board, to name hexes by resource and number. */
  board?: BoardView | null;
}

export function seatName(ctx: DescribeContext, s: number | undefined | null): string {
  if (s === undefined || s === null) return 'nobody';
  return ctx.names[s] ? `${ctx.names[s]} (seat ${s})` : `seat ${s}`;
}

export function hexName(ctx: DescribeContext, h: unknown): string {
  const id = num(h);
  if (id === undefined || id < 0 || id >= HEX_COUNT) return 'hex ?';
  const hex = ctx.board?.hexes.find((x) => x.id === id);
  if (!hex) return `hex ${id}`;
  return hex.resource === 'desert' ? `the desert (hex ${id})` : `the ${hex.resource} ${hex.token ?? ''} (hex ${id})`;
}

/** A piece of an event's line: text, a seat (drawn as its span), or marked text. */
export interface EventPart {
  text: string;
  seat?: number;
  mark?: Marked['mark'];
}

/**
 * The event in words (src/protocol/describe.ts, shared with the terminal), with seats named by
 * bot and hexes by resource. Events come from the service, parsed as the schemas say; one that
 * does not fit (a newer kind) still shows, as its seat and kind.
 */
export function eventParts(ev: EventLike, ctx: DescribeContext): EventPart[] {
  let segments: Segment[];
  try {
    segments = describeSegments(ev as DescribedEvent);
  } catch {
    segments = typeof ev.seat === 'number' ? [{ seat: ev.seat }, `: ${ev.kind}`] : [ev.kind];
  }
  return segments.map((s) => {
    if (typeof s === 'string') return { text: s };
    if ('seat' in s) return { text: seatName(ctx, s.seat), seat: s.seat };
    if ('hex' in s) return { text: hexName(ctx, s.hex) };
    return { text: s.text, mark: s.mark };
  });
}

/** The event's line as plain text (titles, tests). */
export function describeEvent(ev: EventLike, ctx: DescribeContext): string {
  return eventParts(ev, ctx)
    .map((p) => p.text)
    .join('');
}

/** Strikes per seat after the events given (the latest `timeout` count of each seat). */
export function strikesOf(events: readonly EventLike[], seatCount: number): number[] {
  const out = new Array<number>(seatCount).fill(0);
  for (const ev of events) {
    if (ev.kind === 'timeout' && typeof ev.seat === 'number' && isObj(ev.data) && typeof ev.data.strikes === 'number') {
      out[ev.seat] = Math.max(out[ev.seat] ?? 0, ev.data.strikes);
    }
  }
  return out;
}
