// The owner's webhooks as library calls over the signed API (POST/GET
// /webhooks, DELETE /webhooks/{id}, GET /webhooks/{id}/deliveries); the CLI's
// `arena webhooks` is a thin layer over these.
import {
  WebhookDeliveryListSchema,
  WebhookListSchema,
  WebhookSchema,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '../protocol/webhooks';
import { callJson, callRaw, type ApiTarget } from './api';
import { ClientError } from './errors';

function seg(id: string): string {
  if (id === '' || id === '.' || id === '..')
    throw new ClientError(`"${id}" is not a webhook id (they look like wh_...)`);
  return encodeURIComponent(id);
}

export function addWebhook(t: ApiTarget, input: { url: string; events: WebhookEvent[] }): Promise<Webhook> {
  return callJson(t, 'POST', '/webhooks', WebhookSchema, input);
}

export async function listWebhooks(t: ApiTarget): Promise<Webhook[]> {
  return (await callJson(t, 'GET', '/webhooks', WebhookListSchema)).webhooks;
}

export async function removeWebhook(t: ApiTarget, id: string): Promise<void> {
  await callRaw(t, 'DELETE', `/webhooks/${seg(id)}`);
}

export async function listWebhookDeliveries(t: ApiTarget, id: string): Promise<WebhookDelivery[]> {
  return (await callJson(t, 'GET', `/webhooks/${seg(id)}/deliveries`, WebhookDeliveryListSchema)).deliveries;
}
