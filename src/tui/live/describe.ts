// A public event as a sentence. Three kinds differ from the replay's form
// (engine/public-events.ts): a bought card is not named, a theft says only
// that a card changed hands, a strike gives no rejection reason. The other
// kinds are the replay's own and are described the same way.
import type { GameEvent } from '../../../engine/index';
import type { PublicMatchEvent } from '../../protocol/events';
import { describeEvent, type DescribeOptions } from '../render/events';
import { seatColour } from '../render/palette';
import { span, type Line, type Span } from '../render/style';

export function describePublicEvent(ev: PublicMatchEvent, opts: DescribeOptions): Line {
  const seatRef = (s: number, withName = false): Span => {
    const label = opts.short ? `s${s}` : withName && opts.names[s] ? `seat ${s} (${opts.names[s]})` : `seat ${s}`;
    return span(label, { color: seatColour(s), bold: true });
  };
  switch (ev.kind) {
    case 'dev':
      if (ev.data.action === 'buy') return [seatRef(ev.seat, true), span(' bought a dev card')];
      break;
    case 'bandit': {
      const d = ev.data;
      const out: Line = [seatRef(ev.seat, true), span(` moved the bandit to hex ${d.hex}`)];
      if ('victim' in d) out.push(span(d.stoleCard ? ' and stole a card from ' : ' and robbed (nothing to take) '), seatRef(d.victim));
      return out;
    }
    case 'timeout': {
      const d = ev.data;
      return [seatRef(ev.seat, true), span(` strike ${d.strikes}: ${d.reason} on a ${d.decision} decision`, { color: 'red' })];
    }
    default:
      break;
  }
  // Every other kind is the replay's event unchanged (stamped with seq and at).
  return describeEvent(ev as unknown as GameEvent, opts);
}
