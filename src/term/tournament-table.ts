// The tournament summary as people read it: one row per bot, best first.
// Built from the same TournamentSummary that --json prints.
import { round1 } from '../arena/ratings';
import { STRIKE_REASONS, totalStrikes, type StrikeCounts } from '../arena/stats';
import type { TournamentSummary } from '../arena/summary';

export function formatTable(summary: TournamentSummary): string {
  // One column per strike reason (a count, '-' for none), then resignations: why a bot was struck shows at a glance.
  const header = [
    'bot',
    'games',
    'wins',
    'avg place',
    'avg VP',
    'rating',
    'sigma',
    ...STRIKE_REASONS,
    'resigned',
    'latency p50/p95',
    'slowest',
  ];
  const rows = summary.bots.map((b) => [
    b.name,
    String(b.games),
    String(b.wins),
    b.avgPlacement === null ? '-' : b.avgPlacement.toFixed(2),
    b.avgVp === null ? '-' : b.avgVp.toFixed(1),
    b.rating.toFixed(1),
    round1(b.sigma).toFixed(1),
    ...STRIKE_REASONS.map((r) => count(b.strikes[r])),
    count(b.resigned),
    b.latencyMs === null ? '-' : latencyText(b.latencyMs, summary.deadlineMs),
    b.slowestMs === null ? '-' : `${fmtMs(b.slowestMs)} ms`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  // The bot name left-aligned, numbers right-aligned.
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  // "strikes" over the reason columns.
  const first = header.indexOf(STRIKE_REASONS[0]);
  const before = widths.slice(0, first).reduce((n, w) => n + w + 2, 0);
  const span = widths.slice(first, first + STRIKE_REASONS.length).reduce((n, w) => n + w + 2, -2);
  const label = ' strikes ';
  const left = Math.floor((span - label.length) / 2);
  const group = ' '.repeat(before) + '─'.repeat(left) + label + '─'.repeat(span - left - label.length);
  const out = [group, line(header), ...rows.map(line)];
  const tail = [`${summary.games} of ${summary.gamesPlanned} games completed`];
  if (summary.aborted) tail.push(`${summary.aborted} aborted`);
  if (summary.interrupted) tail.push('interrupted');
  if (summary.verdict?.decided)
    tail.push(`stopped once decided (--until-decided, after game ${summary.verdict.games})`);
  tail.push(`seed ${summary.seed}`);
  out.push('', tail.join(', ') + `. Rating = mu - 3*sigma (openskill Weng-Lin, ranks = placements).`);
  if (summary.bots.some((b) => totalStrikes(b.strikes) > 0)) {
    out.push(
      `Strikes per reason over all games; resigned = games lost to 3 strikes. Why each one: arena play --verbose, or arena replay (key n).`,
    );
  }
  if (summary.bots.some((b) => (b.latencyMs?.late ?? 0) > 0)) {
    out.push(
      `Latency counts every decision asked; "late" marks a percentile that fell on a decision with no answer within ${summary.deadlineMs} ms.`,
    );
  }
  return out.join('\n');
}

function count(n: number): string {
  return n === 0 ? '-' : String(n);
}

/** `12 / 40 ms`, `12 ms / late`, `late / late`. */
function latencyText(l: { p50: number; p95: number }, deadlineMs: number): string {
  // A late decision is recorded as the full deadline; no answered one reaches it.
  const isLate = (x: number) => x >= deadlineMs;
  const p50 = isLate(l.p50) ? 'late' : fmtMs(l.p50);
  const p95 = isLate(l.p95) ? 'late' : fmtMs(l.p95);
  if (p95 !== 'late') return `${p50} / ${p95} ms`;
  return p50 === 'late' ? 'late / late' : `${p50} ms / late`;
}

function fmtMs(x: number): string {
  return x >= 10 ? String(Math.round(x)) : x.toFixed(1);
}

export function strikeText(s: StrikeCounts, resigned = 0): string {
  if (totalStrikes(s) === 0 && resigned === 0) return '-';
  const parts = STRIKE_REASONS.filter((r) => s[r] > 0).map((r) => `${r} ${s[r]}`);
  if (resigned) parts.push(`resigned ${resigned}x`);
  return parts.join(', ');
}
