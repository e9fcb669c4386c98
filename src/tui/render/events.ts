// One replay event as a terminal line: the words are src/protocol/describe.ts's
// (shared with the dashboard); this draws them: each seat in its colour, the
// line's first seat (the one acting) with its bot's name, "s2" on narrow screens.
import {
  describeEvent as describeSegments,
  type DescribedEvent,
  type Marked,
  type Segment,
} from '../../protocol/describe';
import { seatColour } from './palette';
import { span, type Line, type Span, type Style } from './style';

export { countsText } from '../../protocol/describe';

export interface DescribeOptions {
  /** Bot name per seat. */
  names: readonly string[];
  /** Short labels ("s2") for narrow screens. */
  short?: boolean;
}

const MARK_STYLE: Record<Marked['mark'], Style> = {
  choice: { dim: true },
  default: { color: 'red' },
  talk: { color: 'yellow' },
  strike: { color: 'red' },
  end: { bold: true },
};

/** The event in words, as a styled line (full replay or live public form). */
export function describeEvent(ev: DescribedEvent, opts: DescribeOptions): Line {
  return segmentsLine(describeSegments(ev), opts);
}

export function segmentsLine(segments: readonly Segment[], opts: DescribeOptions): Line {
  return segments.map((s, i): Span => {
    if (typeof s === 'string') return span(s);
    if ('seat' in s) {
      const name = i === 0 && !opts.short ? opts.names[s.seat] : undefined;
      const label = opts.short ? `s${s.seat}` : name ? `seat ${s.seat} (${name})` : `seat ${s.seat}`;
      return span(label, { color: seatColour(s.seat), bold: true });
    }
    if ('hex' in s) return span(`hex ${s.hex}`);
    return span(s.text, MARK_STYLE[s.mark]);
  });
}
