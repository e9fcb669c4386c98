// Challenges (issue 29 item 4): an owner asks for one unrated match between
// one of their bots and 1-3 named bots of anyone's. The scheduler plays it at
// the first tick all of them are idle, or it expires. The numbers below are
// the contract the API, the CLI help and docs/operating.md state.
import { z } from 'zod';

/** Opponents one challenge names: the table is the challenger's bot and these (2 to 4 bots; built-in bots fill a table of 2 to the game's 3 seats). */
export const CHALLENGE_MAX_OPPONENTS = 3;
/** Challenges one account may have waiting at once. */
export const CHALLENGE_MAX_PENDING = 3;
/** Challenges one account may make in any 24 hours (played, expired or refused later, all count). */
export const CHALLENGE_MAX_PER_DAY = 20;
/** A challenge not played this long after it was made expires (its bots were never all idle at one tick). */
export const CHALLENGE_EXPIRY_MINUTES = 10;

export const CHALLENGE_STATUSES = ['pending', 'played', 'expired', 'refused'] as const;
export const ChallengeStatusSchema = z
  .enum(CHALLENGE_STATUSES)
  .describe('pending: waiting for its bots to be idle at one tick; played: its match started (matchId); expired: not played in time; refused: at the tick, a bot could no longer play it (reason).');

export const ChallengeSchema = z
  .strictObject({
    id: z.string(),
    botId: z.string().describe("The challenger's bot."),
    opponents: z.array(z.string()).min(1).max(CHALLENGE_MAX_OPPONENTS).describe('The bots challenged, as named.'),
    status: ChallengeStatusSchema,
    matchId: z.string().nullable().describe('The match, once played (unrated; its record has `challenge` set to this id).'),
    reason: z.string().nullable().describe('Why it expired or was refused.'),
    createdAt: z.string(),
    expiresAt: z.string().describe(`When it expires if still pending (${CHALLENGE_EXPIRY_MINUTES} minutes after it was made).`),
    endedAt: z.string().nullable().describe('When it stopped pending.'),
  })
  .describe('A challenge the caller made.');

export const ChallengeCreateBodySchema = z.strictObject({
  botId: z.string().min(1).max(64).describe("One of the caller's bots, active."),
  opponents: z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(CHALLENGE_MAX_OPPONENTS)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'name each opponent once' })
    .describe(`1-${CHALLENGE_MAX_OPPONENTS} bot ids: active bots that accept challenges, any owner's.`),
});

export const ChallengeListSchema = z.strictObject({
  challenges: z.array(ChallengeSchema).describe('Newest first.'),
});

export type Challenge = z.infer<typeof ChallengeSchema>;
export type ChallengeStatus = z.infer<typeof ChallengeStatusSchema>;
export type ChallengeCreateBody = z.infer<typeof ChallengeCreateBodySchema>;
