// Webhooks and their deliveries on PostgreSQL (sql/0003-webhooks.ts).
import { newId } from '../ids';
import {
  StoreConflict,
  StoreNotFound,
  type WebhookDeliveryPatch,
  type WebhookDeliveryRecord,
  type WebhookRecord,
} from '../types';
import type { Db } from './db';

export async function addWebhook(
  db: Db,
  input: Pick<WebhookRecord, 'ownerId' | 'url' | 'events'>,
  max: number,
  createdAt: string,
): Promise<WebhookRecord> {
  const hook: WebhookRecord = {
    id: newId('wh'),
    ownerId: input.ownerId,
    url: input.url,
    events: [...input.events],
    createdAt,
  };
  return db.tx(async (sql) => {
    // The user row's lock makes two adds of one account take turns, so the count cannot be raced past.
    const owner = await sql('SELECT 1 FROM arena_users WHERE id = $1 FOR UPDATE', [String(input.ownerId)]);
    if (!owner.rows[0]) throw new StoreNotFound('user', input.ownerId);
    const have = Number(
      (await sql('SELECT count(*) AS n FROM arena_webhooks WHERE owner_id = $1', [hook.ownerId])).rows[0].n,
    );
    if (have >= max) throw new StoreConflict('webhooks', `this account has ${have} webhooks, the most it may have`);
    await sql('INSERT INTO arena_webhooks (id, owner_id, data) VALUES ($1, $2, $3)', [
      hook.id,
      hook.ownerId,
      JSON.stringify(hook),
    ]);
    return hook;
  });
}

export async function getWebhook(db: Db, id: string): Promise<WebhookRecord | null> {
  const r = await db.query<{ data: string }>('SELECT data FROM arena_webhooks WHERE id = $1', [String(id)]);
  return r.rowCount ? (JSON.parse(r.rows[0].data) as WebhookRecord) : null;
}

export async function listWebhooks(db: Db, ownerId: string): Promise<WebhookRecord[]> {
  const r = await db.query<{ data: string }>('SELECT data FROM arena_webhooks WHERE owner_id = $1 ORDER BY seq', [
    String(ownerId),
  ]);
  return r.rows.map((row) => JSON.parse(row.data) as WebhookRecord);
}

export async function removeWebhook(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM arena_webhooks WHERE id = $1', [String(id)]);
}

export async function addWebhookDelivery(db: Db, rec: WebhookDeliveryRecord, keep: number): Promise<boolean> {
  return db.tx(async (sql) => {
    const hook = await sql('SELECT 1 FROM arena_webhooks WHERE id = $1 FOR UPDATE', [rec.webhookId]);
    if (!hook.rows[0]) return false;
    try {
      await sql('INSERT INTO arena_webhook_deliveries (id, webhook_id, status, data) VALUES ($1, $2, $3, $4)', [
        rec.id,
        rec.webhookId,
        rec.status,
        JSON.stringify(rec),
      ]);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new StoreConflict('delivery', `delivery ${rec.id} exists`);
      throw err;
    }
    await sql(
      `DELETE FROM arena_webhook_deliveries WHERE webhook_id = $1 AND seq NOT IN (
         SELECT seq FROM arena_webhook_deliveries WHERE webhook_id = $1 ORDER BY seq DESC LIMIT $2)`,
      [rec.webhookId, keep],
    );
    return true;
  });
}

export async function updateWebhookDelivery(db: Db, id: string, patch: WebhookDeliveryPatch): Promise<boolean> {
  return db.tx(async (sql) => {
    const r = await sql('SELECT data FROM arena_webhook_deliveries WHERE id = $1 FOR UPDATE', [String(id)]);
    if (!r.rows[0]) return false;
    const rec = { ...(JSON.parse(r.rows[0].data as string) as WebhookDeliveryRecord), ...pick(patch) };
    await sql('UPDATE arena_webhook_deliveries SET status = $2, data = $3 WHERE id = $1', [
      String(id),
      rec.status,
      JSON.stringify(rec),
    ]);
    return true;
  });
}

export async function listWebhookDeliveries(db: Db, webhookId: string): Promise<WebhookDeliveryRecord[]> {
  const r = await db.query<{ data: string }>(
    'SELECT data FROM arena_webhook_deliveries WHERE webhook_id = $1 ORDER BY seq DESC',
    [String(webhookId)],
  );
  return r.rows.map((row) => JSON.parse(row.data) as WebhookDeliveryRecord);
}

export async function listPendingWebhookDeliveries(db: Db): Promise<WebhookDeliveryRecord[]> {
  const r = await db.query<{ data: string }>(
    `SELECT data FROM arena_webhook_deliveries WHERE status = 'pending' ORDER BY seq`,
  );
  return r.rows.map((row) => JSON.parse(row.data) as WebhookDeliveryRecord);
}

/** Only the patch's fields: nothing else of the record can be changed through it. */
function pick(p: WebhookDeliveryPatch): WebhookDeliveryPatch {
  return {
    status: p.status,
    attempts: p.attempts,
    lastAttemptAt: p.lastAttemptAt,
    nextAttemptAt: p.nextAttemptAt,
    responseStatus: p.responseStatus,
    error: p.error,
  };
}
