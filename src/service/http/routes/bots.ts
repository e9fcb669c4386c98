// The owner's bots: register (URL check, then deploy check), list, inspect,
// rename or move, pause, resume, remove. Only the owner sees or touches a
// bot; its URL appears in no other response and in no log line.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { checkBotUrl, UrlRejected } from '../../../net/address-policy';
import {
  BotCreateBodySchema,
  BotListSchema,
  BotSchema,
  BotUpdateBodySchema,
  BotVersionListSchema,
  GameSchema,
} from '../../../protocol/api';
import { versionViews } from '../../store/bot-versions';
import { StoreConflict } from '../../store/types';
import {
  BotCheckBodySchema,
  BotCheckMessageSchema,
  type BotCheckMessage,
  type BotCheckStep,
} from '../../../protocol/bot-check';
import type { Authenticator } from '../auth';
import { allowanceText, DEFAULT_RATE_LIMITS, type AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { ownBot as ownBotOf } from '../own-bot';
import { ApiError, rateLimited } from '../errors';
import { RateLimiter } from '../rate-limit';
import { AUTH_ERRORS, CONFLICT, IdParam, json, NOT_FOUND, SECURITY, URL_ERRORS } from '../openapi-kit';
import { botView } from '../views';

/**
 * Bots one account may have (removed ones aside). Each is seated every tick it is idle and
 * kept in the store, so without a bound one key could fill both.
 */
export const MAX_BOTS_PER_USER = 100;

export function botRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, auth: Authenticator): void {
  const { store, log } = deps;
  const checks = new RateLimiter(deps.rateLimits.deployChecks ?? DEFAULT_RATE_LIMITS.deployChecks, deps.now);
  const requalifications = new RateLimiter(
    deps.rateLimits.requalifications ?? DEFAULT_RATE_LIMITS.requalifications,
    deps.now,
  );
  const qualify = deps.qualify === true;

  /** Refuses with 429 when the account has no deploy check left; `spend` uses one up. */
  function checkAllowance(userId: string, spend: boolean): void {
    const wait = spend ? checks.take(userId) : checks.wait(userId);
    if (wait > 0)
      throw rateLimited(
        deps.metrics,
        `too many deploy checks run for this account (each connects to the bot's URL); retry in ${wait} s`,
        wait,
      );
  }

  /**
   * The URL check, then the deploy check against the very address that was
   * checked, which spends one of the account's checks. onStep hears each step
   * start and pass (POST /bots/check streams them).
   */
  async function checkUrl(
    url: string,
    userId: string,
    onStep: (step: BotCheckStep, status: 'running' | 'passed') => void = () => {},
  ): Promise<void> {
    let checked;
    onStep('url', 'running');
    try {
      checked = await checkBotUrl(url, deps.urlPolicy);
    } catch (err) {
      if (err instanceof UrlRejected) throw new ApiError('url_rejected', err.message);
      throw err;
    }
    onStep('url', 'passed');
    checkAllowance(userId, true);
    const result = await deps.deployCheck(url, {
      platformKey: deps.platformKey,
      gate: async () => ({ address: checked.address, family: checked.family }),
      onStep: (step) => {
        if (step === 'upgrade') onStep('ping', 'passed');
        onStep(step, 'running');
      },
    });
    if (!result.ok)
      throw new ApiError(
        'deploy_check_failed',
        `deploy check failed at ${result.failure.step}: ${result.failure.message}`,
      );
    onStep('upgrade', 'passed');
  }

  const ownBot = (id: string, userId: string) => ownBotOf(store, id, userId);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/bots',
      tags: ['bots'],
      summary: 'Register a bot (checks its URL, then /ping and a signed upgrade)',
      security: SECURITY,
      description: `An account may have ${MAX_BOTS_PER_USER} bots (removed ones aside); past that the answer is 409 conflict.`,
      middleware: [auth.require('bots.write')] as const,
      request: { body: { content: { 'application/json': { schema: BotCreateBodySchema } }, required: true } },
      responses: {
        201: json(
          BotSchema,
          'The new bot: qualifying (its unrated qualifier starts on the next tick), or active where the server runs with --qualify off',
        ),
        ...AUTH_ERRORS,
        ...CONFLICT,
        ...URL_ERRORS,
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const caller = c.get('caller')!;
      // Before the deploy check: a refused registration costs the bot's host nothing.
      const owned = (await store.listBots(caller.userId)).length;
      if (owned >= MAX_BOTS_PER_USER)
        throw new ApiError(
          'conflict',
          `this account has ${owned} bots, the most it may have; remove one (arena bots remove BOT) before registering another`,
        );
      await checkUrl(body.url, caller.userId);
      const bot = await store.addBot({
        ownerId: caller.userId,
        name: body.name,
        game: body.game,
        url: body.url,
        qualify,
      });
      log({ event: 'bot.register', userId: caller.userId, botId: bot.id });
      return c.json(botView(bot), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/bots/check',
      tags: ['bots'],
      security: SECURITY,
      summary: 'Run the registration checks on a URL, streaming each step as it happens (nothing is saved)',
      description: `The same checks POST /bots and a URL change run, one JSON line per event (application/x-ndjson): each step as it starts and passes, then \`passed\`, or \`failed\` with the step and the error a registration would get. Registration runs its own checks regardless. An account may have checks run ${allowanceText(DEFAULT_RATE_LIMITS.deployChecks)} (these, registrations and URL changes); past that the answer is 429 rate_limited with Retry-After.`,
      middleware: [auth.require('bots.write')] as const,
      request: { body: { content: { 'application/json': { schema: BotCheckBodySchema } }, required: true } },
      responses: {
        200: {
          description: 'The checks, as they happen',
          content: { 'application/x-ndjson': { schema: BotCheckMessageSchema } },
        },
        ...AUTH_ERRORS,
      },
    }),
    async (c) => {
      const { url } = c.req.valid('json');
      const caller = c.get('caller')!;
      // Said before the stream starts, so the refusal is a 429 with Retry-After, not a line in it.
      checkAllowance(caller.userId, false);
      const encoder = new TextEncoder();
      let current: BotCheckStep = 'url';
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          let open = true;
          const send = (m: BotCheckMessage) => {
            if (!open) return;
            try {
              controller.enqueue(encoder.encode(JSON.stringify(m) + '\n'));
            } catch {
              open = false; // the client went away: the checks finish unheard
            }
          };
          try {
            await checkUrl(url, caller.userId, (step, status) => {
              current = step;
              send({ type: 'step', step, status });
            });
            send({ type: 'passed' });
          } catch (err) {
            // Headers are gone by now: a failure of our own is reported in the stream too.
            const e = err instanceof ApiError ? err : new ApiError('internal', 'the checks could not run; try again');
            send({ type: 'failed', step: current, error: { code: e.code, message: e.message } });
          } finally {
            log({ event: 'bot.check', userId: caller.userId });
            try {
              controller.close();
            } catch {
              // already cancelled by the client
            }
          }
        },
      });
      return c.body(stream, 200, {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'cache-control': 'no-store',
      }) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/bots',
      tags: ['bots'],
      summary: 'Your bots',
      security: SECURITY,
      middleware: [auth.require('bots.read')] as const,
      request: { query: z.object({ game: GameSchema.optional() }) },
      responses: { 200: json(BotListSchema, "The caller's bots, oldest first"), ...AUTH_ERRORS },
    }),
    async (c) => {
      const { game } = c.req.valid('query');
      return c.json({ bots: (await store.listBots(c.get('caller')!.userId, game)).map(botView) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/bots/{id}',
      tags: ['bots'],
      summary: 'One of your bots',
      security: SECURITY,
      middleware: [auth.require('bots.read')] as const,
      request: { params: IdParam },
      responses: { 200: json(BotSchema, 'The bot'), ...AUTH_ERRORS, ...NOT_FOUND },
    }),
    async (c) => c.json(botView(await ownBot(c.req.valid('param').id, c.get('caller')!.userId)), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/bots/{id}',
      tags: ['bots'],
      summary: 'Rename a bot, change its URL (checked like a new bot) or whether it accepts challenges',
      security: SECURITY,
      description:
        "A changed url, or newVersion, starts a new version of the bot: the rating carries over with its sigma widened halfway back to a new bot's, the old URL is never contacted again (a match already running keeps its connection, and a reconnect to the old URL is refused), and where qualification is on the bot plays a new qualifier before it is rated again (status qualifying; a paused bot stays paused).",
      middleware: [auth.require('bots.write')] as const,
      request: {
        params: IdParam,
        body: { content: { 'application/json': { schema: BotUpdateBodySchema } }, required: true },
      },
      responses: { 200: json(BotSchema, 'The updated bot'), ...AUTH_ERRORS, ...NOT_FOUND, ...URL_ERRORS },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const patch = c.req.valid('json');
      const caller = c.get('caller')!;
      const bot = await ownBot(id, caller.userId);
      const urlChanged = patch.url !== undefined && patch.url !== bot.url;
      if (urlChanged) await checkUrl(patch.url!, caller.userId);
      const plain = {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.challengeable !== undefined && { challengeable: patch.challengeable }),
      };
      let updated = Object.keys(plain).length > 0 ? await store.updateBot(id, plain) : bot;
      if (urlChanged || patch.newVersion) {
        updated = await store.startBotVersion(id, { ...(urlChanged ? { url: patch.url } : {}), qualify });
        log({ event: 'bot.version', userId: caller.userId, botId: id, version: updated.version });
      }
      log({ event: 'bot.update', userId: caller.userId, botId: id, fields: Object.keys(patch) });
      return c.json(botView(updated), 200);
    },
  );

  for (const [action, status] of [
    ['pause', 'paused'],
    ['resume', 'active'],
  ] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/bots/{id}/${action}`,
        tags: ['bots'],
        security: SECURITY,
        summary:
          action === 'pause'
            ? 'Take a bot out of matchmaking (a running match finishes)'
            : 'Put a paused bot back into matchmaking',
        description:
          action === 'pause'
            ? 'Pausing wins over qualification: a paused bot plays neither rated matches nor its qualifier.'
            : 'The bot returns to what its qualification says: active once passed (or with none), qualifying (its qualifier plays next), or failed (requalify to try again).',
        middleware: [auth.require('bots.write')] as const,
        request: { params: IdParam },
        responses: { 200: json(BotSchema, 'The bot'), ...AUTH_ERRORS, ...NOT_FOUND },
      }),
      async (c) => {
        const { id } = c.req.valid('param');
        const caller = c.get('caller')!;
        await ownBot(id, caller.userId);
        const updated = await store.updateBot(id, { status });
        log({ event: `bot.${action}`, userId: caller.userId, botId: id });
        return c.json(botView(updated), 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/bots/{id}/requalify',
      tags: ['bots'],
      security: SECURITY,
      summary: "Play the bot's qualifier again (after a failure, or to prove a fix)",
      description: `The bot waits as qualifying (a paused bot stays paused) and its qualifier plays at the next tick: one unrated match against the server's built-in bots; at most 1 strike and no resignation pass. An account may requalify ${allowanceText(DEFAULT_RATE_LIMITS.requalifications)}; past that 429 rate_limited with Retry-After. 409 conflict when it is waiting for a qualifier already, or the server runs with --qualify off.`,
      middleware: [auth.require('bots.write')] as const,
      request: { params: IdParam },
      responses: { 200: json(BotSchema, 'The bot, qualifying'), ...AUTH_ERRORS, ...NOT_FOUND, ...CONFLICT },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const caller = c.get('caller')!;
      const bot = await ownBot(id, caller.userId);
      if (!qualify)
        throw new ApiError(
          'conflict',
          'qualification is off on this server (serve --qualify off): every bot is rated without one',
        );
      if (bot.qualification?.state === 'qualifying')
        throw new ApiError('conflict', 'the bot is waiting for its qualifier already; it plays at the next tick');
      const wait = requalifications.take(caller.userId);
      if (wait > 0)
        throw rateLimited(
          deps.metrics,
          `too many requalifications for this account (each plays a match on the server); retry in ${wait} s`,
          wait,
        );
      let updated;
      try {
        updated = await store.requalifyBot(id);
      } catch (err) {
        if (err instanceof StoreConflict)
          throw new ApiError('conflict', 'the bot is waiting for its qualifier already; it plays at the next tick');
        throw err;
      }
      log({ event: 'bot.requalify', userId: caller.userId, botId: id });
      return c.json(botView(updated), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/bots/{id}/versions',
      tags: ['bots'],
      summary: 'Each version of your bot: rated games, the rating at its end, dates',
      security: SECURITY,
      description:
        "A version starts at registration, at each URL change and at each newVersion update. The rating at a version's end is before the next version widened its sigma; the current version's is the rating now.",
      middleware: [auth.require('bots.read')] as const,
      request: { params: IdParam },
      responses: { 200: json(BotVersionListSchema, 'Oldest first'), ...AUTH_ERRORS, ...NOT_FOUND },
    }),
    async (c) => {
      const bot = await ownBot(c.req.valid('param').id, c.get('caller')!.userId);
      const rating = await store.getRating(bot.id, bot.game);
      return c.json({ botId: bot.id, versions: versionViews(bot, rating) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/bots/{id}',
      tags: ['bots'],
      summary: 'Remove a bot: it leaves matchmaking at once and keeps its name on old matches',
      security: SECURITY,
      middleware: [auth.require('bots.write')] as const,
      request: { params: IdParam },
      responses: { 204: { description: 'Removed' }, ...AUTH_ERRORS, ...NOT_FOUND },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const caller = c.get('caller')!;
      await ownBot(id, caller.userId);
      await store.removeBot(id);
      log({ event: 'bot.remove', userId: caller.userId, botId: id });
      return c.body(null, 204);
    },
  );
}
