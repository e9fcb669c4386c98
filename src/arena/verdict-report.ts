// A tournament's games turned into the summary's statistics (verdict.ts) and
// the `--until-decided` stop (sequential.ts). Pure: no I/O.
import type { ArenaBot } from './bots';
import { aboveScore, SEQUENTIAL_METHOD, SequentialTest, verdictLine } from './sequential';
import type { GameResult, SeatResult } from './stats';

/**
 * What the statistics keep of a finished game: its seed, status and each
 * seat's bot, placement and win (no latencies: a long tournament keeps one per game).
 */
export interface PlacedGame {
  seed: string;
  status: GameResult['status'];
  seats: ReadonlyArray<Pick<SeatResult, 'botId' | 'placement' | 'won'>>;
}

export function placedGame(g: GameResult): PlacedGame {
  return {
    seed: g.seed,
    status: g.status,
    seats: g.seats.map((s) => ({ botId: s.botId, placement: s.placement, won: s.won })),
  };
}
import {
  CI_METHOD,
  CONFIDENCE,
  packedVerdictStats,
  packOutcomes,
  resamplesFor,
  type GameOutcome,
  type Interval,
  type PackedOutcomes,
} from './verdict';

/** [low, high] of a 95% interval. */
export type Ci = [number, number];

export interface HeadToHead {
  a: string;
  b: string;
  /** Games both played (completed). */
  games: number;
  /** Share of those games in which a placed above b, a tie counting half; null without a game. */
  aAbove: number | null;
  ci95: Ci | null;
}

export interface CiInfo {
  method: string;
  confidence: number;
  resamples: number;
}

export interface Verdict {
  /** The first two bots given. */
  a: string;
  b: string;
  test: string;
  /** The test decided before the cap. */
  decided: boolean;
  /** Which is better, once decided. */
  better: string | null;
  /** Games played when it decided (or all the games, at the cap). */
  games: number;
  /** Over every game played, with the head-to-head interval. */
  aAbove: number | null;
  ci95: Ci | null;
  /** The one-line verdict, e.g. `A places above B in 58% ± 3% of games (decided after 640 games)`. */
  text: string;
}

export interface BotCis {
  avgPlacementCi95: Ci | null;
  winRateCi95: Ci | null;
}

export interface TournamentStatistics {
  byBot: Map<string, BotCis>;
  headToHead: HeadToHead[];
  ci: CiInfo;
}

export function outcomesOf(bots: readonly ArenaBot[], games: readonly PlacedGame[]): GameOutcome[] {
  const index = new Map(bots.map((b, i) => [b.id, i]));
  return games
    .filter((g) => g.status === 'completed')
    .map((g) => {
      const placements = new Array<number | null>(bots.length).fill(null);
      const won = new Array<boolean>(bots.length).fill(false);
      for (const s of g.seats) {
        const i = index.get(s.botId);
        if (i === undefined || s.placement === null) continue;
        placements[i] = s.placement;
        won[i] = s.won;
      }
      // Games that share a seed (duplicate rotations) form one group.
      return { group: g.seed, placements, won };
    });
}

const ci = (i: Interval | null): Ci | null => (i === null ? null : [i.low, i.high]);

/** Intervals per bot (by id) and the head-to-head table, bootstrap seeded by the tournament seed. */
export function tournamentStatistics(
  bots: readonly ArenaBot[],
  games: readonly PlacedGame[],
  seed: string,
): TournamentStatistics {
  const s = outcomeStatistics(
    bots.map((b) => b.name),
    outcomesOf(bots, games),
    seed,
  );
  return { byBot: new Map(bots.map((b, i) => [b.id, s.bots[i]])), headToHead: s.headToHead, ci: s.ci };
}

/** The same statistics for entrants named `names` (outcomes indexed like them): `arena simulate`'s. */
export function outcomeStatistics(
  names: readonly string[],
  outcomes: readonly GameOutcome[],
  seed: string,
): { bots: BotCis[]; headToHead: HeadToHead[]; ci: CiInfo } {
  return packedStatistics(names, packOutcomes(outcomes, names.length), seed);
}

/** outcomeStatistics for games already packed (a long simulation keeps a byte per seat). */
export function packedStatistics(
  names: readonly string[],
  packed: PackedOutcomes,
  seed: string,
): { bots: BotCis[]; headToHead: HeadToHead[]; ci: CiInfo } {
  const resamples = resamplesFor(packed.groupStart[packed.groupStart.length - 1]);
  const v = packedVerdictStats(packed, seed, resamples);
  return {
    bots: v.bots.map((b) => ({ avgPlacementCi95: ci(b.meanPlacement), winRateCi95: ci(b.winRate) })),
    headToHead: v.pairs.map((p) => ({
      a: names[p.a],
      b: names[p.b],
      games: p.games,
      aAbove: p.aAbove?.value ?? null,
      ci95: ci(p.aAbove),
    })),
    ci: { method: CI_METHOD, confidence: CONFIDENCE, resamples },
  };
}

/**
 * Watches the first two bots as games finish, in game order, and says when
 * their difference is decided. Each seed group is one observation (A's mean
 * score against B over the group's games), taken when the group's last game
 * is in: so duplicate pairs are never split, and the look points do not
 * depend on which game happened to finish first.
 */
export class DecisionWatch {
  private readonly test = new SequentialTest();
  private groupScores: number[] = [];
  private decidedAt: number | null = null;
  private seen = 0;

  constructor(
    private readonly a: ArenaBot,
    private readonly b: ArenaBot,
    private readonly groupSize: number,
  ) {}

  /** The next game in game order; returns true once decided. */
  add(game: PlacedGame): boolean {
    if (this.decidedAt !== null) return true;
    this.seen++;
    if (game.status === 'completed') {
      const pa = game.seats.find((s) => s.botId === this.a.id)?.placement;
      const pb = game.seats.find((s) => s.botId === this.b.id)?.placement;
      const score = aboveScore(pa, pb);
      if (score !== null) this.groupScores.push(score);
    }
    if (this.seen % this.groupSize !== 0) return false;
    const scores = this.groupScores;
    this.groupScores = [];
    if (scores.length > 0 && this.test.add(scores.reduce((x, y) => x + y, 0) / scores.length) !== null)
      this.decidedAt = this.seen;
    return this.decidedAt !== null;
  }

  get decided(): boolean {
    return this.decidedAt !== null;
  }

  /** The verdict over the games played (`played`), with the head-to-head interval for A and B. */
  verdict(stats: TournamentStatistics, played: number, cap: number): Verdict {
    const h = stats.headToHead.find((x) => x.a === this.a.name && x.b === this.b.name);
    const aAbove = h?.aAbove ?? null;
    const ci95 = h?.ci95 ?? null;
    const decided = this.decidedAt !== null;
    const games = this.decidedAt ?? played;
    const better = this.test.decision === null ? null : this.test.decision === 'a' ? this.a.name : this.b.name;
    const text =
      aAbove === null || ci95 === null
        ? `${this.a.name} and ${this.b.name} never played a completed game together; nothing to decide`
        : verdictLine({ a: this.a.name, b: this.b.name, aAbove, low: ci95[0], high: ci95[1], decided, games, cap });
    return { a: this.a.name, b: this.b.name, test: SEQUENTIAL_METHOD, decided, better, games, aAbove, ci95, text };
  }
}
