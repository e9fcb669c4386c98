// The security suite of issue 9: every way a request can be wrong, each
// checked for its status, its error code and that nothing in the store
// changed. Real server, real file store, real Ed25519 signatures.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { formatPublicKey, generateKeyPair } from '../../../src/keys/index';
import { SCOPES, type Scope } from '../../../src/protocol/api';
import { jsonBody, signHeaders, startHarness, type Harness, type Res, type TestKey } from '../support/api-harness';
import type { Context } from 'hono';
import { clientAddress, limitKey } from '../../../src/service/http/client-limit';
import { ReplayCache, type ReplayCheck } from '../../../src/service/http/replay-cache';

import { hashToken, SESSION_COOKIE } from '../../../src/service/http/auth';

const WINDOW_MS = 5 * 60_000;

function refused(res: Res, status: number, code: string, message?: RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.json ?? {})).toEqual(['error']);
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe('string');
  if (message) expect(res.json.error.message).toMatch(message);
}

describe('security suite: refused requests change nothing', () => {
  let h: Harness;
  let alice: TestKey;
  let bob: TestKey;
  let bobSpare: TestKey;
  let aliceBot: string;
  let aliceBot2: string;
  let bobBot: string;
  let before: unknown;

  beforeAll(async () => {
    h = await startHarness({ dev: true });
    const a = await h.addUser('alice@example.com', 'alice');
    const b = await h.addUser('bob@example.com', 'bob');
    alice = await h.addKey(a.id);
    bob = await h.addKey(b.id);
    bobSpare = await h.addKey(b.id, ['bots.read']);
    // Bots enter the store directly: these tests are about who may touch them.
    aliceBot = (await h.store.addBot({ ownerId: a.id, name: 'a1', game: 'pioneers', url: 'http://127.0.0.1:9/a1' })).id;
    aliceBot2 = (await h.store.addBot({ ownerId: a.id, name: 'a2', game: 'pioneers', url: 'http://127.0.0.1:9/a2' }))
      .id;
    bobBot = (await h.store.addBot({ ownerId: b.id, name: 'b1', game: 'pioneers', url: 'http://127.0.0.1:9/b1' })).id;
  });
  afterAll(() => h?.close());
  beforeEach(async () => {
    before = await h.snapshot();
  });
  const unchanged = async () => expect(await h.snapshot()).toEqual(before);

  it('no signature and no session: 401', async () => {
    refused(await h.send('POST', `/bots/${aliceBot}/pause`), 401, 'unauthenticated', /sign|session/);
    refused(await h.send('GET', '/me'), 401, 'unauthenticated');
    await unchanged();
  });

  it('each missing signature header: 401 naming it', async () => {
    const full = signHeaders(alice, 'POST', `/bots/${aliceBot}/pause`);
    for (const name of ['x-svc-timestamp', 'x-svc-signature'] as const) {
      const headers: Record<string, string> = { ...full };
      delete headers[name];
      refused(await h.send('POST', `/bots/${aliceBot}/pause`, { headers }), 401, 'unauthenticated', new RegExp(name));
    }
    await unchanged();
  });

  it('a signature by another private key: 401 bad signature', async () => {
    const impostor = { id: alice.id, privateKey: generateKeyPair().privateKey };
    refused(
      await h.send('POST', `/bots/${aliceBot}/pause`, {
        headers: signHeaders(impostor, 'POST', `/bots/${aliceBot}/pause`),
      }),
      401,
      'unauthenticated',
      /signature/,
    );
    const garbage = { ...signHeaders(alice, 'POST', `/bots/${aliceBot}/pause`), 'x-svc-signature': 'not base64!' };
    refused(await h.send('POST', `/bots/${aliceBot}/pause`, { headers: garbage }), 401, 'unauthenticated', /signature/);
    await unchanged();
  });

  it('the body changed after signing: 401', async () => {
    const headers = {
      ...signHeaders(alice, 'POST', '/me/handle', jsonBody({ handle: 'alice_two' })),
      'content-type': 'application/json',
    };
    refused(
      await h.send('POST', '/me/handle', { headers, body: jsonBody({ handle: 'alice_six' }) }),
      401,
      'unauthenticated',
      /signature/,
    );
    // Even one added byte of whitespace.
    refused(
      await h.send('POST', '/me/handle', { headers, body: `${jsonBody({ handle: 'alice_two' })} ` }),
      401,
      'unauthenticated',
    );
    await unchanged();
  });

  it('the path, the query or the method changed after signing: 401', async () => {
    const signedFor = signHeaders(alice, 'POST', `/bots/${aliceBot}/pause`);
    refused(
      await h.send('POST', `/bots/${aliceBot2}/pause`, { headers: signedFor }),
      401,
      'unauthenticated',
      /signature/,
    );
    refused(
      await h.send('DELETE', `/bots/${aliceBot}`, { headers: signHeaders(alice, 'GET', `/bots/${aliceBot}`) }),
      401,
      'unauthenticated',
      /signature/,
    );
    refused(
      await h.send('GET', '/bots', { headers: signHeaders(alice, 'GET', '/bots?game=pioneers') }),
      401,
      'unauthenticated',
      /signature/,
    );
    refused(
      await h.send('GET', '/bots?game=pioneers', { headers: signHeaders(alice, 'GET', '/bots') }),
      401,
      'unauthenticated',
      /signature/,
    );
    await unchanged();
  });

  it('stale and future timestamps (outside 5 minutes): 401 with their own messages', async () => {
    const path = `/bots/${aliceBot}/pause`;
    refused(
      await h.send('POST', path, {
        headers: signHeaders(alice, 'POST', path, undefined, Date.now() - WINDOW_MS - 10_000),
      }),
      401,
      'unauthenticated',
      /old/,
    );
    refused(
      await h.send('POST', path, {
        headers: signHeaders(alice, 'POST', path, undefined, Date.now() + WINDOW_MS + 10_000),
      }),
      401,
      'unauthenticated',
      /future/,
    );
    const bad = { ...signHeaders(alice, 'POST', path), 'x-svc-timestamp': '1e12' };
    refused(await h.send('POST', path, { headers: bad }), 401, 'unauthenticated', /timestamp/);
    await unchanged();
  });

  it('the same signature presented twice: the replay is 401 and does nothing', async () => {
    const body = jsonBody({ name: 'once', publicKey: formatPublicKey(generateKeyPair().privateKey, 'raw') })!;
    const headers = { ...signHeaders(alice, 'POST', '/keys', body), 'content-type': 'application/json' };
    const first = await h.send('POST', '/keys', { headers, body });
    expect(first.status).toBe(201);
    const afterFirst = await h.snapshot();
    refused(await h.send('POST', '/keys', { headers, body }), 401, 'unauthenticated', /already used|replay/);
    expect(await h.snapshot()).toEqual(afterFirst);
  });

  it('a replay with the signature re-encoded (padding dropped) is still a replay', async () => {
    const body = jsonBody({ name: 'twice?', publicKey: formatPublicKey(generateKeyPair().privateKey, 'raw') })!;
    const headers: Record<string, string> = {
      ...signHeaders(alice, 'POST', '/keys', body),
      'content-type': 'application/json',
    };
    expect(headers['x-svc-signature']).toMatch(/==$/);
    expect((await h.send('POST', '/keys', { headers, body })).status).toBe(201);
    const afterFirst = await h.snapshot();
    const unpadded = { ...headers, 'x-svc-signature': headers['x-svc-signature'].replace(/=+$/, '') };
    refused(await h.send('POST', '/keys', { headers: unpadded, body }), 401, 'unauthenticated', /already used|replay/);
    const spaced = { ...headers, 'x-svc-signature': ` ${headers['x-svc-signature']} ` };
    refused(await h.send('POST', '/keys', { headers: spaced, body }), 401, 'unauthenticated', /already used|replay/);
    expect(await h.snapshot()).toEqual(afterFirst);
  });

  it('signed requests that arrive together each get their own answer: a replay among them is caught, a forgery fails alone', async () => {
    // The server checks the signatures of the requests it read in one event-loop turn back to
    // back (turn-batch.ts); sent at once, these are likely to share a turn, and whether or not
    // they do, every request must get the answer it would get alone.
    const now = Date.now();
    const mine = (res: Res) => (res.json?.bots as Array<{ id: string }> | undefined)?.map((b) => b.id).sort();
    const a1 = signHeaders(alice, 'GET', '/bots', undefined, now - 3);
    const a2 = signHeaders(alice, 'GET', '/bots', undefined, now - 2);
    const b1 = signHeaders(bob, 'GET', '/bots', undefined, now - 1);
    const forged = signHeaders(
      { id: bob.id, privateKey: generateKeyPair().privateKey },
      'GET',
      '/bots',
      undefined,
      now,
    );
    const b1Unpadded = { ...b1, 'x-svc-signature': b1['x-svc-signature'].replace(/=+$/, '') };
    const [r1, r1Again, r2, s1, s1Again, sForged] = await Promise.all(
      [a1, a1, a2, b1, b1Unpadded, forged].map((headers) => h.send('GET', '/bots', { headers })),
    );
    expect(mine(r2)).toEqual([aliceBot, aliceBot2].sort());
    refused(sForged, 401, 'unauthenticated', /signature/);
    for (const [pair, bots] of [
      [[r1, r1Again], [aliceBot, aliceBot2].sort()],
      [[s1, s1Again], [bobBot]],
    ] as const) {
      const ok = pair.filter((r) => r.status === 200);
      expect(ok, pair.map((r) => r.text).join(' | ')).toHaveLength(1);
      expect(mine(ok[0])).toEqual(bots);
      refused(pair.find((r) => r !== ok[0])!, 401, 'unauthenticated', /already used|replay/);
    }
    await unchanged();
  });

  it('a replay under another key id holding the same public key is still a replay', async () => {
    // The signed message does not name the key: the same key pair registered twice (say, a
    // read-only and a full key) verifies one captured request under either id.
    const pair = generateKeyPair();
    const publicKey = formatPublicKey(pair.privateKey, 'raw');
    const first = await h.store.addKey({ userId: alice.userId, name: 'twin a', publicKey, scopes: [...SCOPES] });
    const twin = await h.store.addKey({ userId: alice.userId, name: 'twin b', publicKey, scopes: [...SCOPES] });
    before = await h.snapshot();
    const body = jsonBody({
      name: 'captured',
      publicKey: formatPublicKey(generateKeyPair().privateKey, 'raw'),
      scopes: ['bots.read'],
    })!;
    const headers = {
      ...signHeaders({ id: first.id, privateKey: pair.privateKey }, 'POST', '/keys', body),
      'content-type': 'application/json',
    };
    expect((await h.send('POST', '/keys', { headers, body })).status).toBe(201);
    const afterFirst = await h.snapshot();
    refused(
      await h.send('POST', '/keys', { headers: { ...headers, 'x-svc-key': twin.id }, body }),
      401,
      'unauthenticated',
      /already used|replay/,
    );
    expect(await h.snapshot()).toEqual(afterFirst);
  });

  it('a revoked key fails at once; an unknown key id is 401', async () => {
    const doomed = await h.addKey((await h.store.getUserByEmail('alice@example.com'))!.id);
    expect((await h.signed(doomed, 'GET', '/me')).status).toBe(200);
    await h.store.revokeKey(doomed.id);
    before = await h.snapshot();
    refused(await h.signed(doomed, 'POST', `/bots/${aliceBot}/pause`), 401, 'unauthenticated', /revoked/);
    refused(
      await h.signed({ ...alice, id: 'k_nosuchkey' }, 'POST', `/bots/${aliceBot}/pause`),
      401,
      'unauthenticated',
      /unknown key/,
    );
    for (const id of ['__proto__', 'constructor', 'x'.repeat(500)]) {
      refused(
        await h.signed({ ...alice, id }, 'POST', `/bots/${aliceBot}/pause`),
        401,
        'unauthenticated',
        /unknown key/,
      );
    }
    await unchanged();
  });

  // Every scoped route, called by a key that holds every scope but the one it needs.
  const scoped: Array<{ scope: Scope; method: string; label: string; path: () => string; body?: () => unknown }> = [
    { scope: 'account.read', label: '/me', method: 'GET', path: () => '/me' },
    {
      scope: 'account.write',
      label: '/me/handle',
      method: 'POST',
      path: () => '/me/handle',
      body: () => ({ handle: 'alice_new' }),
    },
    { scope: 'keys.read', label: '/keys', method: 'GET', path: () => '/keys' },
    {
      scope: 'keys.write',
      label: '/keys',
      method: 'POST',
      path: () => '/keys',
      body: () => ({ name: 'k', publicKey: formatPublicKey(generateKeyPair().privateKey, 'raw') }),
    },
    { scope: 'keys.write', label: '/keys/{id}/revoke', method: 'POST', path: () => `/keys/${alice.id}/revoke` },
    { scope: 'bots.read', label: '/bots?game=pioneers', method: 'GET', path: () => '/bots?game=pioneers' },
    { scope: 'bots.read', label: '/bots/{id}', method: 'GET', path: () => `/bots/${aliceBot}` },
    {
      scope: 'bots.write',
      label: '/bots',
      method: 'POST',
      path: () => '/bots',
      body: () => ({ name: 'n', game: 'pioneers', url: 'http://127.0.0.1:9/' }),
    },
    {
      scope: 'bots.write',
      label: '/bots/check',
      method: 'POST',
      path: () => '/bots/check',
      body: () => ({ url: 'http://127.0.0.1:9/' }),
    },
    {
      scope: 'bots.write',
      label: '/bots/{id}',
      method: 'PATCH',
      path: () => `/bots/${aliceBot}`,
      body: () => ({ name: 'renamed' }),
    },
    { scope: 'bots.write', label: '/bots/{id}/pause', method: 'POST', path: () => `/bots/${aliceBot}/pause` },
    { scope: 'bots.write', label: '/bots/{id}/resume', method: 'POST', path: () => `/bots/${aliceBot}/resume` },
    { scope: 'bots.write', label: '/bots/{id}', method: 'DELETE', path: () => `/bots/${aliceBot}` },
    {
      scope: 'bots.write',
      label: '/challenges',
      method: 'POST',
      path: () => '/challenges',
      body: () => ({ botId: aliceBot, opponents: [bobBot] }),
    },
    { scope: 'bots.read', label: '/challenges', method: 'GET', path: () => '/challenges' },
  ];
  for (const r of scoped) {
    it(`missing scope ${r.scope} for ${r.method} ${r.label}: 403 naming the scope`, async () => {
      const lacking = await h.addKey(
        alice.userId,
        SCOPES.filter((s) => s !== r.scope),
      );
      before = await h.snapshot();
      refused(
        await h.signed(lacking, r.method, r.path(), r.body?.()),
        403,
        'forbidden',
        new RegExp(r.scope.replace('.', '\\.')),
      );
      await unchanged();
    });
  }

  it('a key cannot mint a key with scopes it does not hold: 403 naming them', async () => {
    const keysOnly = await h.addKey(alice.userId, ['keys.read', 'keys.write']);
    before = await h.snapshot();
    const publicKey = () => formatPublicKey(generateKeyPair().privateKey, 'raw');
    refused(
      await h.signed(keysOnly, 'POST', '/keys', {
        name: 'stronger',
        publicKey: publicKey(),
        scopes: ['keys.write', 'account.write'],
      }),
      403,
      'forbidden',
      /account\.write/,
    );
    // The default scopes (bots.read, bots.write) are beyond it too.
    refused(
      await h.signed(keysOnly, 'POST', '/keys', { name: 'default', publicKey: publicKey() }),
      403,
      'forbidden',
      /bots\.read/,
    );
    await unchanged();
    const weaker = await h.signed(keysOnly, 'POST', '/keys', {
      name: 'weaker',
      publicKey: publicKey(),
      scopes: ['keys.read'],
    });
    expect(weaker.status).toBe(201);
  });

  it('a key may revoke only keys whose scopes it holds: a weaker one is 403 and changes nothing; the dashboard session revokes any', async () => {
    const keysOnly = await h.addKey(alice.userId, ['keys.read', 'keys.write']);
    const strong = await h.addKey(alice.userId, [...SCOPES]);
    const peer = await h.addKey(alice.userId, ['keys.write']);
    before = await h.snapshot();
    refused(
      await h.signed(keysOnly, 'POST', `/keys/${strong.id}/revoke`),
      403,
      'forbidden',
      /cannot revoke key .*account\.write.*a key may revoke only keys whose scopes it holds/,
    );
    await unchanged();
    expect((await h.store.getKey(strong.id))!.revokedAt).toBeNull();
    // Equal or weaker: allowed (itself included).
    expect((await h.signed(keysOnly, 'POST', `/keys/${peer.id}/revoke`)).status).toBe(200);
    // The dashboard session holds the account: it revokes the strongest key.
    const session = 'sess-' + 'x'.repeat(40);
    await h.store.addSession({
      tokenHash: hashToken(session),
      userId: alice.userId,
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    const viaSession = await h.send('POST', `/keys/${strong.id}/revoke`, {
      headers: { cookie: `${SESSION_COOKIE}=${session}`, origin: new URL(h.baseUrl).origin },
    });
    expect(viaSession.status, viaSession.text).toBe(200);
    expect(viaSession.json.revokedAt).not.toBeNull();
    expect((await h.signed(keysOnly, 'POST', `/keys/${keysOnly.id}/revoke`)).status).toBe(200);
  });

  it('a public key another account registered is 409 conflict saying to generate a key for this server', async () => {
    const pair = generateKeyPair();
    const mine = await h.signed(bob, 'POST', '/keys', {
      name: 'shared',
      publicKey: formatPublicKey(pair.privateKey, 'ssh'),
      scopes: ['bots.read'],
    });
    expect(mine.status).toBe(201);
    before = await h.snapshot();
    for (const format of ['ssh', 'pem', 'raw'] as const) {
      refused(
        await h.signed(alice, 'POST', '/keys', {
          name: 'copy',
          publicKey: formatPublicKey(pair.privateKey, format),
          scopes: ['bots.read'],
        }),
        409,
        'conflict',
        /another account on this server registered this public key; generate a key for this server \(arena keys generate\)/,
      );
    }
    await unchanged();
    // The account that holds it may add it again (say, with other scopes).
    expect(
      (
        await h.signed(bob, 'POST', '/keys', {
          name: 'shared again',
          publicKey: formatPublicKey(pair.privateKey, 'raw'),
          scopes: ['bots.read'],
        })
      ).status,
    ).toBe(201);
  });

  it("another owner's bot: 403 for every bot operation", async () => {
    refused(await h.signed(alice, 'GET', `/bots/${bobBot}`), 403, 'forbidden');
    refused(await h.signed(alice, 'PATCH', `/bots/${bobBot}`, { name: 'mine now' }), 403, 'forbidden');
    refused(
      await h.signed(alice, 'PATCH', `/bots/${bobBot}`, { url: 'http://127.0.0.1:9/elsewhere' }),
      403,
      'forbidden',
    );
    refused(await h.signed(alice, 'POST', `/bots/${bobBot}/pause`), 403, 'forbidden');
    refused(await h.signed(alice, 'POST', `/bots/${bobBot}/resume`), 403, 'forbidden');
    refused(await h.signed(alice, 'PATCH', `/bots/${bobBot}`, { newVersion: true }), 403, 'forbidden');
    refused(await h.signed(alice, 'POST', `/bots/${bobBot}/requalify`), 403, 'forbidden');
    refused(await h.signed(alice, 'GET', `/bots/${bobBot}/versions`), 403, 'forbidden');
    refused(await h.signed(alice, 'DELETE', `/bots/${bobBot}`), 403, 'forbidden');
    const list = await h.signed(alice, 'GET', '/bots');
    expect(list.json.bots.map((b: { id: string }) => b.id)).not.toContain(bobBot);
    expect(list.text).not.toContain('127.0.0.1:9/b1');
    await unchanged();
  });

  it("another owner's webhooks: 403 to remove or read deliveries, absent from the list, nothing changed", async () => {
    const bobs = await h.store.addWebhook(
      {
        ownerId: (await h.store.getBot(bobBot))!.ownerId,
        url: 'http://127.0.0.1:9/bob-hook',
        events: ['match.completed'],
      },
      10,
    );
    before = await h.snapshot();
    refused(await h.signed(alice, 'DELETE', `/webhooks/${bobs.id}`), 403, 'forbidden');
    refused(await h.signed(alice, 'GET', `/webhooks/${bobs.id}/deliveries`), 403, 'forbidden');
    refused(await h.signed(alice, 'DELETE', '/webhooks/wh_doesnotexist'), 404, 'not_found');
    const list = await h.signed(alice, 'GET', '/webhooks');
    expect(list.status).toBe(200);
    expect(list.json.webhooks).toEqual([]);
    expect(list.text).not.toContain('bob-hook');
    // A key with bots.read only cannot add or remove webhooks, even its own account's.
    refused(
      await h.signed(bobSpare, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/x', events: ['bot.failed'] }),
      403,
      'forbidden',
    );
    refused(await h.signed(bobSpare, 'DELETE', `/webhooks/${bobs.id}`), 403, 'forbidden');
    await unchanged();
    await h.store.removeWebhook(bobs.id);
  });

  it("another owner's key: 403 to revoke, absent from the list", async () => {
    refused(await h.signed(alice, 'POST', `/keys/${bobSpare.id}/revoke`), 403, 'forbidden');
    const keys = await h.signed(alice, 'GET', '/keys');
    expect(keys.json.keys.map((k: { id: string }) => k.id)).not.toContain(bobSpare.id);
    expect(keys.json.keys.map((k: { id: string }) => k.id)).not.toContain(bob.id);
    await unchanged();
  });

  describe('challenges', () => {
    let refusing: string;
    let paused: string;
    let removed: string;
    let alicePaused: string;
    beforeAll(async () => {
      const bobId = (await h.store.getBot(bobBot))!.ownerId;
      const aliceId = (await h.store.getBot(aliceBot))!.ownerId;
      refusing = (
        await h.store.addBot({ ownerId: bobId, name: 'shy', game: 'pioneers', url: 'http://127.0.0.1:9/shy' })
      ).id;
      paused = (
        await h.store.addBot({ ownerId: bobId, name: 'napping', game: 'pioneers', url: 'http://127.0.0.1:9/nap' })
      ).id;
      removed = (
        await h.store.addBot({ ownerId: bobId, name: 'gone', game: 'pioneers', url: 'http://127.0.0.1:9/gone' })
      ).id;
      alicePaused = (
        await h.store.addBot({ ownerId: aliceId, name: 'a-paused', game: 'pioneers', url: 'http://127.0.0.1:9/ap' })
      ).id;
      // The owner turns challenges off through the API, as a user would.
      const off = await h.signed(bob, 'PATCH', `/bots/${refusing}`, { challengeable: false });
      expect(off.status, off.text).toBe(200);
      expect(off.json.challengeable).toBe(false);
      await h.store.updateBot(paused, { status: 'paused' });
      await h.store.updateBot(alicePaused, { status: 'paused' });
      await h.store.removeBot(removed);
      before = await h.snapshot();
    });

    it("refused with a clear error and nothing stored: a bot that refuses them, another owner's bot as the challenger's, paused, removed and unknown bots, bad lists", async () => {
      const post = (botId: string, opponents: unknown) => h.signed(alice, 'POST', '/challenges', { botId, opponents });
      refused(
        await post(aliceBot, [refusing]),
        403,
        'forbidden',
        new RegExp(`bot ${refusing} \\(shy\\) does not accept challenges`),
      );
      refused(await post(aliceBot, [bobBot, refusing]), 403, 'forbidden', /does not accept challenges/);
      refused(await post(bobBot, [aliceBot2]), 403, 'forbidden', /belongs to another account/);
      refused(await post(aliceBot, [paused]), 409, 'conflict', /is paused/);
      refused(await post(alicePaused, [bobBot]), 409, 'conflict', /your bot .* is paused; resume it first/);
      refused(await post(aliceBot, [removed]), 404, 'not_found', new RegExp(`no bot ${removed}`));
      refused(await post(removed, [aliceBot]), 404, 'not_found');
      refused(await post(aliceBot, ['b_doesnotexist']), 404, 'not_found');
      refused(await post('b_doesnotexist', [bobBot]), 404, 'not_found');
      refused(await post(aliceBot, [aliceBot]), 400, 'invalid_request', /cannot challenge itself/);
      refused(await post(aliceBot, []), 400, 'invalid_request', /opponents/);
      refused(await post(aliceBot, [bobBot, bobBot]), 400, 'invalid_request', /each opponent once/);
      refused(await post(aliceBot, [bobBot, aliceBot2, refusing, paused]), 400, 'invalid_request', /opponents/);
      refused(await post(aliceBot, 'b_x'), 400, 'invalid_request', /opponents/);
      refused(
        await h.signed(alice, 'POST', '/challenges', { botId: aliceBot, opponents: [bobBot], rated: true }),
        400,
        'invalid_request',
        /rated/,
      );
      // The owner's own bot may face it anyway: the setting is about other accounts.
      await unchanged();
    });

    it('the owner turns challenges off and on through PATCH; another account cannot', async () => {
      refused(await h.signed(alice, 'PATCH', `/bots/${refusing}`, { challengeable: true }), 403, 'forbidden');
      refused(
        await h.signed(bob, 'PATCH', `/bots/${refusing}`, { challengeable: 'no' }),
        400,
        'invalid_request',
        /challengeable/,
      );
      await unchanged();
      expect((await h.signed(bob, 'GET', `/bots/${bobBot}`)).json.challengeable).toBe(true);
    });

    it('over the limits (3 pending, 20 a day): 429 with Retry-After, nothing added; each account sees only its own challenges', async () => {
      const made: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await h.signed(alice, 'POST', '/challenges', { botId: aliceBot, opponents: [bobBot] });
        expect(res.status, res.text).toBe(201);
        expect(res.json).toMatchObject({ botId: aliceBot, opponents: [bobBot], status: 'pending', matchId: null });
        made.push(res.json.id);
      }
      before = await h.snapshot();
      const over = await h.signed(alice, 'POST', '/challenges', { botId: aliceBot, opponents: [bobBot] });
      refused(over, 429, 'rate_limited', /3 challenges waiting.*3 pending at once/);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(500);
      await unchanged();
      // Bob sees none of Alice's; Alice sees hers, newest first.
      expect((await h.signed(bob, 'GET', '/challenges')).json.challenges).toEqual([]);
      expect((await h.signed(alice, 'GET', '/challenges')).json.challenges.map((c: { id: string }) => c.id)).toEqual(
        [...made].reverse(),
      );
      refused(await h.signed(alice, 'GET', '/challenges?limit=0'), 400, 'invalid_request', /limit/);
      // Settled ones free their place but count for the day: 20 in 24 hours.
      for (let i = 0; i < 17; i++) {
        for (const id of made.splice(0)) await h.store.settleChallenge(id, { status: 'refused', reason: 'test' });
        const res = await h.signed(alice, 'POST', '/challenges', { botId: aliceBot, opponents: [bobBot] });
        expect(res.status, res.text).toBe(201);
        made.push(res.json.id);
      }
      for (const id of made.splice(0)) await h.store.settleChallenge(id, { status: 'refused', reason: 'test' });
      before = await h.snapshot();
      const daily = await h.signed(alice, 'POST', '/challenges', { botId: aliceBot, opponents: [bobBot] });
      refused(daily, 429, 'rate_limited', /20 challenges in the last 24 hours.*20 in 24 hours/);
      expect(Number(daily.headers['retry-after'])).toBeGreaterThan(80_000);
      await unchanged();
      // Bob's allowance is his own.
      expect((await h.signed(bob, 'POST', '/challenges', { botId: bobBot, opponents: [aliceBot] })).status).toBe(201);
    });
  });

  it('unknown bot and key ids: 404', async () => {
    refused(await h.signed(alice, 'GET', '/bots/b_doesnotexist'), 404, 'not_found');
    refused(await h.signed(alice, 'POST', '/bots/b_doesnotexist/pause'), 404, 'not_found');
    refused(await h.signed(alice, 'POST', '/keys/k_doesnotexist/revoke'), 404, 'not_found');
    for (const id of ['__proto__', 'constructor', 'hasOwnProperty']) {
      refused(await h.signed(alice, 'GET', `/bots/${id}`), 404, 'not_found');
      refused(await h.signed(alice, 'DELETE', `/bots/${id}`), 404, 'not_found');
      refused(await h.signed(alice, 'POST', `/keys/${id}/revoke`), 404, 'not_found');
    }
    await unchanged();
  });

  it('a 65 KiB body is 413 too_large before it is read, with or without Content-Length', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(65 * 1024), game: 'pioneers', url: 'http://127.0.0.1:9/' });
    const headers = { ...signHeaders(alice, 'POST', '/bots', big), 'content-type': 'application/json' };
    refused(await h.send('POST', '/bots', { headers, body: big }), 413, 'too_large');
    // Chunked: no Content-Length, the server counts the bytes as they stream.
    const chunks = [Buffer.from(big.slice(0, 40_000)), Buffer.from(big.slice(40_000))];
    const res = await h.send('POST', '/bots', { headers, body: Readable.from(chunks) as unknown as Buffer });
    refused(res, 413, 'too_large');
    // Unauthenticated routes too.
    refused(
      await h.send('POST', '/auth/email', { headers: { 'content-type': 'application/json' }, body: big }),
      413,
      'too_large',
    );
    await unchanged();
  });

  it('a Content-Length that lies (20 declared, 65 KiB sent): a 4xx, the rest is no request, the server keeps serving', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(65 * 1024), game: 'pioneers', url: 'http://127.0.0.1:9/' });
    const path = `/bots/${aliceBot}`;
    const head = [
      `PATCH ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      'Content-Length: 20',
      ...Object.entries(signHeaders(alice, 'PATCH', path, big)).map(([k, v]) => `${k}: ${v}`),
      '',
      '',
    ].join('\r\n');
    const reply = await new Promise<string>((resolve, reject) => {
      const sock = connect(Number(new URL(h.url).port), '127.0.0.1');
      let got = '';
      sock.on('data', (d) => (got += d));
      sock.on('error', () => resolve(got));
      sock.on('close', () => resolve(got));
      sock.on('connect', () => sock.end(head + big));
      setTimeout(() => reject(new Error(`the server never closed; got ${got.slice(0, 200)}`)), 10_000).unref();
    });
    // The 20 declared bytes are not what was signed (401), and the bytes after them are no HTTP request (400).
    expect(reply).toMatch(/^HTTP\/1\.1 40[01] /);
    expect((await h.send('GET', '/health')).status).toBe(200);
    await unchanged();
  });

  it('invalid JSON: 400 invalid_request', async () => {
    const body = '{"handle":';
    const headers = { ...signHeaders(alice, 'POST', '/me/handle', body), 'content-type': 'application/json' };
    refused(await h.send('POST', '/me/handle', { headers, body }), 400, 'invalid_request', /JSON/i);
    await unchanged();
  });

  it('a body that is not sent as JSON: 400 saying so', async () => {
    const body = JSON.stringify({ handle: 'alice_ct' });
    // One millisecond apart: the same request signed twice in one millisecond is one signature, a replay.
    const now = Date.now();
    for (const [i, type] of ['text/plain', 'application/x-www-form-urlencoded', undefined].entries()) {
      const headers: Record<string, string> = signHeaders(alice, 'POST', '/me/handle', body, now + i);
      if (type) headers['content-type'] = type;
      refused(
        await h.send('POST', '/me/handle', { headers, body }),
        400,
        'invalid_request',
        /Content-Type: application\/json/,
      );
    }
    await unchanged();
  });

  it('names that look like nothing (format characters, Hangul fillers, lone surrogates, mark stacks): 400 for bots (POST and PATCH) and keys, nothing changed', async () => {
    // Raw JSON: a lone surrogate travels as a \u escape, as a client would send it.
    const names = [
      'best\\u200bbot',
      '\\u3164',
      '\\u115f\\u1160',
      'bot\\ud800',
      'z\\u0301\\u0302\\u0303',
      '\\ufeff',
      'a\\u00adb',
    ];
    for (const name of names) {
      for (const [method, path, body] of [
        ['POST', '/bots', `{"name":"${name}","game":"pioneers","url":"http://127.0.0.1:9/x"}`],
        ['PATCH', `/bots/${aliceBot}`, `{"name":"${name}"}`],
        ['POST', '/keys', `{"name":"${name}","publicKey":"${formatPublicKey(generateKeyPair().privateKey, 'raw')}"}`],
      ] as const) {
        const headers = { ...signHeaders(alice, method, path, body), 'content-type': 'application/json' };
        refused(
          await h.send(method, path, { headers, body }),
          400,
          'invalid_request',
          /^name: must not (contain|be blank|stack)/,
        );
      }
    }
    await unchanged();
  });

  it('wrong types and unknown fields: 400 naming the field', async () => {
    refused(await h.signed(alice, 'POST', '/me/handle', { handle: 42 }), 400, 'invalid_request', /handle/);
    refused(await h.signed(alice, 'POST', '/me/handle', { handle: 'Not A Handle' }), 400, 'invalid_request', /handle/);
    refused(
      await h.signed(alice, 'POST', '/me/handle', { handle: 'ok_handle', admin: true }),
      400,
      'invalid_request',
      /admin/,
    );
    refused(
      await h.signed(alice, 'POST', '/bots', { name: 'x', game: 'chess', url: 'http://127.0.0.1:9/' }),
      400,
      'invalid_request',
      /game/,
    );
    refused(await h.signed(alice, 'POST', '/bots', { name: 'x', game: 'pioneers' }), 400, 'invalid_request', /url/);
    refused(
      await h.signed(alice, 'POST', '/keys', {
        name: '',
        publicKey: formatPublicKey(generateKeyPair().privateKey, 'raw'),
      }),
      400,
      'invalid_request',
      /name/,
    );
    refused(
      await h.signed(alice, 'POST', '/keys', {
        name: 'k',
        publicKey: formatPublicKey(generateKeyPair().privateKey, 'raw'),
        scopes: ['root'],
      }),
      400,
      'invalid_request',
      /scopes/,
    );
    refused(await h.signed(alice, 'PATCH', `/bots/${aliceBot}`, { name: 7 }), 400, 'invalid_request', /name/);
    refused(await h.signed(alice, 'GET', '/bots?game=chess'), 400, 'invalid_request', /game/);
    for (const limit of ['abc', '0', '2.5', '101']) {
      refused(
        await h.send('GET', `/matches?limit=${limit}`),
        400,
        'invalid_request',
        /^limit: must be a whole number from 1 to 100$/,
      );
    }
    await unchanged();
  });

  it('a public key that is not Ed25519: 400 naming publicKey', async () => {
    for (const publicKey of [
      'not a key',
      'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ== me',
      Buffer.alloc(31).toString('base64'),
    ]) {
      refused(await h.signed(alice, 'POST', '/keys', { name: 'k', publicKey }), 400, 'invalid_request', /publicKey/);
    }
    await unchanged();
  });

  it('a handle another user has: 409 conflict; re-setting your own is fine', async () => {
    refused(await h.signed(alice, 'POST', '/me/handle', { handle: 'bob' }), 409, 'conflict', /bob/);
    await unchanged();
    const same = await h.signed(alice, 'POST', '/me/handle', { handle: 'alice' });
    expect(same.status).toBe(200);
    expect(same.json.name).toBe('alice');
    await unchanged();
  });

  it('a deeply nested or huge-number body is a 400, and the server keeps serving', async () => {
    const deep = `{"handle":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    refused(await h.signed(alice, 'POST', '/me/handle', deep), 400, 'invalid_request');
    refused(await h.signed(alice, 'POST', '/me/handle', '{"handle":1e999999}'), 400, 'invalid_request', /handle/);
    expect((await h.send('GET', '/health')).status).toBe(200);
    await unchanged();
  });

  it('refusals are counted by reason in /metrics', async () => {
    const metrics = (await h.send('GET', '/metrics')).text;
    for (const reason of ['bad_signature', 'stale_timestamp', 'future_timestamp', 'unknown_key', 'revoked_key']) {
      expect(metrics).toMatch(new RegExp(`arena_auth_failures_total\\{reason="${reason}"\\} [1-9]`));
    }
  });
});

