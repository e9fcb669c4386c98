// Webhooks end to end: real WebSocket bots on loopback play a match under
// `serve`; the owner's webhook receivers (real HTTP servers on 127.0.0.1) get
// signed Standard Webhooks deliveries. The receiver checks the v1a signature
// with node:crypto from the Standard Webhooks text and the platform key the
// server publishes (the `standardwebhooks` npm package verifies only the
// symmetric v1). A receiver that fails gets retries on the (shortened)
// schedule, and the owner sees each delivery's status.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTarget } from '../../src/client/api';
import { addWebhook, listWebhookDeliveries } from '../../src/client/webhooks';
import { generateKeyPair, publicKeyRaw } from '../../src/keys/index';
import { illegalBot, wellBehaved } from '../support/policies';
import { startArena, type Arena } from '../support/serve-arena';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

interface Receiver {
  url: string;
  got: Received[];
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 that answers each delivery (webhook-id) `statuses` in turn, the last one from then
 * on.
 */
async function startReceiver(statuses: number[]): Promise<Receiver> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const tries = got.filter((r) => r.headers['webhook-id'] === req.headers['webhook-id']).length;
      res.writeHead(statuses[Math.min(tries - 1, statuses.length - 1)]).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * Standard Webhooks, "Verifying webhook signatures", asymmetric: the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`; webhook-signature is a space-separated list of
 * `version,base64signature`; `v1a` is Ed25519. The timestamp must be recent (5 minutes here).
 */
function verifyStandardWebhook(publicKey: KeyObject, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  if (!/^\d+$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const content = Buffer.from(`${id}.${ts}.${r.body}`);
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((entry) => {
      const [version, sig] = entry.split(',');
      return version === 'v1a' && verify(null, content, publicKey, Buffer.from(sig, 'base64'));
    });
}

async function until<T>(
  what: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

let arena: Arena;
let owner: ApiTarget;
let good: Receiver;
let flaky: Receiver;
let platformKey: KeyObject;
let matchId: string;
let hooks: { good: string; flaky: string };

beforeAll(async () => {
  good = await startReceiver([204]);
  flaky = await startReceiver([500, 503, 200]);
  arena = await startArena([illegalBot(), wellBehaved(), wellBehaved(), wellBehaved()], {
    webhookRetryScheduleMs: [0, 150, 300, 450],
    webhookPollMs: 20,
  });
  const user = (await arena.store.getUserByEmail('owner@example.com'))!;
  const pair = generateKeyPair();
  const key = await arena.store.addKey({
    userId: user.id,
    name: 'k',
    publicKey: Buffer.from(publicKeyRaw(pair.privateKey)).toString('base64'),
    scopes: ['bots.read', 'bots.write'],
  });
  owner = { baseUrl: arena.url, keyId: key.id, privateKey: pair.privateKey };
  // The key a receiver would fetch once: GET /.well-known/svc.json, base64 of the raw 32 bytes.
  const doc = (await (await fetch(`${arena.url}/.well-known/svc.json`)).json()) as { publicKey: string };
  platformKey = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(doc.publicKey, 'base64').toString('base64url') },
    format: 'jwk',
  });
  hooks = {
    good: (await addWebhook(owner, { url: good.url, events: ['match.completed', 'bot.struck_out'] })).id,
    flaky: (await addWebhook(owner, { url: flaky.url, events: ['match.completed'] })).id,
  };
  [matchId] = await arena.tick();
  await arena.idle();
}, 60_000);

afterAll(async () => {
  await arena?.close();
  await good?.close();
  await flaky?.close();
});

describe('webhooks after a real match', () => {
  it('the receiver gets a signed match.completed per seated bot and verifies it with the published key', async () => {
    const record = (await arena.store.getMatch(matchId))!;
    expect(record.status).toBe('completed');
    const completed = await until(() => {
      const c = good.got.filter((r) => JSON.parse(r.body).type === 'match.completed');
      return c.length === 4 && c;
    });
    for (const r of completed) {
      expect(verifyStandardWebhook(platformKey, r)).toBe(true);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toMatch(/^msg_/);
      const body = JSON.parse(r.body);
      expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type']);
      const seat = record.players.find((p) => p.botId === body.data.botId)!;
      expect(body.data).toMatchObject({
        matchId,
        botName: seat.botName,
        placement: seat.placement,
        ratingDelta: seat.ratingDelta,
        rated: true,
      });
      // A changed body, or another key, does not verify.
      expect(verifyStandardWebhook(platformKey, { ...r, body: r.body.replace('"rated":true', '"rated":false') })).toBe(
        false,
      );
      expect(verifyStandardWebhook(createPublicKey(generateKeyPair().privateKey), r)).toBe(false);
    }
    expect(new Set(completed.map((r) => JSON.parse(r.body).data.botId))).toEqual(new Set(arena.bots.map((b) => b.id)));
  });

  it("a bot that resigned on strikes makes bot.struck_out with the strikes' reasons, and no payload or log names a bot URL", async () => {
    const struck = await until(() => good.got.find((r) => JSON.parse(r.body).type === 'bot.struck_out'));
    expect(verifyStandardWebhook(platformKey, struck)).toBe(true);
    const body = JSON.parse(struck.body);
    expect(body.data).toMatchObject({ botId: arena.bots[0].id, matchId, strikes: 3 });
    expect(body.data.reasons.every((r: { reason: string }) => r.reason === 'illegal')).toBe(true);
    for (const r of good.got) for (const b of arena.bots) expect(r.body).not.toContain(b.server.url.replace(/^ws/, ''));
    for (const b of arena.bots) expect(arena.logText()).not.toContain(b.server.url);
    expect(arena.logText()).not.toContain(good.url);
    expect(arena.logText()).not.toContain(flaky.url);
  });

  it('a receiver that fails gets retries with the same webhook-id, each signed, until it answers 2xx; the owner sees the status', async () => {
    const delivered = await until(async () => {
      const ds = await listWebhookDeliveries(owner, hooks.flaky);
      return ds.length === 4 && ds.every((d) => d.status === 'delivered') && ds;
    });
    for (const d of delivered)
      expect(d).toMatchObject({
        type: 'match.completed',
        attempts: 3,
        responseStatus: 200,
        error: null,
        nextAttemptAt: null,
      });
    expect(flaky.got).toHaveLength(12);
    for (const d of delivered) {
      const tries = flaky.got.filter((r) => r.headers['webhook-id'] === d.id);
      expect(tries).toHaveLength(3);
      for (const t of tries) {
        expect(verifyStandardWebhook(platformKey, t)).toBe(true);
        expect(t.body).toBe(d.payload);
      }
      // The schedule is counted from the event: the third attempt comes no sooner than 300 ms after it.
      expect(tries[2].at - Date.parse(d.createdAt)).toBeGreaterThanOrEqual(290);
    }
    const goodDeliveries = await listWebhookDeliveries(owner, hooks.good);
    expect(goodDeliveries).toHaveLength(5);
    expect(goodDeliveries.every((d) => d.status === 'delivered' && d.attempts === 1 && d.responseStatus === 204)).toBe(
      true,
    );
  });
});

describe('bot.unreachable', () => {
  it('a bot whose server is down when its match begins makes bot.unreachable (not bot.struck_out), with no URL in it', async () => {
    const receiver = await startReceiver([200]);
    const down = await startArena([wellBehaved(), wellBehaved(), wellBehaved(), wellBehaved()], { webhookPollMs: 20 });
    try {
      const user = (await down.store.getUserByEmail('owner@example.com'))!;
      await down.store.addWebhook(
        { ownerId: user.id, url: receiver.url, events: ['bot.unreachable', 'bot.struck_out'] },
        10,
      );
      await down.bots[2].server.close();
      const [id] = await down.tick();
      await down.idle();
      const got = await until(() => receiver.got.length >= 1 && receiver.got);
      await new Promise((r) => setTimeout(r, 100));
      expect(receiver.got).toHaveLength(1);
      const body = JSON.parse(got[0].body);
      expect(body).toMatchObject({
        type: 'bot.unreachable',
        data: { botId: down.bots[2].id, matchId: id, botName: 'bot2' },
      });
      expect(got[0].body).not.toContain('127.0.0.1');
    } finally {
      await down.close();
      await receiver.close();
    }
  });
});
