// Challenges (issue 29 item 4): POST /challenges asks for one unrated match
// between one of the caller's bots and 1-3 named bots of anyone's; GET
// /challenges lists the caller's. Every check runs before anything is
// stored, so a refused challenge changes nothing; the per-account limits are
// checked by the store in the same step as the add.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  CHALLENGE_EXPIRY_MINUTES,
  CHALLENGE_MAX_PENDING,
  CHALLENGE_MAX_PER_DAY,
  ChallengeCreateBodySchema,
  ChallengeListSchema,
  ChallengeSchema,
  type Challenge,
} from '../../../protocol/challenge';
import { StoreConflict, type BotRecord, type ChallengeRecord, type Store } from '../../store/types';
import type { Authenticator } from '../auth';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError, rateLimited } from '../errors';
import { AUTH_ERRORS, CONFLICT, json, NOT_FOUND, PageLimit, SECURITY } from '../openapi-kit';
import { ownBot } from '../own-bot';

const DAY_MS = 24 * 3600_000;

export const challengeView = (c: ChallengeRecord): Challenge =>
  ChallengeSchema.parse({
    id: c.id,
    botId: c.botId,
    opponents: c.opponents,
    status: c.status,
    matchId: c.matchId,
    reason: c.reason,
    createdAt: c.createdAt,
    expiresAt: c.expiresAt,
    endedAt: c.endedAt,
  });

/**
 * An opponent that may be challenged now, or the refusal: 404 unknown or removed, 409 paused, 403 when its owner turned
 * challenges off.
 */
async function opponent(store: Store, id: string, callerId: string): Promise<BotRecord> {
  const bot = await store.getBot(id);
  if (!bot || bot.removedAt !== null) throw new ApiError('not_found', `no bot ${id}`);
  if (bot.status !== 'active')
    throw new ApiError('conflict', `bot ${id} (${bot.name}) is ${bot.status}: it plays no matches now`);
  if (bot.challengeable === false && bot.ownerId !== callerId)
    throw new ApiError('forbidden', `bot ${id} (${bot.name}) does not accept challenges: its owner turned them off`);
  return bot;
}

/**
 * Seconds until the account may challenge again: its first pending challenge's expiry, or its oldest of the day leaving
 * the 24 hours.
 */
async function retryAfter(store: Store, ownerId: string, what: string, now: number): Promise<number> {
  const recent = await store.listChallenges(ownerId, 100);
  const at =
    what === 'pending_challenges'
      ? Math.min(...recent.filter((c) => c.status === 'pending').map((c) => Date.parse(c.expiresAt)))
      : Math.min(
          ...recent.filter((c) => Date.parse(c.createdAt) > now - DAY_MS).map((c) => Date.parse(c.createdAt) + DAY_MS),
        );
  return Number.isFinite(at) ? Math.max(1, Math.ceil((at - now) / 1000)) : 60;
}

export function challengeRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, auth: Authenticator): void {
  const { store, log } = deps;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/challenges',
      tags: ['challenges'],
      security: SECURITY,
      summary: 'Challenge bots to an unrated match with one of your bots',
      description:
        `The match is played at the first tick the challenger's bot and every opponent are idle, unrated, and its record says \`challenge\`. ` +
        `It expires ${CHALLENGE_EXPIRY_MINUTES} minutes after it is made if they never were. Opponents: 1-3 active bots of any owner that accept challenges; ` +
        "a table of 2 gets a built-in bot as its third seat. Refused, with nothing stored: your bot unknown or removed (404), another account's (403) or paused (409); " +
        'an opponent unknown or removed (404), paused (409), or whose owner turned challenges off (403). ' +
        `An account may have ${CHALLENGE_MAX_PENDING} challenges pending and make ${CHALLENGE_MAX_PER_DAY} in any 24 hours; past either the answer is 429 rate_limited with Retry-After.`,
      middleware: [auth.require('bots.write')] as const,
      request: { body: { content: { 'application/json': { schema: ChallengeCreateBodySchema } }, required: true } },
      responses: { 201: json(ChallengeSchema, 'The challenge, pending'), ...AUTH_ERRORS, ...NOT_FOUND, ...CONFLICT },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const caller = c.get('caller')!;
      if (body.opponents.includes(body.botId))
        throw new ApiError('invalid_request', 'opponents: a bot cannot challenge itself; name other bots');
      const mine = await ownBot(store, body.botId, caller.userId);
      if (mine.status !== 'active') {
        throw new ApiError(
          'conflict',
          `your bot ${mine.id} (${mine.name}) is ${mine.status}; ${mine.status === 'paused' ? `resume it first (arena bots resume ${mine.id})` : 'it plays no matches now'}`,
        );
      }
      for (const id of body.opponents) await opponent(store, id, caller.userId);
      let made: ChallengeRecord;
      try {
        made = await store.addChallenge(
          { ownerId: caller.userId, botId: mine.id, opponents: body.opponents },
          CHALLENGE_EXPIRY_MINUTES * 60_000,
          {
            maxPending: CHALLENGE_MAX_PENDING,
            maxPerDay: CHALLENGE_MAX_PER_DAY,
          },
        );
      } catch (err) {
        if (err instanceof StoreConflict && (err.what === 'pending_challenges' || err.what === 'daily_challenges')) {
          const wait = await retryAfter(store, caller.userId, err.what, deps.now());
          const limit =
            err.what === 'pending_challenges'
              ? `${CHALLENGE_MAX_PENDING} pending at once`
              : `${CHALLENGE_MAX_PER_DAY} in 24 hours`;
          throw rateLimited(deps.metrics, `${err.message} (${limit}); retry in ${wait} s`, wait);
        }
        throw err;
      }
      log({
        event: 'challenge.create',
        userId: caller.userId,
        challengeId: made.id,
        botId: made.botId,
        opponents: made.opponents,
      });
      return c.json(challengeView(made), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/challenges',
      tags: ['challenges'],
      security: SECURITY,
      summary: 'Your challenges with their status: pending, played (with the match id), expired or refused',
      middleware: [auth.require('bots.read')] as const,
      request: {
        query: z.object({
          limit: PageLimit,
        }),
      },
      responses: { 200: json(ChallengeListSchema, "The caller's challenges, newest first"), ...AUTH_ERRORS },
    }),
    async (c) => {
      const { limit } = c.req.valid('query');
      const list = await store.listChallenges(c.get('caller')!.userId, limit);
      return c.json({ challenges: list.map(challengeView) }, 200);
    },
  );
}