describe('responses are checked against their schemas', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dev: true });
  });
  afterAll(() => h?.close());

  it('a stored record outside the contract is a logged 500, never sent', async () => {
    const u = await h.addUser('odd@example.com');
    const key = await h.addKey(u.id);
    // Written around the API: a key name over the 64-character limit.
    await h.store.addKey({
      userId: u.id,
      name: 'n'.repeat(100),
      publicKey: Buffer.alloc(32, 7).toString('base64'),
      scopes: ['bots.read'],
    });
    const res = await h.signed(key, 'GET', '/keys');
    refused(res, 500, 'internal');
    expect(res.text).not.toContain('n'.repeat(100));
    expect(h.logs.some((l) => l.event === 'error' && l.requestId === res.headers['x-request-id'])).toBe(true);
  });
});

describe('rate limits', () => {
  let h: Harness;
  // A fresh server per test: the address bucket is shared by every public route.
  beforeEach(async () => {
    h = await startHarness({
      dev: true,
      rateLimits: { key: { burst: 3, perSecond: 0.01 }, address: { burst: 2, perSecond: 0.01 } },
    });
  });
  afterEach(() => h?.close());

  it('per key: over the burst is 429 rate_limited with Retry-After, and other keys are unaffected', async () => {
    const u = await h.addUser('busy@example.com');
    const k1 = await h.addKey(u.id);
    const k2 = await h.addKey(u.id);
    for (let i = 0; i < 3; i++) expect((await h.signed(k1, 'GET', '/bots')).status).toBe(200);
    const before = await h.snapshot();
    const limited = await h.signed(k1, 'POST', '/bots', { name: 'n', game: 'pioneers', url: 'http://127.0.0.1:9/' });
    refused(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await h.snapshot()).toEqual(before);
    expect((await h.signed(k2, 'GET', '/bots')).status).toBe(200);
    expect((await h.send('GET', '/metrics')).text).toMatch(/arena_rate_limited_total(\{[^}]*\})? [1-9]/);
  });

  it("a request 429'd for its key is not remembered: sent again as it was after Retry-After, it is accepted", async () => {
    await h.close();
    let clock = Date.now();
    h = await startHarness({
      dev: true,
      now: () => clock,
      rateLimits: { key: { burst: 3, perSecond: 0.1 }, address: { burst: 100, perSecond: 100 } },
    });
    const u = await h.addUser('retry@example.com');
    const k = await h.addKey(u.id);
    for (let i = 0; i < 3; i++)
      expect((await h.send('GET', '/me', { headers: signHeaders(k, 'GET', '/me', undefined, clock + i) })).status).toBe(
        200,
      );
    const headers = signHeaders(k, 'GET', '/me', undefined, clock + 3);
    const limited = await h.send('GET', '/me', { headers });
    refused(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBe(10);
    clock += retryAfter * 1000;
    const again = await h.send('GET', '/me', { headers });
    expect(again.status, again.text).toBe(200);
    // Accepted once, it is remembered like any other.
    clock += retryAfter * 1000;
    refused(await h.send('GET', '/me', { headers }), 401, 'unauthenticated', /already used/);
  });

  it('a key over its limit: 429 before its signature is verified or stored; forged requests under its id spend none of its tokens', async () => {
    await h.close();
    const cache = new ReplayCache(WINDOW_MS);
    const checked: string[] = [];
    const replayGuard = {
      check: async (key: string, ts: number, now: number): Promise<ReplayCheck> => (
        checked.push(key), cache.check(key, ts, now)
      ),
    };
    h = await startHarness({
      dev: true,
      replayGuard,
      rateLimits: { key: { burst: 3, perSecond: 0.01 }, address: { burst: 100, perSecond: 100 } },
    });
    const u = await h.addUser('spent@example.com');
    const k = await h.addKey(u.id);
    const forged = { ...k, privateKey: generateKeyPair().privateKey };
    // Forgeries are refused on their signature and give their token back.
    for (let i = 0; i < 5; i++) refused(await h.signed(forged, 'GET', '/me'), 401, 'unauthenticated', /signature/);
    for (let i = 0; i < 3; i++) expect((await h.signed(k, 'GET', '/me')).status).toBe(200);
    expect(checked).toHaveLength(3);
    expect(cache.size).toBe(3);
    const failures = () =>
      h
        .send('GET', '/metrics')
        .then((r) => Number(/arena_auth_failures_total\{reason="bad_signature"\} (\d+)/.exec(r.text)?.[1] ?? 0));
    const failedBefore = await failures();
    // Over the limit: neither a good nor a forged signature is checked (a forgery is 429, not 401), nothing is stored.
    refused(await h.signed(k, 'GET', '/me'), 429, 'rate_limited');
    refused(await h.signed(forged, 'GET', '/me'), 429, 'rate_limited');
    expect(checked).toHaveLength(3);
    expect(cache.size).toBe(3);
    expect(await failures()).toBe(failedBefore);
  });

  it('failed signed requests per address: past the budget, 429 before any signature is checked', async () => {
    await h.close();
    h = await startHarness({
      dev: true,
      rateLimits: {
        key: { burst: 100, perSecond: 100 },
        address: { burst: 100, perSecond: 100 },
        authFailures: { burst: 3, perSecond: 0.01 },
      },
    });
    const u = await h.addUser('target@example.com');
    const k = await h.addKey(u.id);
    const bot = (await h.store.addBot({ ownerId: u.id, name: 't1', game: 'pioneers', url: 'http://127.0.0.1:9/t1' }))
      .id;
    const forged = { ...k, privateKey: generateKeyPair().privateKey };
    // A missing scope is not a failed signature: it costs nothing from the budget.
    const reader = await h.addKey(u.id, ['bots.read']);
    const before = await h.snapshot();
    refused(await h.signed(reader, 'POST', `/bots/${bot}/pause`), 403, 'forbidden');
    for (let i = 0; i < 3; i++)
      refused(await h.signed(forged, 'POST', `/bots/${bot}/pause`), 401, 'unauthenticated', /signature/);
    const limited = await h.signed(forged, 'POST', `/bots/${bot}/pause`);
    refused(limited, 429, 'rate_limited', /failed signed requests/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The address waits whoever signs: the check comes before the signature's.
    refused(await h.signed(k, 'POST', `/bots/${bot}/pause`), 429, 'rate_limited');
    expect(await h.snapshot()).toEqual(before);
    expect((await h.store.getBot(bot))?.status).toBe('active');
    // Public routes keep their own limit.
    expect((await h.send('GET', '/health')).status).toBe(200);
    expect((await h.send('GET', '/metrics')).text).toMatch(/arena_auth_failures_total\{reason="bad_signature"\} 3\n/);
  });

  it("behind a proxy without --trust-proxy: every client shares the proxy's address, and the log says so once", async () => {
    for (const client of ['203.0.113.5', '203.0.113.6'])
      expect((await h.send('GET', '/health', { headers: { 'x-forwarded-for': client } })).status).toBe(200);
    refused(await h.send('GET', '/health', { headers: { 'x-forwarded-for': '203.0.113.7' } }), 429, 'rate_limited');
    expect(h.logs.filter((l) => l.event === 'proxy.untrusted')).toHaveLength(1);
  });

  it('with --trust-proxy: each client by the address the proxy appended; what the client wrote before it does not count', async () => {
    await h.close();
    h = await startHarness({
      dev: true,
      trustProxy: true,
      rateLimits: {
        key: { burst: 3, perSecond: 0.01 },
        address: { burst: 2, perSecond: 0.01 },
        authFailures: { burst: 1, perSecond: 0.01 },
      },
    });
    const get = (xff?: string) =>
      h.send('GET', '/health', { headers: xff === undefined ? {} : { 'x-forwarded-for': xff } });
    expect([(await get('203.0.113.5')).status, (await get('198.51.100.1, 203.0.113.5')).status]).toEqual([200, 200]);
    refused(await get('203.0.113.5'), 429, 'rate_limited');
    // A forged first entry does not buy a new bucket: the proxy's entry is the last one.
    refused(await get('192.0.2.99, 203.0.113.5'), 429, 'rate_limited');
    // Another client, an IPv6 one, and the proxy itself (no header, or a last entry that is no address) each have their
    // own.
    expect((await get('203.0.113.6')).status).toBe(200);
    expect((await get('2001:db8::1')).status).toBe(200);
    expect((await get()).status).toBe(200);
    expect((await get('unknown')).status).toBe(200);
    refused(await get(), 429, 'rate_limited');
    // Failed signatures count per client too: one client's forgeries do not lock out another's keys.
    const u = await h.addUser('proxied@example.com');
    const k = await h.addKey(u.id);
    const forged = { ...k, privateKey: generateKeyPair().privateKey };
    refused(
      await h.signed(forged, 'GET', '/bots', undefined, { 'x-forwarded-for': '203.0.113.66' }),
      401,
      'unauthenticated',
    );
    refused(
      await h.signed(forged, 'GET', '/bots', undefined, { 'x-forwarded-for': '203.0.113.66' }),
      429,
      'rate_limited',
      /failed signed requests/,
    );
    expect((await h.signed(k, 'GET', '/bots', undefined, { 'x-forwarded-for': '203.0.113.77' })).status).toBe(200);
    expect(h.logs.some((l) => l.event === 'proxy.untrusted')).toBe(false);
  });

  it('with --trust-proxy, an IPv6 client counts by its /64: another address of the same /64 gets no allowance of its own', async () => {
    await h.close();
    h = await startHarness({
      dev: true,
      trustProxy: true,
      rateLimits: {
        key: { burst: 3, perSecond: 0.01 },
        address: { burst: 2, perSecond: 0.01 },
        authFailures: { burst: 1, perSecond: 0.01 },
      },
    });
    const get = (xff: string) => h.send('GET', '/health', { headers: { 'x-forwarded-for': xff } });
    expect([(await get('2001:db8:1:2::1')).status, (await get('2001:db8:1:2::2')).status]).toEqual([200, 200]);
    refused(await get('2001:db8:1:2:ffff:ffff:ffff:9'), 429, 'rate_limited');
    // The next /64 is another client.
    expect((await get('2001:db8:1:3::1')).status).toBe(200);
    // An IPv4 client written as IPv4-mapped IPv6 is the same client.
    expect([(await get('203.0.113.9')).status, (await get('::ffff:203.0.113.9')).status]).toEqual([200, 200]);
    refused(await get('203.0.113.9'), 429, 'rate_limited');
    expect([
      limitKey('2001:0db8:0001:0002::abcd'),
      limitKey('::1'),
      limitKey('::ffff:10.0.0.1'),
      limitKey('unknown'),
    ]).toEqual(['2001:db8:1:2::/64', '::/64', '10.0.0.1', 'unknown']);
  });

  it('believes X-Forwarded-For only from a loopback or private peer (a proxy), never from a public one', () => {
    // Requests from public addresses cannot be made here (tests stay on loopback): the Node request the app reads, as
    // it would be.
    const from = (peer: string, xff?: string) =>
      ({
        env: {
          incoming: { socket: { remoteAddress: peer }, rawHeaders: xff === undefined ? [] : ['X-Forwarded-For', xff] },
        },
      }) as unknown as Context;
    expect(clientAddress(from('198.51.100.7', '203.0.113.5'), true)).toBe('198.51.100.7');
    expect(clientAddress(from('2001:db8::9', '203.0.113.5'), true)).toBe('2001:db8::9');
    for (const proxy of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.0.0.2', '192.168.1.4', '172.16.0.3', 'fd00::1']) {
      expect(clientAddress(from(proxy, '203.0.113.5'), true)).toBe('203.0.113.5');
      expect(clientAddress(from(proxy, '203.0.113.5'), false)).toBe(proxy);
    }
  });

  it('per address on unauthenticated routes', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        await h.send('POST', '/auth/email', {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `x${i}@example.com` }),
        }),
      );
    expect(statuses.slice(0, 2).map((r) => r.status)).toEqual([202, 202]);
    refused(statuses[2], 429, 'rate_limited');
    expect(Number(statuses[2].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Every unauthenticated route shares the address's bucket.
    for (const path of [
      '/health',
      '/.well-known/svc.json',
      '/openapi.json',
      '/llms.txt',
      '/metrics',
      '/auth/callback?token=x',
    ]) {
      refused(await h.send('GET', path), 429, 'rate_limited');
    }
  });
});
