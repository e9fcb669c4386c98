// The tournament summary: one JSON document (`--json`, `--out DIR/summary.json`)
// and the table printed to people. Both are built from the same numbers.
import type { ArenaBot } from './bots';
import { sourceLabel } from './bots';
import type { RatingBook } from './ratings';
import { round1 } from './ratings';
import { percentile, STRIKE_REASONS, totalStrikes, type StrikeCounts, type Tallies } from './stats';

export interface SummaryBot {
  name: string;
  /** `builtin:random`, or the bot's URL as given. */
  source: string;
  games: number;
  aborted: number;
  wins: number;
  /** wins / games, 3 decimals; 0 with no games. */
  winRate: number;
  /** Null until the bot has a completed game. */
  avgPlacement: number | null;
  avgVp: number | null;
  /** mu - 3*sigma, 1 decimal. */
  rating: number;
  mu: number;
  sigma: number;
  strikes: StrikeCounts;
  /** Games in which the bot resigned after three strikes. */
  resigned: number;
  /** Answer latency over every answered decision; null when nothing was measured. */
  latencyMs: { p50: number; p95: number } | null;
}

export interface SummaryMatchPlayer {
  bot: string;
  seat: number;
  placement: number | null;
  vp: number | null;
  ratingDelta: number | null;
}

export interface SummaryMatch {
  id: string;
  /** 1-based game number; the match seed is `<seed>/<game>`. */
  game: number;
  seed: string;
  status: 'completed' | 'aborted';
  players: SummaryMatchPlayer[];
}

export interface TournamentSummary {
  /** Bumped if keys change meaning. */
  version: 1;
  rulesVersion: string | null;
  seed: string;
  seats: number;
  deadlineMs: number;
  gamesPlanned: number;
  /** Completed games. */
  games: number;
  aborted: number;
  /** True when Ctrl-C stopped the tournament early. */
  interrupted: boolean;
  startedAt: string;
  endedAt: string;
  /** Best rating first. */
  bots: SummaryBot[];
  matches: SummaryMatch[];
}

export function summarizeBots(bots: readonly ArenaBot[], tallies: Tallies, ratings: RatingBook): SummaryBot[] {
  const rows = bots.map((bot): SummaryBot => {
    const t = tallies.get(bot.id);
    const r = ratings.get(bot.id);
    const p50 = percentile(t.latenciesMs, 50);
    const p95 = percentile(t.latenciesMs, 95);
    return {
      name: bot.name,
      source: sourceLabel(bot.source),
      games: t.games,
      aborted: t.aborted,
      wins: t.wins,
      winRate: t.games ? Math.round((t.wins / t.games) * 1000) / 1000 : 0,
      avgPlacement: t.games ? Math.round((t.placementSum / t.games) * 100) / 100 : null,
      avgVp: t.games ? Math.round((t.vpSum / t.games) * 100) / 100 : null,
      rating: r.rating,
      mu: Math.round(r.mu * 1000) / 1000,
      sigma: Math.round(r.sigma * 1000) / 1000,
      strikes: { ...t.strikes },
      resigned: t.resigned,
      latencyMs: p50 === null || p95 === null ? null : { p50: ms(p50), p95: ms(p95) },
    };
  });
  return rows.sort((a, b) => b.rating - a.rating || b.wins - a.wins || a.name.localeCompare(b.name));
}

function ms(x: number): number {
  return x >= 10 ? Math.round(x) : Math.round(x * 100) / 100;
}

/** The human table: one row per bot, best first. */
export function formatTable(summary: TournamentSummary): string {
  const header = ['bot', 'games', 'wins', 'avg place', 'avg VP', 'rating', 'sigma', 'strikes', 'latency p50/p95'];
  const rows = summary.bots.map((b) => [
    b.name,
    String(b.games),
    String(b.wins),
    b.avgPlacement === null ? '-' : b.avgPlacement.toFixed(2),
    b.avgVp === null ? '-' : b.avgVp.toFixed(1),
    b.rating.toFixed(1),
    round1(b.sigma).toFixed(1),
    strikeText(b.strikes, b.resigned),
    b.latencyMs === null ? '-' : `${fmtMs(b.latencyMs.p50)} / ${fmtMs(b.latencyMs.p95)} ms`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  // Text columns left-aligned, numbers right-aligned.
  const left = new Set([0, 7]);
  const line = (cells: string[]) => cells.map((c, i) => (left.has(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const out = [line(header), ...rows.map(line)];
  const tail = [`${summary.games} of ${summary.gamesPlanned} games completed`];
  if (summary.aborted) tail.push(`${summary.aborted} aborted`);
  if (summary.interrupted) tail.push('interrupted');
  tail.push(`seed ${summary.seed}`);
  out.push('', tail.join(', ') + `. Rating = mu - 3*sigma (openskill Weng-Lin, ranks = placements).`);
  return out.join('\n');
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
