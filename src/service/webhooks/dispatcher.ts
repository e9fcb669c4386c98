// Delivers owner events (owner-events.ts) to the owners' webhooks: each event
// becomes one stored delivery per webhook that asked for its type, tried at
// once and then on a schedule for a day until a receiver answers 2xx. The
// queue lives in the store (pending deliveries), so a restart loses nothing:
// start() picks up every pending delivery where its schedule left it, and
// every RELOAD_MS the started dispatcher picks up deliveries another process
// stored (a server that does not run matchmaking stores but never sends).
import type { KeyObject } from 'node:crypto';
import type { AddressPolicy } from '../../net/address-policy';
import { UrlRejected } from '../../net/address-policy';
import { WEBHOOK_DELIVERIES_KEPT } from '../../protocol/webhooks';
import type { OwnerEvent, OwnerEventSink } from '../owner-events';
import { newId } from '../store/ids';
import type { Store, WebhookDeliveryRecord } from '../store/types';
import { webhookBody } from './payload';
import { postWebhook, type AttemptResult } from './send';
import { webhookHeaders } from './signature';
import { checkWebhookUrl } from './url-check';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * When each attempt is made, counted from the event: at once, then after 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h and 24 h (Standard Webhooks' suggested
 * spacing, ending a day after the event). Eight attempts in all, then `failed`.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  24 * HOUR,
];
/** Per attempt: connect, send, and the answer's status. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10 * SECOND;
/** How often the store's pending deliveries are read again for ones this process has not seen. */
const RELOAD_MS = 30 * SECOND;
/** Deliveries this process finished, remembered so a reload that read them just before cannot send them again. */
const FINISHED_REMEMBERED = 10_000;
/** After a store failure, the delivery waits this long before it is tried again. */
const STORE_RETRY_MS = 5 * SECOND;
/** Attempts in flight at once, over all webhooks: a slow receiver holds one of these, never the matches. */
const DEFAULT_MAX_IN_FLIGHT = 8;
/** Attempts in flight to one webhook: a receiver that hangs cannot take every slot from the others. */
const MAX_IN_FLIGHT_PER_WEBHOOK = 2;

export interface WebhookDispatcherOptions {
  store: Store;
  platformKey: KeyObject;
  /** The URL policy at every attempt (its resolver is injectable). */
  urlPolicy: AddressPolicy;
  log: (fields: Record<string, unknown>) => void;
  /** Offsets from the event, one per attempt (tests shorten it). */
  retryScheduleMs?: readonly number[];
  timeoutMs?: number;
  /** How often due retries are looked for (default 1 s). */
  pollMs?: number;
  /** How often the store is read for pending deliveries another process stored (default 30 s). */
  reloadMs?: number;
  maxInFlight?: number;
  now?: () => number;
}

interface Queued {
  rec: WebhookDeliveryRecord;
  due: number;
}

export class WebhookDispatcher {
  private readonly queue = new Map<string, Queued>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly inFlightTo = new Map<string, number>();
  /** Events being turned into deliveries (store writes under way). */
  private readonly accepting = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private reloader: NodeJS.Timeout | null = null;
  private readonly finished = new Set<string>();
  private stopped = false;
  private readonly schedule: readonly number[];
  private readonly now: () => number;

  constructor(private readonly opts: WebhookDispatcherOptions) {
    this.schedule = opts.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS;
    if (this.schedule.length === 0) throw new RangeError('the retry schedule needs at least one attempt');
    this.now = opts.now ?? Date.now;
  }

  /** The sink for the scheduler and qualification: never throws, never waits. */
  readonly sink: OwnerEventSink = (event) => {
    if (this.stopped) return;
    const p = this.accept(event).catch((err: unknown) => {
      this.opts.log({
        event: 'webhook.error',
        type: event.type,
        ownerId: event.ownerId,
        error: err instanceof Error ? err.message : String(err),
      });
    });
    this.accepting.add(p);
    void p.finally(() => this.accepting.delete(p));
  };

  /** Loads the pending deliveries the store kept (a restart) and starts the retry timer. */
  async start(): Promise<void> {
    await this.reload();
    this.timer ??= setInterval(() => this.runDue(), this.opts.pollMs ?? SECOND);
    this.timer.unref();
    this.reloader ??= setInterval(() => {
      this.reload().catch((err: unknown) =>
        this.opts.log({
          event: 'webhook.error',
          error: `cannot read pending deliveries: ${err instanceof Error ? err.message : String(err)}`,
        }),
      );
    }, this.opts.reloadMs ?? RELOAD_MS);
    this.reloader.unref();
    this.runDue();
  }

  /** Queues the store's pending deliveries this process does not know yet. */
  private async reload(): Promise<void> {
    for (const rec of await this.opts.store.listPendingWebhookDeliveries()) {
      if (this.queue.has(rec.id) || this.inFlight.has(rec.id) || this.finished.has(rec.id)) continue;
      this.queue.set(rec.id, { rec, due: rec.nextAttemptAt ? Date.parse(rec.nextAttemptAt) : this.now() });
    }
  }

