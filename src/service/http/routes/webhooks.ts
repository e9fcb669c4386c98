// POST/GET /webhooks, DELETE /webhooks/{id}, GET /webhooks/{id}/deliveries
// (issue 29 item 5): the caller's webhooks and what was sent to them. A
// webhook of another account is 403 and an unknown one 404 (the ownBot rule).
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { UrlRejected } from '../../../net/address-policy';
import {
  MAX_WEBHOOKS_PER_ACCOUNT,
  WEBHOOK_DELIVERIES_KEPT,
  WebhookCreateBodySchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookListSchema,
  WebhookSchema,
  type Webhook,
  type WebhookDelivery,
} from '../../../protocol/webhooks';
import { StoreConflict, type Store, type WebhookDeliveryRecord, type WebhookRecord } from '../../store/types';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../webhooks/dispatcher';
import { MAX_WEBHOOK_BODY_BYTES } from '../../webhooks/payload';
import { checkWebhookUrl } from '../../webhooks/url-check';
import type { Authenticator } from '../auth';
import { allowanceText, DEFAULT_RATE_LIMITS, type AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError, rateLimited } from '../errors';
import { AUTH_ERRORS, CONFLICT, IdParam, json, NOT_FOUND, SECURITY, URL_ERRORS } from '../openapi-kit';
import { RateLimiter } from '../rate-limit';

const webhookView = (w: WebhookRecord): Webhook =>
  WebhookSchema.parse({ id: w.id, url: w.url, events: w.events, createdAt: w.createdAt });

const deliveryView = (d: WebhookDeliveryRecord): WebhookDelivery =>
  WebhookDeliverySchema.parse({
    id: d.id,
    webhookId: d.webhookId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    createdAt: d.createdAt,
    lastAttemptAt: d.lastAttemptAt,
    nextAttemptAt: d.nextAttemptAt,
    responseStatus: d.responseStatus,
    error: d.error,
    payload: d.payload,
  });

async function ownWebhook(store: Store, id: string, userId: string): Promise<WebhookRecord> {
  const hook = await store.getWebhook(id);
  if (!hook) throw new ApiError('not_found', `no webhook ${id}`);
  if (hook.ownerId !== userId) throw new ApiError('forbidden', `webhook ${id} belongs to another account`);
  return hook;
}

const hours = (ms: number) =>
  ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`;
const SCHEDULE_TEXT = DEFAULT_RETRY_SCHEDULE_MS.map((ms) => (ms === 0 ? 'at once' : hours(ms))).join(', ');

export function webhookRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, auth: Authenticator): void {
  const { store, log } = deps;
  const creations = new RateLimiter(deps.rateLimits.webhookCreations ?? DEFAULT_RATE_LIMITS.webhookCreations, deps.now);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/webhooks',
      tags: ['webhooks'],
      security: SECURITY,
      summary: 'Register a URL that hears of events about your bots',
      description: `Deliveries are POSTs in the Standard Webhooks format (headers webhook-id, webhook-timestamp, webhook-signature; body {type, timestamp, data} of at most ${MAX_WEBHOOK_BODY_BYTES} bytes), signed \`v1a\` (Ed25519) by the platform key of GET /.well-known/svc.json. An attempt that gets no 2xx within 10 s is retried, counted from the event: ${SCHEDULE_TEXT}; then the delivery is failed. The URL gets the bot URL policy (production: https at a public address; 422 url_rejected otherwise). An account may have ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks (409 conflict past that) and may add ${allowanceText(DEFAULT_RATE_LIMITS.webhookCreations)} (429).`,
      middleware: [auth.require('bots.write')] as const,
      request: { body: { content: { 'application/json': { schema: WebhookCreateBodySchema } }, required: true } },
      responses: { 201: json(WebhookSchema, 'The new webhook'), ...AUTH_ERRORS, ...CONFLICT, ...URL_ERRORS },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const caller = c.get('caller')!;
      const have = (await store.listWebhooks(caller.userId)).length;
      if (have >= MAX_WEBHOOKS_PER_ACCOUNT)
        throw new ApiError(
          'conflict',
          `this account has ${have} webhooks, the most it may have; remove one (arena webhooks remove ID) first`,
        );
      const wait = creations.take(caller.userId);
      if (wait > 0)
        throw rateLimited(deps.metrics, `too many webhooks added to this account lately; retry in ${wait} s`, wait);
      try {
        await checkWebhookUrl(body.url, deps.urlPolicy);
      } catch (err) {
        if (err instanceof UrlRejected) throw new ApiError('url_rejected', err.message);
        throw err;
      }
      let hook: WebhookRecord;
      try {
        hook = await store.addWebhook(
          { ownerId: caller.userId, url: body.url, events: [...new Set(body.events)] },
          MAX_WEBHOOKS_PER_ACCOUNT,
        );
      } catch (err) {
        if (err instanceof StoreConflict)
          throw new ApiError(
            'conflict',
            `this account has ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks, the most it may have; remove one first`,
          );
        throw err;
      }
      log({ event: 'webhook.add', userId: caller.userId, webhookId: hook.id, events: hook.events });
      return c.json(webhookView(hook), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/webhooks',
      tags: ['webhooks'],
      security: SECURITY,
      summary: 'Your webhooks, oldest first',
      middleware: [auth.require('bots.read')] as const,
      responses: { 200: json(WebhookListSchema, 'Every webhook of the caller'), ...AUTH_ERRORS },
    }),
    async (c) => c.json({ webhooks: (await store.listWebhooks(c.get('caller')!.userId)).map(webhookView) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/webhooks/{id}',
      tags: ['webhooks'],
      security: SECURITY,
      summary: 'Remove a webhook: nothing more is sent to it, pending retries included, and its deliveries go',
      middleware: [auth.require('bots.write')] as const,
      request: { params: IdParam },
      responses: { 204: { description: 'Removed' }, ...AUTH_ERRORS, ...NOT_FOUND },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const caller = c.get('caller')!;
      await ownWebhook(store, id, caller.userId);
      await store.removeWebhook(id);
      log({ event: 'webhook.remove', userId: caller.userId, webhookId: id });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/webhooks/{id}/deliveries',
      tags: ['webhooks'],
      security: SECURITY,
      summary: `A webhook's last ${WEBHOOK_DELIVERIES_KEPT} deliveries, newest first, with their status`,
      middleware: [auth.require('bots.read')] as const,
      request: { params: IdParam },
      responses: {
        200: json(WebhookDeliveryListSchema, 'What was sent, when, and how the receiver answered'),
        ...AUTH_ERRORS,
        ...NOT_FOUND,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await ownWebhook(store, id, c.get('caller')!.userId);
      return c.json({ deliveries: (await store.listWebhookDeliveries(id)).map(deliveryView) }, 200);
    },
  );
}
