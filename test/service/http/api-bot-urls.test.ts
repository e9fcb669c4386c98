// Bot URLs in production mode: https only, every resolved address public, and
// the deploy check connects to the address that was checked. DNS is an
// injected resolver and the deploy check's connector is injected too: it
// records the pinned address it was handed and then probes a real test bot
// on loopback, so no connection ever leaves 127.0.0.1.
import { BotCheckMessageSchema } from '../../../src/protocol/bot-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedAddress, Resolver } from '../../../src/net/address-policy';
import { deployCheck, type DeployCheckOptions } from '../../../src/probe/deploy-check';
import { startTestBot, type TestBot } from '../../support/test-bot';
import { startHarness, type Harness, type TestKey } from '../support/api-harness';

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

const v = (address: string): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 });

/** Every class of address the production policy must refuse, with an example of each. */
const REFUSED: Array<[label: string, address: string]> = [
  ['loopback', '127.0.0.1'],
  ['loopback (anywhere in 127/8)', '127.45.6.7'],
  ['IPv6 loopback', '::1'],
  ['private 10/8', '10.1.2.3'],
  ['private 172.16/12', '172.16.0.1'],
  ['private 172.16/12 (top)', '172.31.255.254'],
  ['private 192.168/16', '192.168.1.1'],
  ['link-local 169.254/16 (cloud metadata)', '169.254.169.254'],
  ['IPv6 link-local fe80::/10', 'fe80::1'],
  ['CGNAT 100.64/10', '100.64.0.1'],
  ['CGNAT 100.64/10 (top)', '100.127.255.254'],
  ['multicast', '224.0.0.1'],
  ['IPv6 multicast', 'ff02::1'],
  ['unspecified', '0.0.0.0'],
  ['IPv6 unspecified', '::'],
  ['broadcast', '255.255.255.255'],
  ['documentation 192.0.2/24', '192.0.2.10'],
  ['documentation 198.51.100/24', '198.51.100.7'],
  ['documentation 203.0.113/24', '203.0.113.9'],
  ['IPv6 documentation 2001:db8::/32', '2001:db8::1'],
  ['unique-local fc00::/7', 'fc00::1'],
  ['unique-local fd00::/8', 'fd12:3456::1'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped private', '::ffff:10.0.0.1'],
  ['IPv4-mapped link-local', '::ffff:169.254.169.254'],
  ['IPv4-mapped CGNAT', '::ffff:100.64.0.1'],
  ['IPv4-compatible loopback', '::127.0.0.1'],
  ['IPv4-compatible private', '::10.0.0.1'],
];

describe('bot URLs in production mode (injected resolver and connector)', () => {
  let h: Harness;
  let key: TestKey;
  let bot: TestBot;
  /** The hostname -> answers the resolver gives; a function answers per call. */
  const dns = new Map<string, ResolvedAddress[] | (() => ResolvedAddress[])>();
  const resolved: string[] = [];
  /** What the connector was asked to do: the URL and the address it was pinned to. */
  const connects: Array<{ url: string; address: string | undefined }> = [];

  const resolve: Resolver = async (hostname) => {
    resolved.push(hostname);
    const answer = dns.get(hostname);
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return typeof answer === 'function' ? answer() : answer;
  };

  beforeAll(async () => {
    bot = await startTestBot({ behaviour: () => {} });
    h = await startHarness({
      resolve,
      // The connector: take the gate's pinned address, then probe the loopback test bot instead of it.
      deployCheck: async (url: string, opts: DeployCheckOptions) => {
        const pinned = opts.gate ? await opts.gate(url) : undefined;
        connects.push({ url, address: pinned?.address });
        return deployCheck(bot.url, { platformKey: opts.platformKey, timeoutMs: 5000, onStep: opts.onStep });
      },
    });
    const u = await h.addUser('prod@example.com');
    key = await h.addKey(u.id);
  });
  afterAll(async () => {
    await h?.close();
    await bot?.close();
  });
  beforeEach(() => {
    dns.clear();
    resolved.length = 0;
    connects.length = 0;
  });

  const register = (url: string) => h.signed(key, 'POST', '/bots', { name: 'prod bot', game: 'pioneers', url });

  it('an https URL resolving to public addresses registers; the deploy check is pinned to the checked address', async () => {
    dns.set('bot.example.com', [v(PUBLIC_V4), v(PUBLIC_V6)]);
    const before = bot.handshakes.length;
    const res = await register('https://bot.example.com/play');
    expect(res.status, res.text).toBe(201);
    expect(res.json.url).toBe('https://bot.example.com/play');
    expect(connects).toEqual([{ url: 'https://bot.example.com/play', address: PUBLIC_V4 }]);
    expect(bot.handshakes.slice(before).map((x) => x['x-svc-match'])).toEqual(['deploy-check']);
  });

  const lines = (text: string) =>
    text
      .trim()
      .split('\n')
      .map((l) => BotCheckMessageSchema.parse(JSON.parse(l)));

  it('POST /bots/check streams each step as it starts and passes, then passed, and saves nothing', async () => {
    dns.set('bot.example.com', [v(PUBLIC_V4)]);
    const before = await h.snapshot();
    const res = await h.signed(key, 'POST', '/bots/check', { url: 'https://bot.example.com/play' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
    expect(lines(res.text)).toEqual([
      { type: 'step', step: 'url', status: 'running' },
      { type: 'step', step: 'url', status: 'passed' },
      { type: 'step', step: 'ping', status: 'running' },
      { type: 'step', step: 'ping', status: 'passed' },
      { type: 'step', step: 'upgrade', status: 'running' },
      { type: 'step', step: 'upgrade', status: 'passed' },
      { type: 'passed' },
    ]);
    expect(connects).toEqual([{ url: 'https://bot.example.com/play', address: PUBLIC_V4 }]);
    expect(await h.snapshot()).toEqual(before);
  });

  it('POST /bots/check names the failed step with the error registration gives', async () => {
    dns.set('bot.example.com', [v(PUBLIC_V4), v('127.0.0.1')]);
    const res = await h.signed(key, 'POST', '/bots/check', { url: 'https://bot.example.com/' });
    const got = lines(res.text);
    expect(got[0]).toEqual({ type: 'step', step: 'url', status: 'running' });
    const last = got.at(-1)!;
    expect(last).toMatchObject({ type: 'failed', step: 'url', error: { code: 'url_rejected' } });
    const registered = await register('https://bot.example.com/');
    expect(registered.json.error).toEqual((last as { error: unknown }).error);
    expect(connects).toEqual([]);
    expect(h.logText()).not.toContain('bot.example.com');
  });

  it('http (and ws) are refused in production before any lookup', async () => {
    dns.set('bot.example.com', [v(PUBLIC_V4)]);
    const before = await h.snapshot();
    for (const url of ['http://bot.example.com/', 'ws://bot.example.com/']) {
      const res = await register(url);
      expect(res.status).toBe(422);
      expect(res.json.error.code).toBe('url_rejected');
      expect(res.json.error.message).toMatch(/https/);
    }
    expect(resolved).toEqual([]);
    expect(connects).toEqual([]);
    expect(await h.snapshot()).toEqual(before);
  });

  for (const [label, address] of REFUSED) {
    it(`refuses a host resolving to ${label} (${address})`, async () => {
      dns.set('sneaky.example.com', [v(address)]);
      const before = await h.snapshot();
      const res = await register('https://sneaky.example.com/');
      expect(res.status, res.text).toBe(422);
      expect(res.json.error.code).toBe('url_rejected');
      expect(connects).toEqual([]);
      expect(await h.snapshot()).toEqual(before);
    });
  }

  it('refuses address literals of those classes in the URL itself, without DNS', async () => {
    const before = await h.snapshot();
    for (const host of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[fd00::1]',
      '2130706433',
      '0x7f.1',
    ]) {
      const res = await register(`https://${host}/`);
      expect(res.status, host).toBe(422);
      expect(res.json.error.code, host).toBe('url_rejected');
    }
    expect(resolved).toEqual([]);
    expect(connects).toEqual([]);
    expect(await h.snapshot()).toEqual(before);
  });

  it('a host with several addresses where one is bad is refused, whatever the order', async () => {
    const before = await h.snapshot();
    for (const answers of [
      [PUBLIC_V4, '10.0.0.1'],
      [PUBLIC_V4, '127.0.0.1'],
      ['192.168.0.2', PUBLIC_V4],
      [PUBLIC_V6, '::1'],
    ]) {
      dns.set('multi.example.com', answers.map(v));
      const res = await register('https://multi.example.com/');
      expect(res.status, answers.join(',')).toBe(422);
      expect(res.json.error.code).toBe('url_rejected');
      expect(res.json.error.message).toMatch(/every one must pass/);
    }
    expect(connects).toEqual([]);
    expect(await h.snapshot()).toEqual(before);
  });

  it('a rebinding resolver (public first, loopback after) gets nowhere: resolved once, connected to the public answer', async () => {
    let calls = 0;
    dns.set('rebind.example.com', () => (calls++ === 0 ? [v(PUBLIC_V4)] : [v('127.0.0.1')]));
    const res = await register('https://rebind.example.com/');
    expect(res.status, res.text).toBe(201);
    expect(resolved).toEqual(['rebind.example.com']);
    expect(connects).toEqual([{ url: 'https://rebind.example.com/', address: PUBLIC_V4 }]);
  });

  it('a name that does not resolve is url_rejected', async () => {
    const res = await register('https://nowhere.example.com/');
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('url_rejected');
    expect(res.json.error.message).toMatch(/nowhere\.example\.com/);
    expect(connects).toEqual([]);
  });

  it('a new URL in PATCH is checked like a new bot; the old URL stays on refusal', async () => {
    dns.set('good.example.com', [v(PUBLIC_V4)]);
    const made = await register('https://good.example.com/');
    expect(made.status).toBe(201);
    dns.set('inside.example.com', [v('10.9.8.7')]);
    const before = await h.snapshot();
    const res = await h.signed(key, 'PATCH', `/bots/${made.json.id}`, { url: 'https://inside.example.com/' });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('url_rejected');
    expect(res.json.error.message).toMatch(/10\.9\.8\.7/);
    expect(await h.snapshot()).toEqual(before);
    expect((await h.store.getBot(made.json.id))?.url).toBe('https://good.example.com/');
  });

  it('neither hosts nor URLs reach the log', () => {
    const text = h.logText();
    expect(text).not.toMatch(/example\.com\//);
    expect(text).not.toContain('https://');
    expect(text).not.toContain(bot.url);
  });
});