  private forget(id: string): void {
    this.queue.delete(id);
    this.finished.add(id);
    if (this.finished.size > FINISHED_REMEMBERED) this.finished.delete(this.finished.values().next().value!);
  }

  /** Stops retrying; waits for attempts in flight (what they learn is stored). Pending deliveries stay in the store. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.reloader) clearInterval(this.reloader);
    this.timer = this.reloader = null;
    await Promise.all([...this.accepting]);
    await Promise.all([...this.inFlight.values()]);
  }

  /** Resolves once no event is being stored and no attempt is in flight (tests). */
  async settled(): Promise<void> {
    while (this.accepting.size > 0 || this.inFlight.size > 0) {
      await Promise.all([...this.accepting, ...this.inFlight.values()]);
    }
  }

  private async accept(event: OwnerEvent): Promise<void> {
    const { store } = this.opts;
    const hooks = (await store.listWebhooks(event.ownerId)).filter((w) => w.events.includes(event.type));
    if (hooks.length === 0) return;
    const at = new Date(this.now());
    const payload = webhookBody(event, at);
    for (const hook of hooks) {
      const rec: WebhookDeliveryRecord = {
        id: newId('msg'),
        webhookId: hook.id,
        ownerId: hook.ownerId,
        type: event.type,
        status: 'pending',
        attempts: 0,
        createdAt: at.toISOString(),
        lastAttemptAt: null,
        nextAttemptAt: at.toISOString(),
        responseStatus: null,
        error: null,
        payload,
      };
      // Not started (a server that does not run matchmaking): the started one finds it in the store.
      if ((await store.addWebhookDelivery(rec, WEBHOOK_DELIVERIES_KEPT)) && this.timer)
        this.queue.set(rec.id, { rec, due: at.getTime() });
    }
    this.runDue();
  }

  private runDue(): void {
    // Only a started dispatcher sends: one that was never started stores deliveries for the one that was.
    if (this.stopped || !this.timer) return;
    const max = this.opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    const now = this.now();
    for (const [id, q] of this.queue) {
      if (this.inFlight.size >= max) return;
      if (q.due > now || this.inFlight.has(id)) continue;
      const hook = q.rec.webhookId;
      const busy = this.inFlightTo.get(hook) ?? 0;
      if (busy >= MAX_IN_FLIGHT_PER_WEBHOOK) continue;
      this.inFlightTo.set(hook, busy + 1);
      const p = this.attempt(q.rec).finally(() => {
        this.inFlight.delete(id);
        const left = (this.inFlightTo.get(hook) ?? 1) - 1;
        if (left > 0) this.inFlightTo.set(hook, left);
        else this.inFlightTo.delete(hook);
        this.runDue();
      });
      this.inFlight.set(id, p);
    }
  }

  private async attempt(rec: WebhookDeliveryRecord): Promise<void> {
    const { store, log } = this.opts;
    try {
      const hook = await store.getWebhook(rec.webhookId);
      if (!hook) {
        this.forget(rec.id); // removed: its deliveries went with it
        return;
      }
      const result = await this.post(hook.url, rec);
      const attempts = rec.attempts + 1;
      const at = new Date(this.now()).toISOString();
      const next =
        result.ok || attempts >= this.schedule.length ? null : Date.parse(rec.createdAt) + this.schedule[attempts];
      const status = result.ok ? 'delivered' : next === null ? 'failed' : 'pending';
      const patch = {
        status,
        attempts,
        lastAttemptAt: at,
        nextAttemptAt: next === null ? null : new Date(next).toISOString(),
        responseStatus: result.status,
        error: result.ok ? null : result.error,
      } as const;
      const kept = await store.updateWebhookDelivery(rec.id, patch);
      Object.assign(rec, patch);
      // Not kept: dropped for newer ones (the last 50) or its webhook removed; it is not tried again.
      if (next === null || !kept) this.forget(rec.id);
      else this.queue.set(rec.id, { rec, due: next });
      // The webhook's id names it; its URL stays out of the log.
      log({
        event: 'webhook.attempt',
        webhookId: rec.webhookId,
        deliveryId: rec.id,
        type: rec.type,
        attempt: attempts,
        status,
        responseStatus: result.status,
      });
    } catch (err) {
      // The store failed: the delivery stays queued and is tried again a little later (never in a tight loop).
      this.queue.set(rec.id, { rec, due: this.now() + STORE_RETRY_MS });
      log({
        event: 'webhook.error',
        webhookId: rec.webhookId,
        deliveryId: rec.id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  private async post(url: string, rec: WebhookDeliveryRecord): Promise<AttemptResult> {
    let checked;
    try {
      checked = await checkWebhookUrl(url, this.opts.urlPolicy);
    } catch (err) {
      if (err instanceof UrlRejected) return { ok: false, status: null, error: err.message };
      throw err;
    }
    const headers = webhookHeaders(this.opts.platformKey, rec.id, Math.floor(this.now() / 1000), rec.payload);
    return postWebhook(checked.url, checked, headers, rec.payload, this.opts.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS);
  }
}
