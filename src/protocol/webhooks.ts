// Webhooks (issue 29 item 5): an owner's URLs that hear of events about their
// bots, delivered in the Standard Webhooks format and signed (v1a, Ed25519)
// by the platform key published at GET /.well-known/svc.json.
import { z } from 'zod';

export const WEBHOOK_EVENTS = [
  'match.completed',
  'bot.qualified',
  'bot.failed',
  'bot.struck_out',
  'bot.unreachable',
] as const;

/** Webhooks one account may have. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 10;
/** Deliveries kept per webhook (newest); older ones are dropped, even if still being retried. */
export const WEBHOOK_DELIVERIES_KEPT = 50;

export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS).describe('An event about your bots a webhook can hear of.');

export const WebhookSchema = z
  .strictObject({
    id: z.string(),
    url: z.string().describe('Where deliveries are POSTed.'),
    events: z.array(WebhookEventSchema).min(1).describe('The events it hears of.'),
    createdAt: z.string(),
  })
  .describe('A URL of yours that hears of events about your bots.');

export const WebhookCreateBodySchema = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(2048)
    .describe('https, at a public address (http and any address only on a server in development mode).'),
  events: z
    .array(WebhookEventSchema)
    .min(1)
    .max(WEBHOOK_EVENTS.length)
    .describe('At least one event; repeats count once.'),
});

export const WebhookListSchema = z.strictObject({ webhooks: z.array(WebhookSchema).describe('Oldest first.') });

export const WebhookDeliverySchema = z
  .strictObject({
    id: z.string().describe('The webhook-id header of every attempt (the same on retries: dedupe on it).'),
    webhookId: z.string(),
    type: WebhookEventSchema,
    status: z
      .enum(['pending', 'delivered', 'failed'])
      .describe('pending: not yet answered with a 2xx and retries are left; failed: every attempt failed.'),
    attempts: z.number().int().min(0),
    createdAt: z.string(),
    lastAttemptAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable().describe('When it is tried next (pending only).'),
    responseStatus: z.number().int().nullable().describe('The HTTP status of the last attempt, null when none came.'),
    error: z.string().nullable().describe('Why the last attempt failed, when it did.'),
    payload: z.string().describe('The exact body sent (JSON text).'),
  })
  .describe('One event sent (or being sent) to a webhook.');

export const WebhookDeliveryListSchema = z.strictObject({
  deliveries: z.array(WebhookDeliverySchema).describe(`Newest first; the last ${WEBHOOK_DELIVERIES_KEPT} are kept.`),
});

export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookCreateBody = z.infer<typeof WebhookCreateBodySchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
