// The event log: a window of replay events around the current one, which is
// highlighted; later events are dimmed (the replay is public, so no spoilers
// are hidden, but the eye should land on "now").
import type { Timeline } from '../timeline';
import { describeEvent } from './events';
import { span, truncate, type Line } from './style';

export interface LogOptions {
  width: number;
  height: number;
  short?: boolean;
}

export function renderLog(t: Timeline, index: number, opts: LogOptions): Line[] {
  const { height } = opts;
  if (height <= 0) return [];
  const before = Math.max(0, Math.floor((height * 2) / 3));
  let start = Math.max(0, index - before);
  const end = Math.min(t.events.length, start + height);
  start = Math.max(0, end - height);
  const out: Line[] = [];
  for (let i = start; i < end; i++) {
    const ev = t.events[i];
    const prefix = span(`${String(t.turnOf[i]).padStart(3)} `, { dim: true });
    const body = describeEvent(ev, { names: t.names, short: opts.short });
    let line: Line = [prefix, ...body];
    if (i === index) line = [span('▶', { bold: true }), ...line.map((s) => ({ ...s, inverse: true, dim: false }))];
    else line = [span(' '), ...line.map((s) => (i > index ? { ...s, dim: true } : s))];
    out.push(truncate(line, opts.width));
  }
  return out;
}
