// The webhook routes in production mode: https URLs at public addresses only
// (the resolver is injected, so no name is looked up and nothing is sent
// anywhere), the per-account limit, bad input refused with nothing changed,
// and what the owner sees of their webhooks.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Resolver } from '../../../../src/net/address-policy';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../../../src/protocol/webhooks';
import { startHarness, type Harness, type Res, type TestKey } from '../../support/api-harness';

const ADDRESSES: Record<string, string> = {
  'hooks.example.com': '93.184.216.34',
  'intranet.example.com': '10.0.0.5',
  'sneaky.example.com': '127.0.0.1',
};
const resolve: Resolver = async (host) => {
  const address = ADDRESSES[host];
  if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};

function refused(res: Res, status: number, code: string, message?: RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json.error.code).toBe(code);
  if (message) expect(res.json.error.message).toMatch(message);
}

describe('webhook routes (production mode, injected resolver)', () => {
  let h: Harness;
  let owner: TestKey;
  let before: unknown;
  beforeAll(async () => {
    h = await startHarness({
      resolve,
      rateLimits: { key: { perSecond: 1000, burst: 1000 }, address: { perSecond: 1000, burst: 1000 } },
    });
    owner = await h.addKey((await h.addUser('owner@example.com', 'owner')).id);
  });
  afterAll(() => h?.close());
  beforeEach(async () => {
    before = await h.snapshot();
  });
  const unchanged = async () => expect(await h.snapshot()).toEqual(before);

  it('a URL at a private address, loopback or over http is refused (422 url_rejected), nothing stored', async () => {
    refused(
      await h.signed(owner, 'POST', '/webhooks', {
        url: 'https://intranet.example.com/hook',
        events: ['match.completed'],
      }),
      422,
      'url_rejected',
      /10\.0\.0\.5.*private.*production webhooks must be reachable at a public address/,
    );
    refused(
      await h.signed(owner, 'POST', '/webhooks', {
        url: 'https://sneaky.example.com/hook',
        events: ['match.completed'],
      }),
      422,
      'url_rejected',
      /127\.0\.0\.1/,
    );
    refused(
      await h.signed(owner, 'POST', '/webhooks', { url: 'https://10.1.2.3/hook', events: ['match.completed'] }),
      422,
      'url_rejected',
      /private/,
    );
    refused(
      await h.signed(owner, 'POST', '/webhooks', { url: 'http://hooks.example.com/hook', events: ['match.completed'] }),
      422,
      'url_rejected',
      /webhooks must use https, not http/,
    );
    refused(
      await h.signed(owner, 'POST', '/webhooks', { url: 'wss://hooks.example.com/hook', events: ['match.completed'] }),
      422,
      'url_rejected',
      /webhook URLs must use https/,
    );
    refused(
      await h.signed(owner, 'POST', '/webhooks', {
        url: 'https://user:pw@hooks.example.com/hook',
        events: ['match.completed'],
      }),
      422,
      'url_rejected',
      /user name or password/,
    );
    await unchanged();
    // The log never names the URL.
    expect(h.logText()).not.toContain('intranet.example.com');
  });

  it('bad bodies are 400 naming the field, nothing stored', async () => {
    refused(
      await h.signed(owner, 'POST', '/webhooks', { url: 'https://hooks.example.com/hook', events: [] }),
      400,
      'invalid_request',
      /events/,
    );
    refused(
      await h.signed(owner, 'POST', '/webhooks', { url: 'https://hooks.example.com/hook', events: ['match.started'] }),
      400,
      'invalid_request',
      /events/,
    );
    refused(
      await h.signed(owner, 'POST', '/webhooks', { url: 'https://hooks.example.com/hook' }),
      400,
      'invalid_request',
      /events/,
    );
    refused(
      await h.signed(owner, 'POST', '/webhooks', {
        url: 'https://hooks.example.com/hook',
        events: ['bot.failed'],
        secret: 'x',
      }),
      400,
      'invalid_request',
    );
    await unchanged();
  });

  it('adds, lists and removes; events are kept once each; the limit per account is 409', async () => {
    const made = await h.signed(owner, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/a',
      events: ['bot.failed', 'match.completed', 'bot.failed'],
    });
    expect(made.status, made.text).toBe(201);
    expect(made.json).toMatchObject({ url: 'https://hooks.example.com/a', events: ['bot.failed', 'match.completed'] });
    expect(made.json.id).toMatch(/^wh_/);
    const list = await h.signed(owner, 'GET', '/webhooks');
    expect(list.json.webhooks).toEqual([made.json]);
    const deliveries = await h.signed(owner, 'GET', `/webhooks/${made.json.id}/deliveries`);
    expect(deliveries.json).toEqual({ deliveries: [] });
    for (let i = 1; i < MAX_WEBHOOKS_PER_ACCOUNT; i++) {
      expect(
        (await h.signed(owner, 'POST', '/webhooks', { url: `https://hooks.example.com/${i}`, events: ['bot.failed'] }))
          .status,
      ).toBe(201);
    }
    before = await h.snapshot();
    refused(
      await h.signed(owner, 'POST', '/webhooks', { url: 'https://hooks.example.com/over', events: ['bot.failed'] }),
      409,
      'conflict',
      /most it may have/,
    );
    await unchanged();
    const del = await h.signed(owner, 'DELETE', `/webhooks/${made.json.id}`);
    expect(del.status).toBe(204);
    refused(await h.signed(owner, 'GET', `/webhooks/${made.json.id}/deliveries`), 404, 'not_found');
    expect((await h.signed(owner, 'GET', '/webhooks')).json.webhooks).toHaveLength(MAX_WEBHOOKS_PER_ACCOUNT - 1);
  });

  it('openapi.json describes the four routes, signed, with the schedule and limits in words', async () => {
    const doc = (await h.send('GET', '/openapi.json')).json as {
      paths: Record<string, Record<string, { security?: unknown[]; description?: string }>>;
    };
    expect(Object.keys(doc.paths['/webhooks']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/webhooks/{id}'])).toEqual(['delete']);
    expect(Object.keys(doc.paths['/webhooks/{id}/deliveries'])).toEqual(['get']);
    for (const op of [doc.paths['/webhooks'].post, doc.paths['/webhooks'].get, doc.paths['/webhooks/{id}'].delete])
      expect(op.security?.length).toBeGreaterThan(0);
    expect(doc.paths['/webhooks'].post.description).toMatch(
      /v1a.*at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h.*10 webhooks/s,
    );
  });
});

describe('webhook creations are rate-limited per account', () => {
  it('past the allowance: 429 rate_limited with Retry-After, nothing stored', async () => {
    const h = await startHarness({
      resolve,
      rateLimits: {
        key: { perSecond: 1000, burst: 1000 },
        address: { perSecond: 1000, burst: 1000 },
        webhookCreations: { perSecond: 1 / 60, burst: 1 },
      },
    });
    try {
      const owner = await h.addKey((await h.addUser('owner@example.com', 'owner')).id);
      expect(
        (await h.signed(owner, 'POST', '/webhooks', { url: 'https://hooks.example.com/a', events: ['bot.failed'] }))
          .status,
      ).toBe(201);
      const before = await h.snapshot();
      const res = await h.signed(owner, 'POST', '/webhooks', {
        url: 'https://hooks.example.com/b',
        events: ['bot.failed'],
      });
      refused(res, 429, 'rate_limited', /too many webhooks added/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(await h.snapshot()).toEqual(before);
    } finally {
      await h.close();
    }
  });
});
