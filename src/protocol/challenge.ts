// Challenges (issue 29 item 4): an owner asks for one unrated match between
// one of their bots and 1-3 named bots of anyone's. The scheduler plays it at
// the first tick all of them are idle, or it expires. Its numbers (limits,
// expiry) are in challenge-limits.ts.
import { z } from 'zod';
import { CHALLENGE_EXPIRY_MINUTES, CHALLENGE_MAX_OPPONENTS } from './challenge-limits';

export * from './challenge-limits';

export const CHALLENGE_STATUSES = ['pending', 'played', 'expired', 'refused'] as const;
export const ChallengeStatusSchema = z
  .enum(CHALLENGE_STATUSES)
  .describe(
    'pending: waiting for its bots to be idle at one tick; played: its match started (matchId); expired: not played in time; refused: at the tick, a bot could no longer play it (reason).',
  );

export const ChallengeSchema = z
  .strictObject({
    id: z.string(),
    botId: z.string().describe("The challenger's bot."),
    opponents: z.array(z.string()).min(1).max(CHALLENGE_MAX_OPPONENTS).describe('The bots challenged, as named.'),
    status: ChallengeStatusSchema,
    matchId: z
      .string()
      .nullable()
      .describe('The match, once played (unrated; its record has `challenge` set to this id).'),
    reason: z.string().nullable().describe('Why it expired or was refused.'),
    createdAt: z.string(),
    expiresAt: z
      .string()
      .describe(`When it expires if still pending (${CHALLENGE_EXPIRY_MINUTES} minutes after it was made).`),
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
