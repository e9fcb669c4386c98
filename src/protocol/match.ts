// Match records (spec section 2): MatchEvent (events.ts), MatchPlayer, MatchSummary, Match,
// the arena's MatchRecord extension, and LeaderboardRow. We emit all of them,
// so they are exact (z.strictObject).
import { z } from 'zod';
import { StampedGameEventSchema } from './events';
import {
  DecisionEntrySchema,
  MatchPlayerSchema,
  MatchStatusSchema,
  recordExtraShape,
  seedShape,
  summaryShape,
} from './match-header';

export { DecisionEntrySchema, MatchPlayerSchema, MatchStatusSchema };

/**
 * One replay event: the spec's MatchEvent (seq, at, kind, seat?, data?), with
 * `data` exact for each kind (events.ts; engine/README.md "Events").
 */
export const MatchEventSchema = StampedGameEventSchema.describe(
  'One replay event: seq, at, kind, the acting seat (where there is one) and the data of that kind.',
);

const matchShape = {
  ...summaryShape,
  ...seedShape,
  replay: z.array(MatchEventSchema).describe('Empty while the match runs.'),
};

export const MatchSummarySchema = z.strictObject(summaryShape).describe('A match without its seed and replay.');
export const MatchSchema = z.strictObject(matchShape).describe('A match with its seed and full replay once completed.');
export const MatchRecordSchema = z
  .strictObject({ ...matchShape, ...recordExtraShape })
  .describe('A Match as the arena stores it: plus rules version, seat count and final VP.');

export const LeaderboardRowSchema = z
  .strictObject({
    rank: z.number().int().min(1),
    botId: z.string(),
    name: z.string(),
    owner: z.string().describe("Owner's public handle."),
    rating: z.number().describe('mu - 3*sigma, 1 decimal.'),
    gamesPlayed: z.number().int().min(0),
  })
  .describe('One leaderboard row.');

export type MatchStatus = z.infer<typeof MatchStatusSchema>;
export type MatchEvent = z.infer<typeof MatchEventSchema>;
export type MatchPlayer = z.infer<typeof MatchPlayerSchema>;
export type MatchSummary = z.infer<typeof MatchSummarySchema>;
export type Match = z.infer<typeof MatchSchema>;
export type MatchRecord = z.infer<typeof MatchRecordSchema>;
export type { DecisionEntry } from './match-header-types';
export type LeaderboardRow = z.infer<typeof LeaderboardRowSchema>;
