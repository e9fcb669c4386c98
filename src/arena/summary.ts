// The tournament summary: one JSON document (`--json`, `--out DIR/summary.json`).
// The table printed to people (src/term/tournament-table.ts) is built from it.
import type { ArenaBot } from './bots';
import { sourceLabel } from './bots';
import type { RatingBook } from './ratings';
import { latencyPercentile, type StrikeCounts, type Tallies } from './stats';
import type { BotCis, Ci, CiInfo, HeadToHead, Verdict } from './verdict-report';

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
  /** 95% interval of avgPlacement (summary.ci says how); null without a completed game. */
  avgPlacementCi95: Ci | null;
  /** 95% interval of winRate. */
  winRateCi95: Ci | null;
  avgVp: number | null;
  /** mu - 3*sigma, 1 decimal. */
  rating: number;
  mu: number;
  sigma: number;
  strikes: StrikeCounts;
  /** Games in which the bot resigned after three strikes. */
  resigned: number;
  /**
   * Answer time over every decision asked: answered ones as measured, late
   * ones (no answer in time) counted as the full deadline; `late` is how many
   * were late. Null when the bot was asked nothing.
   */
  latencyMs: { p50: number; p95: number; late: number } | null;
  /** The bot's slowest single decision over all games (ms, answered or struck); null when it was asked nothing. */
  slowestMs: number | null;
}

export interface SummaryMatchPlayer {
  bot: string;
  seat: number;
  placement: number | null;
  vp: number | null;
  ratingDelta: number | null;
  /** Present only when the bot was struck in this match: its strikes per reason (replay it to see each one). */
  strikes?: StrikeCounts;
}

export interface SummaryMatch {
  id: string;
  /** 1-based game number; the match id ends in it. */
  game: number;
  /** This game's seed: HMAC-SHA-256 of the game number keyed by the tournament seed (src/arena/seeds.ts). */
  seed: string;
  status: 'completed' | 'aborted';
  /** A seat reached 10 VP (win), the turn cap ended it (cap), or it was aborted. */
  ended: 'win' | 'cap' | 'aborted';
  turns: number | null;
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
  /** Played with --duplicate: games in groups of `seats` sharing a seed, the table rotated. */
  duplicate: boolean;
  /** Best rating first. */
  bots: SummaryBot[];
  /** How the 95% intervals were computed. */
  ci: CiInfo;
  /** Every pair of bots, in the order given: how often a placed above b (ties half), with its interval. */
  headToHead: HeadToHead[];
  /** --until-decided: the first two bots' verdict; null otherwise. */
  verdict: Verdict | null;
  matches: SummaryMatch[];
}

export function summarizeBots(
  bots: readonly ArenaBot[],
  tallies: Tallies,
  ratings: RatingBook,
  deadlineMs: number,
  cis?: ReadonlyMap<string, BotCis>,
): SummaryBot[] {
  const rows = bots.map((bot): SummaryBot => {
    const t = tallies.get(bot.id);
    const r = ratings.get(bot.id);
    const at = (p: number) => {
      const v = latencyPercentile(t.latenciesMs, t.latencyCount, t.strikes.late, p);
      return v === 'late' ? deadlineMs : v;
    };
    const p50 = at(50);
    const p95 = at(95);
    return {
      name: bot.name,
      source: sourceLabel(bot.source),
      games: t.games,
      aborted: t.aborted,
      wins: t.wins,
      winRate: t.games ? Math.round((t.wins / t.games) * 1000) / 1000 : 0,
      avgPlacement: t.games ? Math.round((t.placementSum / t.games) * 100) / 100 : null,
      avgPlacementCi95: cis?.get(bot.id)?.avgPlacementCi95 ?? null,
      winRateCi95: cis?.get(bot.id)?.winRateCi95 ?? null,
      avgVp: t.games ? Math.round((t.vpSum / t.games) * 100) / 100 : null,
      rating: r.rating,
      mu: Math.round(r.mu * 1000) / 1000,
      sigma: Math.round(r.sigma * 1000) / 1000,
      strikes: { ...t.strikes },
      resigned: t.resigned,
      latencyMs: p50 === null || p95 === null ? null : { p50: ms(p50), p95: ms(p95), late: t.strikes.late },
      slowestMs: p50 === null ? null : ms(t.slowestMs),
    };
  });
  return rows.sort((a, b) => b.rating - a.rating || b.wins - a.wins || a.name.localeCompare(b.name));
}

function ms(x: number): number {
  return x >= 10 ? Math.round(x) : Math.round(x * 100) / 100;
}
