// Plain text tables for records on a terminal (`arena bots list`, `arena keys
// list`): left-aligned columns, two spaces apart, no colour, so they read the
// same in a pipe. Scripts use --json instead. Commands load this module when
// they print a table: measuring wide characters costs tens of milliseconds to load.
import { cleanCell } from './fields';
import { displayWidth, padEndTo } from './width';

/** Columns padded to the widest cell (in terminal columns); the last column is not padded. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [headers, ...rows].map((r) => r.map(cleanCell));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => displayWidth(r[i] ?? ''))));
  return (
    cells
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : padEndTo(c, widths[i])))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
