// The event log: the events up to the current one, which is last and
// highlighted. Later events are not shown: the screen is the match as it
// stood at the cursor, and the log must not tell what has not happened yet.
import type { Timeline } from '../timeline';
import { describeEvent } from './events';
import { span, truncate, type Line } from './style';

export interface LogOptions {
  width: number;
  height: number;
  short?: boolean;
  /** Seat names as shown (default: the timeline's). */
  names?: readonly string[];
}

export function renderLog(t: Timeline, index: number, opts: LogOptions): Line[] {
  const { height } = opts;
  if (height <= 0) return [];
  const start = Math.max(0, index - height + 1);
  const out: Line[] = [];
  for (let i = start; i <= index && i < t.events.length; i++) {
    const ev = t.events[i];
    const prefix = span(`${String(t.turnOf[i]).padStart(3)} `, { dim: true });
    const body = describeEvent(ev, { names: opts.names ?? t.names, short: opts.short });
    const line: Line =
      i === index
        ? [span('▶', { bold: true }), ...[prefix, ...body].map((s) => ({ ...s, inverse: true, dim: false }))]
        : [span(' '), prefix, ...body];
    out.push(truncate(line, opts.width));
  }
  return out;
}
