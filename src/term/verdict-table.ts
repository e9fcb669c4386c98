// The 95% intervals and the head-to-head table under a results table
// (`arena play`, `arena simulate`), and the --until-decided verdict line.
import type { Ci, CiInfo, HeadToHead } from '../arena/verdict-report';

export interface IntervalRow {
  name: string;
  games: number;
  avgPlacement: number | null;
  avgPlacementCi95: Ci | null;
  winRate: number;
  winRateCi95: Ci | null;
}

export function formatIntervals(rows: readonly IntervalRow[], headToHead: readonly HeadToHead[], ci: CiInfo): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const place = (r: IntervalRow) =>
    r.avgPlacement === null || r.avgPlacementCi95 === null
      ? '-'
      : `${r.avgPlacement.toFixed(2)} [${r.avgPlacementCi95[0].toFixed(2)}, ${r.avgPlacementCi95[1].toFixed(2)}]`;
  const win = (r: IntervalRow) =>
    r.winRateCi95 === null ? '-' : `${pct(r.winRate)} [${pct(r.winRateCi95[0])}, ${pct(r.winRateCi95[1])}]`;
  const header = ['bot', 'avg place [95% CI]', 'win rate [95% CI]'];
  const cells = rows.map((r) => [r.name, place(r), win(r)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(header), ...cells.map(line)];
  if (headToHead.length) {
    out.push('', 'head to head: how often the first placed above the second (a tie counts half) [95% CI]');
    const names = headToHead.map((h) => `${h.a} above ${h.b}`);
    const w = Math.max(...names.map((n) => n.length));
    headToHead.forEach((h, i) => {
      const value =
        h.aAbove === null || h.ci95 === null
          ? 'no game together'
          : `${pct(h.aAbove).padStart(4)} [${pct(h.ci95[0])}, ${pct(h.ci95[1])}] of ${h.games} games`;
      out.push(`  ${names[i].padEnd(w)}  ${value}`);
    });
  }
  out.push('', `Intervals: ${ci.method}, ${ci.resamples} resamples.`);
  return out.join('\n');
}
