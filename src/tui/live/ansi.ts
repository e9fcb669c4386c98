// A styled line as one string with SGR escape codes. The live viewer redraws
// many times a second; Ink lays out every <Text> node with Yoga, and a screen
// of one node per span (about 2,000) costs over 100 ms a frame, one node per
// line a few. Ink measures and truncates text with escape codes correctly.
import type { Colour, Line, Style } from '../render/style';

const COLOUR_CODE: Record<Colour, number> = {
  red: 31,
  green: 32,
  yellow: 33,
  magenta: 35,
  cyan: 36,
  white: 37,
  gray: 90,
  redBright: 91,
  greenBright: 92,
  yellowBright: 93,
  blueBright: 94,
  whiteBright: 97,
};

function codes(s: Style, colour: boolean): string {
  const c: number[] = [];
  if (s.bold) c.push(1);
  if (s.dim) c.push(2);
  if (s.inverse) c.push(7);
  if (colour && s.color) c.push(COLOUR_CODE[s.color]);
  return c.join(';');
}

/** The line's text with its styles as escape codes; `colour` false keeps bold, dim and inverse only (NO_COLOR). */
export function lineToAnsi(line: Line, colour: boolean): string {
  let out = '';
  let open = '';
  for (const span of line) {
    const sgr = codes(span, colour);
    if (sgr !== open) {
      if (open) out += '\x1b[0m';
      if (sgr) out += `\x1b[${sgr}m`;
      open = sgr;
    }
    out += span.text;
  }
  return open ? `${out}\x1b[0m` : out;
}
