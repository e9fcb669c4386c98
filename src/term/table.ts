// Plain text tables for records on a terminal (`arena bots list`, `arena keys
// list`): left-aligned columns, two spaces apart, no colour, so they read the
// same in a pipe. Scripts use --json instead.
import { replaceControls } from './visible';

/** Columns padded to the widest cell; the last column is not padded. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [headers, ...rows].map((r) => r.map(clean));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => [...(r[i] ?? '')].length)));
  return cells
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - [...c].length))).join('  ').trimEnd())
    .join('\n') + '\n';
}

/** "name: value" lines with the names aligned, for one record. */
export function formatFields(fields: ReadonlyArray<readonly [string, string]>): string {
  const w = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${k}:${' '.repeat(w - k.length + 1)}${clean(v)}`).join('\n') + '\n';
}

// A name or message from the server must not drive the terminal (escape
// sequences), break the columns (newlines, tabs) or reorder the row (direction
// overrides): each such character becomes one space, so the columns keep their width.
function clean(text: string): string {
  return replaceControls(text, ' ');
}
