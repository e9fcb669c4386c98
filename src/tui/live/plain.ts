// `arena watch --plain`: one line per event for pipes and logs, in seq order,
// never repeating one after a reconnect; a line for the match on joining and
// one for the end. No colour, no escape codes.
import type { LiveMessage } from '../../protocol/live';
import { lineText, span } from '../render/style';
import { describeEvent } from '../render/events';
import type { LiveState } from './state';

export class PlainPrinter {
  private printed = -1;
  private introduced = false;

  constructor(private readonly write: (line: string) => void) {}

  /** Prints what the message added to the state. */
  take(msg: LiveMessage, s: LiveState): void {
    if (msg.type === 'snapshot' && !this.introduced) {
      this.introduced = true;
      const seats = s.names.map((n, i) => `${i} ${clean(n)}`).join(', ');
      const at = s.view ? (s.view.phase === 'setup' ? 'setup' : `turn ${s.view.turn}`) : 'the start';
      this.write(
        `match ${s.matchId} (${msg.data.match.status}): seats ${seats}; joined at event ${s.lastSeq + 1}, ${at}`,
      );
    }
    for (const e of s.log) {
      if (e.ev.seq <= this.printed) continue;
      this.printed = e.ev.seq;
      this.write(`#${e.ev.seq} turn ${e.turn}: ${lineText(describeEvent(e.ev, { names: s.names }))}`);
    }
    if (msg.type === 'end') this.write(endLine(s));
  }
}

export function endLine(s: LiveState): string {
  const end = s.ended;
  if (!end) return '';
  if (end.status !== 'completed') return `end: match ${end.status}; no placements, no rating change`;
  const order = [...end.players].sort((a, b) => (a.placement ?? 9) - (b.placement ?? 9) || a.seat - b.seat);
  const parts = order.map((p) => {
    const d = p.ratingDelta;
    const vp = s.finalVp?.[p.seat];
    return `#${p.placement ?? '-'} seat ${p.seat} (${clean(p.botName)})${vp === undefined ? '' : ` ${vp} VP`}${typeof d === 'number' ? ` ${d >= 0 ? '+' : ''}${d.toFixed(1)}` : ''}`;
  });
  return `end: match completed: ${parts.join(', ')}`;
}

/** Names come from bots: no control characters reach the terminal. */
const clean = (text: string) => span(text).text;
