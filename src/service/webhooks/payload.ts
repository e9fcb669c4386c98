// The body of a delivery (Standard Webhooks): {type, timestamp, data}. Data
// holds the event's public facts and the ids it is about; never a bot's URL.
import type { OwnerEvent } from '../owner-events';

/** The most a delivery's body may be; an event's data past it is cut to its ids (and `truncated: true`). */
export const MAX_WEBHOOK_BODY_BYTES = 16 * 1024;

/** Keys never sent, whatever an emitter put in: a bot's URL is its owner's secret from everyone else on the path. */
const WITHHELD = new Set(['url', 'botUrl']);

export function webhookBody(event: OwnerEvent, at: Date): string {
  const ids = { botId: event.botId, ...(event.matchId !== undefined ? { matchId: event.matchId } : {}) };
  const facts = Object.fromEntries(Object.entries(event.data).filter(([k]) => !WITHHELD.has(k)));
  const body = JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: { ...facts, ...ids } });
  if (Buffer.byteLength(body) <= MAX_WEBHOOK_BODY_BYTES) return body;
  return JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: { ...ids, truncated: true } });
}
