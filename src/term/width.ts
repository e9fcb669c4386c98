// The columns a string takes on a terminal. Bot and key names may be in any
// script: a CJK character or an emoji takes two columns, a combining accent
// or a zero-width joiner none, so tables and the viewer pad and cut by this,
// never by String#length (which would misalign every column after the name).
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** `text` padded with spaces on the right to `width` columns. */
export function padEndTo(text: string, width: number): string {
  const w = stringWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}

/**
 * The longest start of `text` that fits in `width` columns, cut between whole characters (graphemes), and its width.
 */
export function cutToWidth(text: string, width: number): { text: string; width: number } {
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width) break;
    out += segment;
    used += w;
  }
  return { text: out, width: used };
}

/** `text` cut to `width` columns, ending with '…' when something was cut. */
export function shorten(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  return `${cutToWidth(text, Math.max(0, width - 1)).text}…`;
}
