// Styled text shared by the Ink app and `--plain`: a screen is a list of
// lines, a line a list of spans. Colour is only ever decoration: every
// distinction a span's colour makes is also made by its characters, so the
// plain and NO_COLOR renderings lose nothing.

import { replaceControls } from '../../text/visible';
import { cutToWidth, displayWidth } from '../../term/width';

export type Colour =
  | 'red'
  | 'green'
  | 'greenBright'
  | 'yellow'
  | 'gray'
  | 'white'
  | 'whiteBright'
  | 'cyan'
  | 'magenta'
  | 'blueBright'
  | 'yellowBright'
  | 'redBright';

export interface Style {
  color?: Colour;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export interface Span extends Style {
  text: string;
}

export type Line = Span[];

/**
 * A span of text; control characters are shown as '�'. Bot names and table talk come from
 * bots: escape sequences and newlines must never reach the terminal or break a line.
 */
export function span(text: string, style: Style = {}): Span {
  return { text: replaceControls(text, '\ufffd'), ...style };
}

export function lineText(line: Line): string {
  return line.map((s) => s.text).join('');
}

/** Terminal columns (wide characters take two). */
export function lineWidth(line: Line): number {
  let n = 0;
  for (const s of line) n += displayWidth(s.text);
  return n;
}

/** Cuts a line to at most `width` columns, ending with '…' when something was cut. */
export function truncate(line: Line, width: number): Line {
  if (lineWidth(line) <= width) return line;
  const out: Line = [];
  let left = Math.max(0, width - 1);
  for (const s of line) {
    if (left <= 0) break;
    const cut = cutToWidth(s.text, left);
    out.push({ ...s, text: cut.text });
    left -= cut.width;
    if (cut.text.length < s.text.length) break;
  }
  if (width > 0) out.push(span('…', { dim: true }));
  return out;
}

/** Pads (or cuts) a line to exactly `width` columns. */
export function fit(line: Line, width: number): Line {
  const cut = truncate(line, width);
  const w = lineWidth(cut);
  return w < width ? [...cut, span(' '.repeat(width - w))] : cut;
}

/** Joins blocks side by side, each padded to its width, separated by `gap` spaces. */
export function besides(blocks: Array<{ lines: Line[]; width: number }>, gap = 2): Line[] {
  const height = Math.max(...blocks.map((b) => b.lines.length));
  const out: Line[] = [];
  for (let r = 0; r < height; r++) {
    const line: Line = [];
    blocks.forEach((b, i) => {
      if (i > 0) line.push(span(' '.repeat(gap)));
      const last = i === blocks.length - 1;
      const cell = b.lines[r] ?? [];
      line.push(...(last ? truncate(cell, b.width) : fit(cell, b.width)));
    });
    out.push(line);
  }
  return out;
}

/** Plain text of a screen: no escape codes, trailing spaces trimmed. */
export function plainText(lines: Line[]): string {
  return lines.map((l) => lineText(l).trimEnd()).join('\n');
}
