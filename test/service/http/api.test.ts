// The management API end to end on a real server (dev mode: loopback bots
// allowed): accounts, keys and bots through signed requests, with real test
// bots answering the deploy check, the file store underneath, and the log
// lines and metrics the operator sees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { formatPublicKey, generateKeyPair, publicKeyRaw } from '../../../src/keys/index';
import { ApiKeyMetaSchema, BotListSchema, BotSchema, KeyListSchema, UserSchema } from '../../../src/protocol/api';
import { MAX_BOTS_PER_USER } from '../../../src/service/http/routes/bots';
import { MAX_ACTIVE_KEYS_PER_USER } from '../../../src/service/http/routes/keys';
import { startTestBot, type TestBot } from '../../support/test-bot';
import { persistedState, TEST_STORE } from '../../support/test-store';
import { startHarness, type Harness, type TestKey } from '../support/api-harness';

/** A loopback port nothing listens on (the deploy check must fail there). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('management API end to end (dev mode, real bots)', () => {
  let h: Harness;
  let botA: TestBot;
  let botB: TestBot;
  let refusing: TestBot;
  let key: TestKey;
  let userId: string;

  beforeAll(async () => {
    h = await startHarness({ dev: true });
    const { publicKeyFromRaw } = await import('../../../src/keys/index');
    const verifyKey = publicKeyFromRaw(Buffer.from(h.platformPublicKey, 'base64'));
    botA = await startTestBot({ behaviour: () => {}, verifyKey });
    botB = await startTestBot({ behaviour: () => {}, verifyKey });
    refusing = await startTestBot({ behaviour: () => {}, refuseUpgrade: 401 });
    const user = await h.addUser('owner@example.com');
    userId = user.id;
    key = await h.addKey(user.id);
  });

  afterAll(async () => {
    await h?.close();
    await Promise.all([botA, botB, refusing].map((b) => b?.close()));
  });

  it('GET /health, /.well-known/svc.json and /llms.txt need no signature', async () => {
    const health = await h.send('GET', '/health');
    expect(health.status).toBe(200);
    // On a database /health also says whether it is reachable (docs/operating.md).
    expect(health.json).toEqual(
      TEST_STORE === 'postgres' ? { status: 'ok', role: 'all', db: 'ok' } : { status: 'ok', role: 'all' },
    );
    const svc = await h.send('GET', '/.well-known/svc.json');
    expect(svc.status).toBe(200);
    expect(svc.json).toEqual({ publicKey: h.platformPublicKey });
    const llms = await h.send('GET', '/llms.txt');
    expect(llms.status).toBe(200);
    expect(llms.text).toContain(`${h.baseUrl}/openapi.json`);
  });

  it('GET /me and POST /me/handle', async () => {
    const me = await h.signed(key, 'GET', '/me');
    expect(me.status).toBe(200);
    expect(UserSchema.parse(me.json)).toEqual({ id: userId, name: '', email: 'owner@example.com' });
    const set = await h.signed(key, 'POST', '/me/handle', { handle: 'owner_1' });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ id: userId, name: 'owner_1', email: 'owner@example.com' });
    expect((await h.store.getUser(userId))?.name).toBe('owner_1');
  });

  it('keys: add in every accepted format, list, use, revoke (twice keeps the first time)', async () => {
    const pairs = [generateKeyPair(), generateKeyPair(), generateKeyPair()];
    const texts = [
      formatPublicKey(pairs[0].privateKey, 'ssh', 'laptop'),
      formatPublicKey(pairs[1].privateKey, 'pem'),
      formatPublicKey(pairs[2].privateKey, 'raw'),
    ];
    const made = [];
    for (const [i, publicKey] of texts.entries()) {
      const res = await h.signed(key, 'POST', '/keys', { name: `key ${i}`, publicKey });
      expect(res.status).toBe(201);
      const meta = ApiKeyMetaSchema.parse(res.json);
      expect(meta.publicKey).toBe(Buffer.from(publicKeyRaw(pairs[i].privateKey)).toString('base64'));
      expect(meta.scopes).toEqual(['bots.read', 'bots.write']);
      expect(meta.lastUsedAt).toBeNull();
      expect(meta.revokedAt).toBeNull();
      made.push(meta);
    }
    const withScopes = await h.signed(key, 'POST', '/keys', {
      name: 'reader',
      publicKey: texts[0],
      scopes: ['account.read'],
    });
    expect(withScopes.status).toBe(201);
    expect(withScopes.json.scopes).toEqual(['account.read']);

    const list = await h.signed(key, 'GET', '/keys');
    expect(list.status).toBe(200);
    const ids = KeyListSchema.parse(list.json).keys.map((k) => k.id);
    expect(ids).toEqual(expect.arrayContaining([key.id, ...made.map((m) => m.id), withScopes.json.id]));

    // The new key signs requests with its own scopes.
    const newKey: TestKey = {
      id: made[0].id,
      userId,
      privateKey: pairs[0].privateKey,
      scopes: ['bots.read', 'bots.write'],
    };
    expect((await h.signed(newKey, 'GET', '/bots')).status).toBe(200);
    expect((await h.signed(newKey, 'GET', '/me')).status).toBe(403);

    const revoked = await h.signed(key, 'POST', `/keys/${made[0].id}/revoke`);
    expect(revoked.status).toBe(200);
    const first = ApiKeyMetaSchema.parse(revoked.json).revokedAt;
    expect(first).not.toBeNull();
    const again = await h.signed(key, 'POST', `/keys/${made[0].id}/revoke`);
    expect(again.status).toBe(200);
    expect(again.json.revokedAt).toBe(first);
    const refused = await h.signed(newKey, 'GET', '/bots');
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe('unauthenticated');
    expect(refused.json.error.message).toMatch(/revoked/);
  });

  it('a signed request updates lastUsedAt without a store write per request', async () => {
    const fresh = await h.addKey(userId, ['bots.read']);
    expect((await h.store.getKey(fresh.id))?.lastUsedAt).toBeNull();
    const onDisk = await persistedState(h.store, h.dir);
    for (let i = 0; i < 5; i++) expect((await h.signed(fresh, 'GET', '/bots')).status).toBe(200);
    expect(await persistedState(h.store, h.dir)).toBe(onDisk);
    const seen = (await h.signed(key, 'GET', '/keys')).json.keys.find((k: { id: string }) => k.id === fresh.id);
    expect(seen.lastUsedAt).not.toBeNull();
  });

  let botId = '';

  it('POST /bots registers a real bot after /ping and a signed deploy-check upgrade', async () => {
    const before = botA.handshakes.length;
    const res = await h.signed(key, 'POST', '/bots', { name: 'alpha', game: 'pioneers', url: botA.url });
    expect(res.status).toBe(201);
    const bot = BotSchema.parse(res.json);
    expect(bot).toMatchObject({ ownerId: userId, name: 'alpha', game: 'pioneers', url: botA.url, status: 'active' });
    botId = bot.id;
    // The deploy check reached the bot with a handshake the bot could verify.
    const probes = botA.handshakes.slice(before);
    expect(probes.map((p) => p['x-svc-match'])).toEqual(['deploy-check']);
    expect(botA.verified.at(-1)).toBe(true);
    expect((await h.store.getBot(bot.id))?.url).toBe(botA.url);
  });

  it("GET /bots?game= lists the owner's bots; GET /bots/{id} shows one", async () => {
    const list = await h.signed(key, 'GET', '/bots?game=pioneers');
    expect(list.status).toBe(200);
    expect(BotListSchema.parse(list.json).bots.map((b) => b.id)).toEqual([botId]);
    const all = await h.signed(key, 'GET', '/bots');
    expect(all.json.bots.map((b: { id: string }) => b.id)).toEqual([botId]);
    const one = await h.signed(key, 'GET', `/bots/${botId}`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: botId, url: botA.url });
  });

  it('PATCH renames without a check, and a new URL runs the deploy check on the new bot', async () => {
    const beforeA = botA.handshakes.length;
    const renamed = await h.signed(key, 'PATCH', `/bots/${botId}`, { name: 'alpha two' });
    expect(renamed.status).toBe(200);
    expect(renamed.json.name).toBe('alpha two');
    expect(botA.handshakes.length).toBe(beforeA);

    const beforeB = botB.handshakes.length;
    const moved = await h.signed(key, 'PATCH', `/bots/${botId}`, { url: botB.url });
    expect(moved.status).toBe(200);
    expect(moved.json.url).toBe(botB.url);
    expect(botB.handshakes.length).toBe(beforeB + 1);
    expect((await h.store.getBot(botId))?.url).toBe(botB.url);
  });

  it('a failing deploy check is 422 deploy_check_failed with the reason, and changes nothing', async () => {
    const before = await h.snapshot();
    const port = await deadPort();
    const dead = await h.signed(key, 'PATCH', `/bots/${botId}`, { url: `http://127.0.0.1:${port}` });
    expect(dead.status).toBe(422);
    expect(dead.json.error.code).toBe('deploy_check_failed');
    expect(dead.json.error.message).toMatch(/refused/);

    const refusedUpgrade = await h.signed(key, 'POST', '/bots', { name: 'nope', game: 'pioneers', url: refusing.url });
    expect(refusedUpgrade.status).toBe(422);
    expect(refusedUpgrade.json.error.code).toBe('deploy_check_failed');
    expect(refusedUpgrade.json.error.message).toMatch(/401/);
    expect(await h.snapshot()).toEqual(before);
  });

  it('a URL the policy refuses is 422 url_rejected before any connection', async () => {
    const before = await h.snapshot();
    for (const url of ['ftp://127.0.0.1/bot', 'http://user:pw@127.0.0.1:1/', 'http://0.0.0.0:8080/', 'not a url']) {
      const res = await h.signed(key, 'POST', '/bots', { name: 'bad', game: 'pioneers', url });
      expect(res.status, url).toBe(422);
      expect(res.json.error.code, url).toBe('url_rejected');
    }
    expect(await h.snapshot()).toEqual(before);
  });

  it('pause and resume', async () => {
    const paused = await h.signed(key, 'POST', `/bots/${botId}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.json.status).toBe('paused');
    expect((await h.store.listActiveBots('pioneers')).map((b) => b.id)).not.toContain(botId);
    const resumed = await h.signed(key, 'POST', `/bots/${botId}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.json.status).toBe('active');
    expect((await h.store.listActiveBots('pioneers')).map((b) => b.id)).toContain(botId);
  });

  it('DELETE removes the bot: 204, then 404 and gone from the list and matchmaking', async () => {
    const del = await h.signed(key, 'DELETE', `/bots/${botId}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const gone = await h.signed(key, 'GET', `/bots/${botId}`);
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe('not_found');
    expect((await h.signed(key, 'GET', '/bots')).json.bots).toEqual([]);
    expect((await h.store.listActiveBots('pioneers')).map((b) => b.id)).not.toContain(botId);
    // The record stays for old matches.
    expect((await h.store.getBot(botId))?.removedAt).not.toBeNull();
  });

  it('every response carries its request id; what a key unlocked is no-store, errors included', async () => {
    const responses = [
      await h.send('GET', '/health'),
      await h.signed(key, 'GET', '/bots'),
      await h.signed(key, 'GET', '/me'),
      await h.signed(key, 'GET', '/bots/b_nosuchbot'),
      await h.send('GET', '/me'),
    ];
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // The log line of each request names the id its response carried.
    for (const id of ids) expect(h.logs.some((l) => l.event === 'request' && l.requestId === id)).toBe(true);
    expect(responses.map((r) => r.headers['cache-control'])).toEqual([
      undefined,
      'no-store',
      'no-store',
      'no-store',
      undefined,
    ]);
    expect(responses[3].status).toBe(404);
  });

  it('an unknown path is a JSON 404, logged and counted without its path', async () => {
    const res = await h.send('GET', '/nowhere/at/all-7f3a9');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
    const line = h.logs.filter((l) => l.event === 'request').at(-1)!;
    expect(line).toMatchObject({ method: 'GET', status: 404 });
    expect(h.logText()).not.toContain('all-7f3a9');
    expect((await h.send('GET', '/metrics')).text).not.toContain('all-7f3a9');
  });

  it('logs one JSON line per request with route pattern, status, duration, key and request id; no URL or secret', async () => {
    const requests = h.logs.filter((l) => l.event === 'request');
    const show = requests.find((l) => l.method === 'GET' && l.route === '/bots/:id' && l.status === 200);
    expect(show).toBeDefined();
    expect(show).toMatchObject({ keyId: key.id });
    expect(typeof show!.ms).toBe('number');
    expect(typeof show!.requestId).toBe('string');
    // Request ids are unique per request.
    const ids = requests.map((l) => l.requestId);
    expect(new Set(ids).size).toBe(ids.length);
    // Registration and key changes have their own lines.
    expect(h.logs.some((l) => l.event === 'bot.register' && l.botId === botId)).toBe(true);
    expect(h.logs.some((l) => l.event === 'key.add')).toBe(true);
    expect(h.logs.some((l) => l.event === 'key.revoke')).toBe(true);
    const text = h.logText();
    for (const bot of [botA, botB, refusing]) {
      expect(text).not.toContain(bot.url);
      expect(text).not.toContain(bot.url.replace('http://', ''));
    }
    expect(text).not.toMatch(/x-svc-signature|BEGIN PUBLIC KEY|ssh-ed25519/);
  });

  it('GET /metrics counts requests by route and status, auth failures by reason and store writes', async () => {
    const res = await h.send('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toMatch(/arena_http_requests_total\{[^}]*route="\/bots\/:id"[^}]*status="200"[^}]*\} \d+/);
    expect(res.text).toMatch(/arena_auth_failures_total\{reason="revoked_key"\} 1/);
    expect(res.text).toMatch(/arena_store_write_seconds_count\{op="addBot"\} 1/);
    expect(res.text).not.toContain(botA.url);
  });
});

describe('what one account may hold', () => {
  let h: Harness;
  let bot: TestBot;
  let key: TestKey;
  let userId: string;

  beforeAll(async () => {
    // Key creations unthrottled here: this is about how many an account may hold at once.
    h = await startHarness({
      dev: true,
      rateLimits: {
        key: { perSecond: 50, burst: 200 },
        address: { perSecond: 10, burst: 60 },
        keyCreations: { perSecond: 100, burst: 100 },
      },
    });
    bot = await startTestBot({ behaviour: () => {} });
    userId = (await h.addUser('many@example.com')).id;
    key = await h.addKey(userId);
  });
  afterAll(async () => {
    await h?.close();
    await bot?.close();
  });

  it(`${MAX_BOTS_PER_USER} bots: one more is 409 before any deploy check, and removing one makes room`, async () => {
    const ids: string[] = [];
    for (let i = 0; ids.length < MAX_BOTS_PER_USER; i++)
      ids.push((await h.store.addBot({ ownerId: userId, name: `b${i}`, game: 'pioneers', url: bot.url })).id);
    const upgrades = bot.handshakes.length;
    const over = await h.signed(key, 'POST', '/bots', { name: 'one-more', game: 'pioneers', url: bot.url });
    expect(over.status).toBe(409);
    expect(over.json.error.message).toMatch(/this account has 100 bots, the most it may have; remove one/);
    expect(bot.handshakes.length).toBe(upgrades);
    expect((await h.signed(key, 'DELETE', `/bots/${ids[0]}`)).status).toBe(204);
    expect((await h.signed(key, 'POST', '/bots', { name: 'one-more', game: 'pioneers', url: bot.url })).status).toBe(
      201,
    );
  });

  it(`${MAX_ACTIVE_KEYS_PER_USER} keys that are not revoked: one more is 409, and revoking one makes room`, async () => {
    const add = () =>
      h.signed(key, 'POST', '/keys', {
        name: 'laptop',
        publicKey: Buffer.from(publicKeyRaw(generateKeyPair().privateKey)).toString('base64'),
      });
    let last: { json: { id: string } } | null = null;
    for (let n = 1; n < MAX_ACTIVE_KEYS_PER_USER; n++) {
      const r = await add();
      expect(r.status).toBe(201);
      last = r;
    }
    const over = await add();
    expect(over.status).toBe(409);
    expect(over.json.error.message).toMatch(/this account has 50 active keys, the most it may have; revoke one/);
    expect((await h.signed(key, 'POST', `/keys/${last!.json.id}/revoke`)).status).toBe(200);
    expect((await add()).status).toBe(201);
  });
});

describe('keys are added a few in a row, then one a minute: adding and revoking cannot fill the store', () => {
  let h: Harness;
  let now = Date.now();
  beforeAll(async () => {
    h = await startHarness({
      dev: true,
      now: () => now,
      rateLimits: {
        key: { perSecond: 50, burst: 200 },
        address: { perSecond: 10, burst: 60 },
        keyCreations: { perSecond: 1 / 60, burst: 2 },
      },
    });
  });
  afterAll(() => h?.close());

  it('past the allowance, 429 with Retry-After, and nothing is added', async () => {
    const key = await h.addKey((await h.addUser('rotate@example.com')).id);
    const add = () =>
      h.signed(key, 'POST', '/keys', {
        name: 'ci',
        publicKey: Buffer.from(publicKeyRaw(generateKeyPair().privateKey)).toString('base64'),
      });
    for (let i = 0; i < 2; i++) {
      const r = await add();
      expect(r.status).toBe(201);
      expect((await h.signed(key, 'POST', `/keys/${r.json.id}/revoke`)).status).toBe(200);
    }
    const over = await add();
    expect(over.status).toBe(429);
    expect(over.json.error.message).toMatch(/too many keys added to this account lately; retry in 60 s/);
    expect(over.headers['retry-after']).toBe('60');
    expect((await h.signed(key, 'GET', '/keys')).json.keys).toHaveLength(3);
    now += 60_000;
    expect((await add()).status).toBe(201);
  });
});

describe('deploy checks are limited per account: the server cannot be aimed at someone', () => {
  let h: Harness;
  let bot: TestBot;
  let key: TestKey;
  let now = Date.now();

  beforeAll(async () => {
    h = await startHarness({
      dev: true,
      now: () => now,
      rateLimits: {
        key: { perSecond: 50, burst: 200 },
        address: { perSecond: 10, burst: 60 },
        deployChecks: { perSecond: 1 / 5, burst: 2 },
      },
    });
    bot = await startTestBot({ behaviour: () => {} });
    key = await h.addKey((await h.addUser('checks@example.com')).id);
  });
  afterAll(async () => {
    await h?.close();
    await bot?.close();
  });

  it('registrations and streamed checks share one bucket; past it, 429 with Retry-After and no connection to the URL', async () => {
    expect((await h.signed(key, 'POST', '/bots', { name: 'one', game: 'pioneers', url: bot.url })).status).toBe(201);
    expect((await h.signed(key, 'POST', '/bots/check', { url: bot.url })).text).toContain('"passed"');
    const seen = bot.handshakes.length;
    const over = await h.signed(key, 'POST', '/bots/check', { url: bot.url });
    expect(over.status).toBe(429);
    expect(over.json.error.message).toMatch(/too many deploy checks run for this account .*; retry in 5 s/);
    expect(over.headers['retry-after']).toBe('5');
    expect((await h.signed(key, 'POST', '/bots', { name: 'two', game: 'pioneers', url: bot.url })).status).toBe(429);
    expect(bot.handshakes.length).toBe(seen);
    now += 5000;
    expect((await h.signed(key, 'POST', '/bots', { name: 'two', game: 'pioneers', url: bot.url })).status).toBe(201);
  });
});
