// The webhook dispatcher on a real file store with real receivers on
// 127.0.0.1: any OwnerEvent it is given (bot.qualified and bot.failed come
// from qualification) goes to the owner's webhooks that asked for its type,
// signed; pending deliveries survive a restart (they are in the store); a
// delivery is failed once the schedule runs out; the production URL policy
// holds at every attempt (resolver injected: nothing is sent anywhere).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../src/keys/index';
import type { Resolver } from '../../../src/net/address-policy';
import { openFileStore } from '../../../src/service/store/file-store';
import type { Store, UserRecord } from '../../../src/service/store/types';
import { WebhookDispatcher, type WebhookDispatcherOptions } from '../../../src/service/webhooks/dispatcher';
import { MAX_WEBHOOK_BODY_BYTES } from '../../../src/service/webhooks/payload';
import { verifyWebhook, type WebhookHeaders } from '../../../src/service/webhooks/signature';

interface Receiver {
  url: string;
  got: Array<{ headers: IncomingHttpHeaders; body: string }>;
  status: number;
  close(): Promise<void>;
}

async function startReceiver(status = 200): Promise<Receiver> {
  const r: Receiver = { url: '', got: [], status, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(r.status).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () => new Promise<void>((done) => server.close(() => done()));
  return r;
}

async function until<T>(
  what: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms = 10_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const keys = generateKeyPair();
let dir: string;
let store: Store;
let owner: UserRecord;
let other: UserRecord;
const dispatchers: WebhookDispatcher[] = [];
const receivers: Receiver[] = [];
const logs: Array<Record<string, unknown>> = [];

function dispatcher(opts: Partial<WebhookDispatcherOptions> = {}): WebhookDispatcher {
  const d = new WebhookDispatcher({
    store,
    platformKey: keys.privateKey,
    urlPolicy: { production: false },
    log: (f) => logs.push(f),
    pollMs: 10,
    retryScheduleMs: [0, 50, 100],
    ...opts,
  });
  dispatchers.push(d);
  return d;
}

async function receiver(status?: number): Promise<Receiver> {
  const r = await startReceiver(status);
  receivers.push(r);
  return r;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-webhooks-'));
  store = await openFileStore(join(dir, 'data'));
  owner = await store.createUser({ email: 'owner@example.com' });
  other = await store.createUser({ email: 'other@example.com' });
  logs.length = 0;
});

afterEach(async () => {
  for (const d of dispatchers.splice(0)) await d.stop();
  for (const r of receivers.splice(0)) await r.close();
  await store.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe('webhook dispatcher', () => {
  it('delivers bot.qualified and bot.failed to the webhooks that asked for them, signed, and to no other owner', async () => {
    const mine = await receiver();
    const theirs = await receiver();
    const wantsBoth = await store.addWebhook(
      { ownerId: owner.id, url: mine.url, events: ['bot.qualified', 'bot.failed'] },
      10,
    );
    await store.addWebhook({ ownerId: owner.id, url: mine.url, events: ['match.completed'] }, 10);
    await store.addWebhook({ ownerId: other.id, url: theirs.url, events: ['bot.qualified', 'bot.failed'] }, 10);
    const d = dispatcher();
    await d.start();
    d.sink({
      type: 'bot.qualified',
      ownerId: owner.id,
      botId: 'b_one',
      matchId: 'm_q1',
      data: { botName: 'one', strikes: 0 },
    });
    d.sink({
      type: 'bot.failed',
      ownerId: owner.id,
      botId: 'b_two',
      matchId: 'm_q2',
      data: { botName: 'two', strikes: 2, url: 'wss://secret.example/bot', reasons: [{ reason: 'illegal' }] },
    });
    await until(() => mine.got.length === 2);
    await d.settled();
    expect(theirs.got).toHaveLength(0);
    const bodies = mine.got.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.type).sort()).toEqual(['bot.failed', 'bot.qualified']);
    const failed = bodies.find((b) => b.type === 'bot.failed');
    expect(failed.data).toEqual({
      botName: 'two',
      strikes: 2,
      reasons: [{ reason: 'illegal' }],
      botId: 'b_two',
      matchId: 'm_q2',
    });
    for (const r of mine.got)
      expect(verifyWebhook(keys.publicKey, r.headers as unknown as WebhookHeaders, r.body)).toBe(true);
    expect(mine.got.map((r) => r.body).join()).not.toContain('secret.example');
    const deliveries = await store.listWebhookDeliveries(wantsBoth.id);
    expect(deliveries.map((x) => [x.type, x.status, x.attempts, x.responseStatus])).toEqual([
      ['bot.failed', 'delivered', 1, 200],
      ['bot.qualified', 'delivered', 1, 200],
    ]);
  });

  it('a pending delivery survives a restart: the next dispatcher on the reopened store sends it when due', async () => {
    const r = await receiver(503);
    const hook = await store.addWebhook({ ownerId: owner.id, url: r.url, events: ['match.completed'] }, 10);
    const first = dispatcher({ retryScheduleMs: [0, 400, 800] });
    await first.start();
    first.sink({ type: 'match.completed', ownerId: owner.id, botId: 'b_one', matchId: 'm_1', data: { placement: 1 } });
    await until(() => r.got.length === 1);
    await first.settled();
    await first.stop();
    await store.close();
    expect(r.got).toHaveLength(1);

    r.status = 204;
    store = await openFileStore(join(dir, 'data'));
    const [pending] = await store.listPendingWebhookDeliveries();
    expect(pending).toMatchObject({
      webhookId: hook.id,
      attempts: 1,
      responseStatus: 503,
      error: 'the receiver answered HTTP 503',
    });
    const second = dispatcher({ retryScheduleMs: [0, 400, 800] });
    await second.start();
    await until(async () => (await store.listWebhookDeliveries(hook.id))[0].status === 'delivered');
    expect(r.got).toHaveLength(2);
    expect(r.got[1].headers['webhook-id']).toBe(r.got[0].headers['webhook-id']);
    expect(r.got[1].body).toBe(r.got[0].body);
    // Not before its time: the second attempt is 400 ms after the event.
    const [done] = await store.listWebhookDeliveries(hook.id);
    expect(Date.parse(done.lastAttemptAt!) - Date.parse(done.createdAt)).toBeGreaterThanOrEqual(390);
  });

  it('gives up when the schedule runs out: failed, with why', async () => {
    const gone = await receiver();
    await gone.close();
    receivers.pop();
    const hook = await store.addWebhook({ ownerId: owner.id, url: gone.url, events: ['bot.unreachable'] }, 10);
    const d = dispatcher();
    await d.start();
    d.sink({ type: 'bot.unreachable', ownerId: owner.id, botId: 'b_one', data: {} });
    const [failed] = await until(async () => {
      const ds = await store.listWebhookDeliveries(hook.id);
      return ds[0]?.status === 'failed' && ds;
    });
    expect(failed).toMatchObject({
      attempts: 3,
      nextAttemptAt: null,
      responseStatus: null,
      error: 'connection refused',
    });
    expect(await store.listPendingWebhookDeliveries()).toEqual([]);
  });

  it('production: a URL that now resolves to a private address is refused at the attempt, and nothing is sent', async () => {
    let asked = 0;
    const resolve: Resolver = async () => {
      asked++;
      return [{ address: '192.168.1.20', family: 4 }];
    };
    const hook = await store.addWebhook(
      { ownerId: owner.id, url: 'https://hooks.example.com/in', events: ['bot.failed'] },
      10,
    );
    const d = dispatcher({ urlPolicy: { production: true, resolve }, retryScheduleMs: [0] });
    await d.start();
    d.sink({ type: 'bot.failed', ownerId: owner.id, botId: 'b_one', data: {} });
    const [failed] = await until(async () => {
      const ds = await store.listWebhookDeliveries(hook.id);
      return ds[0]?.status === 'failed' && ds;
    });
    expect(asked).toBe(1);
    expect(failed.error).toMatch(/192\.168\.1\.20.*private.*production webhooks must be reachable at a public address/);
    expect(JSON.stringify(logs)).not.toContain('hooks.example.com');
  });

  it('keeps the last 50 deliveries of a webhook; a body over the size limit keeps only its ids', async () => {
    const r = await receiver();
    const hook = await store.addWebhook({ ownerId: owner.id, url: r.url, events: ['match.completed'] }, 10);
    const d = dispatcher();
    await d.start();
    for (let i = 0; i < 55; i++)
      d.sink({ type: 'match.completed', ownerId: owner.id, botId: 'b_one', matchId: `m_${i}`, data: { placement: 1 } });
    d.sink({
      type: 'match.completed',
      ownerId: owner.id,
      botId: 'b_big',
      matchId: 'm_big',
      data: { blob: 'x'.repeat(MAX_WEBHOOK_BODY_BYTES) },
    });
    await until(() => r.got.length === 56);
    await d.settled();
    const kept = await store.listWebhookDeliveries(hook.id);
    expect(kept).toHaveLength(50);
    expect(JSON.parse(kept[0].payload).data).toEqual({ botId: 'b_big', matchId: 'm_big', truncated: true });
    expect(Buffer.byteLength(kept[0].payload)).toBeLessThan(MAX_WEBHOOK_BODY_BYTES);
  });

  it('a delivery dropped for newer ones (past the last 50) is never retried', async () => {
    const r = await receiver(500);
    const hook = await store.addWebhook({ ownerId: owner.id, url: r.url, events: ['match.completed'] }, 10);
    const d = dispatcher({ retryScheduleMs: [0, 60, 120] });
    await d.start();
    for (let i = 0; i < 56; i++)
      d.sink({ type: 'match.completed', ownerId: owner.id, botId: 'b_one', matchId: `m_${i}`, data: {} });
    await until(
      async () =>
        (await store.listPendingWebhookDeliveries()).length === 0 &&
        (await store.listWebhookDeliveries(hook.id)).length === 50,
    );
    await d.settled();
    await new Promise((done) => setTimeout(done, 200));
    const kept = new Set((await store.listWebhookDeliveries(hook.id)).map((x) => x.id));
    const tries = new Map<string, number>();
    for (const g of r.got)
      tries.set(String(g.headers['webhook-id']), (tries.get(String(g.headers['webhook-id'])) ?? 0) + 1);
    for (const [id, n] of tries) expect(n).toBe(kept.has(id) ? 3 : 1);
  });

  it('a receiver that never answers times out, and a redirect is not followed: both are failed attempts', async () => {
    const silent = createServer(() => {}); // takes the request, never answers
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const followed: string[] = [];
    const target = await receiver();
    const redirect = createServer((req, res) => {
      followed.push(String(req.url));
      res.writeHead(302, { location: target.url }).end();
    });
    await new Promise<void>((done) => redirect.listen(0, '127.0.0.1', done));
    try {
      const port = (s: Server) => (s.address() as AddressInfo).port;
      const slow = await store.addWebhook(
        { ownerId: owner.id, url: `http://127.0.0.1:${port(silent)}/`, events: ['bot.failed'] },
        10,
      );
      const moved = await store.addWebhook(
        { ownerId: owner.id, url: `http://127.0.0.1:${port(redirect)}/`, events: ['bot.failed'] },
        10,
      );
      const d = dispatcher({ retryScheduleMs: [0], timeoutMs: 150 });
      await d.start();
      d.sink({ type: 'bot.failed', ownerId: owner.id, botId: 'b_one', data: {} });
      await until(
        async () =>
          (await store.listPendingWebhookDeliveries()).length === 0 &&
          (await store.listWebhookDeliveries(slow.id)).length === 1,
      );
      await d.settled();
      expect((await store.listWebhookDeliveries(slow.id))[0]).toMatchObject({
        status: 'failed',
        responseStatus: null,
        error: 'no answer within 150 ms',
      });
      expect((await store.listWebhookDeliveries(moved.id))[0]).toMatchObject({
        status: 'failed',
        responseStatus: 302,
        error: 'the receiver answered HTTP 302',
      });
      expect(followed).toEqual(['/']);
      expect(target.got).toEqual([]);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((done) => silent.close(() => done()));
      await new Promise<void>((done) => redirect.close(() => done()));
    }
  });

  it('a receiver that hangs holds at most two attempts: another webhook is delivered meanwhile', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const hung = await store.addWebhook(
        {
          ownerId: other.id,
          url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
          events: ['match.completed'],
        },
        10,
      );
      const fast = await receiver();
      const quick = await store.addWebhook({ ownerId: owner.id, url: fast.url, events: ['match.completed'] }, 10);
      const d = dispatcher({ retryScheduleMs: [0], timeoutMs: 2000, maxInFlight: 3 });
      await d.start();
      for (let i = 0; i < 6; i++)
        d.sink({ type: 'match.completed', ownerId: other.id, botId: 'b_other', matchId: `m_${i}`, data: {} });
      await until(async () => (await store.listWebhookDeliveries(hung.id)).length === 6);
      d.sink({ type: 'match.completed', ownerId: owner.id, botId: 'b_one', matchId: 'm_mine', data: {} });
      await until(async () => (await store.listWebhookDeliveries(quick.id))[0]?.status === 'delivered');
      // Every attempt at the hung receiver is still waiting for its answer.
      expect((await store.listWebhookDeliveries(hung.id)).every((x) => x.attempts === 0)).toBe(true);
      silent.closeAllConnections();
      await d.settled();
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((done) => silent.close(() => done()));
    }
  });

  it('a dispatcher never started (a server without matchmaking) only stores; the started one sends it, once', async () => {
    const r = await receiver(204);
    const hook = await store.addWebhook({ ownerId: owner.id, url: r.url, events: ['bot.qualified'] }, 10);
    const sender = dispatcher({ reloadMs: 30 });
    await sender.start();
    const follower = dispatcher();
    follower.sink({ type: 'bot.qualified', ownerId: owner.id, botId: 'b_one', data: {} });
    await follower.settled();
    await until(async () => (await store.listWebhookDeliveries(hook.id))[0]?.status === 'delivered');
    await sender.settled();
    await new Promise((done) => setTimeout(done, 120)); // a few more reloads: it is not sent again
    expect(r.got).toHaveLength(1);
  });
});
