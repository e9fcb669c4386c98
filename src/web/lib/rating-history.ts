// A bot's rating history from its public match records: every completed
// match carries the bot's ratingDelta (shown rating after minus before). A
// new bot starts at mu - 3*sigma = 25 - 3*(25/3) = 0 (spec, Rating), so with
// all of its matches the history is the running sum of the deltas. When only
// the newest matches were fetched, the history is anchored at the current
// leaderboard rating instead and walked backwards.
import type { MatchSummary } from '../../protocol/index';

export interface RatingPoint {
  matchId: string;
  /** Shown rating after this match. */
  rating: number;
  delta: number;
  at: string | null;
}

/** The shown rating of a bot that has played nothing. */
export const INITIAL_RATING = 0;

export interface RatingHistory {
  start: number;
  points: RatingPoint[];
}

export function ratingHistory(
  botId: string,
  newestFirst: readonly MatchSummary[],
  opts: { complete: boolean; currentRating?: number },
): RatingHistory {
  const played: Array<{ matchId: string; delta: number; at: string | null }> = [];
  for (let i = newestFirst.length - 1; i >= 0; i--) {
    const m = newestFirst[i];
    if (m.status !== 'completed') continue;
    const p = m.players.find((x) => x.botId === botId);
    if (!p || p.ratingDelta === null) continue;
    played.push({ matchId: m.id, delta: p.ratingDelta, at: m.endedAt });
  }
  const total = played.reduce((a, p) => a + p.delta, 0);
  const start = opts.complete || opts.currentRating === undefined ? INITIAL_RATING : opts.currentRating - total;
  let r = start;
  const points = played.map((p) => {
    r += p.delta;
    return { matchId: p.matchId, delta: p.delta, at: p.at, rating: r };
  });
  return { start, points };
}
