// One record as "name: value" lines on a terminal (`arena bots show`, `arena
// matches show`), no colour, so it reads the same in a pipe.
import { replaceControls } from '../text/visible';

/** "name: value" lines with the names aligned, for one record. */
export function formatFields(fields: ReadonlyArray<readonly [string, string]>): string {
  const w = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${k}:${' '.repeat(w - k.length + 1)}${cleanCell(v)}`).join('\n') + '\n';
}

// A name or message from the server must not drive the terminal (escape
// sequences), break the columns (newlines, tabs) or reorder the row (direction
// overrides): each such character becomes one space, so the columns keep their width.
export function cleanCell(text: string): string {
  return replaceControls(text, ' ');
}
