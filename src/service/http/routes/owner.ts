// What a bot's owner alone sees of its matches (issue 28 part 3, issue 29
// item 6): its strike log with what it sent, and its notes in one match. The
// same rule as the other owner-only bot routes (bots.ts): an unknown or
// removed bot is 404, someone else's is 403, and neither answer says more.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { BotStrikePageSchema, MatchNotesSchema } from '../../../protocol/index';
import { InvalidCursor } from '../../store/types';
import type { Authenticator } from '../auth';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { ownBot as ownBotOf } from '../own-bot';
import { ApiError } from '../errors';
import { AUTH_ERRORS, IdParam, json, NOT_FOUND, PageLimit, SECURITY } from '../openapi-kit';

export function ownerRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, auth: Authenticator): void {
  const { store } = deps;

  const ownBot = (id: string, userId: string) => ownBotOf(store, id, userId);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/bots/{id}/strikes',
      tags: ['bots'],
      security: SECURITY,
      summary:
        "Your bot's strike log, newest first: each strike's code, message, decision and the first 200 bytes of the answer",
      description:
        "For the bot's owner only (a key with bots.read, or the dashboard session). Spectators see a strike's reason class in the public record and nothing of the answer. Kept when a match ends (completed or aborted).",
      middleware: [auth.require('bots.read')] as const,
      request: {
        params: IdParam,
        query: z.object({
          limit: PageLimit,
          cursor: z.string().max(200).optional(),
        }),
      },
      responses: {
        200: json(BotStrikePageSchema, 'A page; pass `next` as cursor for the following one'),
        ...AUTH_ERRORS,
        ...NOT_FOUND,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const q = c.req.valid('query');
      await ownBot(id, c.get('caller')!.userId);
      try {
        return c.json(await store.listBotStrikes(id, { limit: q.limit, cursor: q.cursor ?? null }), 200);
      } catch (err) {
        if (err instanceof InvalidCursor)
          throw new ApiError('invalid_request', 'cursor: not a cursor this server gave out; start again without it');
        throw err;
      }
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/bots/{id}/matches/{matchId}/notes',
      tags: ['bots'],
      security: SECURITY,
      summary: "Your bot's notes (the `debug` it sent) and strikes in one finished match",
      description:
        "For the bot's owner only (a key with bots.read, or the dashboard session); public records carry no notes. 404 for a match the bot did not play or that has not ended.",
      middleware: [auth.require('bots.read')] as const,
      request: { params: z.object({ id: z.string().min(1).max(64), matchId: z.string().min(1).max(64) }) },
      responses: {
        200: json(MatchNotesSchema, 'The decisions that carried a note, in order, and the strikes'),
        ...AUTH_ERRORS,
        ...NOT_FOUND,
      },
    }),
    async (c) => {
      const { id, matchId } = c.req.valid('param');
      await ownBot(id, c.get('caller')!.userId);
      const match = await store.getMatch(matchId);
      if (!match?.players.some((p) => p.botId === id))
        throw new ApiError('not_found', `bot ${id} played no match ${matchId}`);
      if (match.status === 'running')
        throw new ApiError('not_found', `match ${matchId} has not ended; its notes are kept when it does`);
      const data = await store.getOwnerMatchData(matchId, id);
      return c.json({ matchId, botId: id, notes: data?.notes ?? [], strikes: data?.strikes ?? [] }, 200);
    },
  );
}
