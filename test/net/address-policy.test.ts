// The bot URL policy. Every resolver here is injected: no real DNS, and the
// public addresses below are only classified, never connected to. The only
// connections go to servers on 127.0.0.1 / ::1.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, get, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo, LookupFunction } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import {
  addressGate,
  checkBotUrl,
  classifyAddress,
  MAX_URL_LENGTH,
  pinnedLookup,
  systemResolver,
  UrlRejected,
  type AddressPolicy,
  type ResolvedAddress,
  type Resolver,
} from '../../src/net/address-policy';

const family = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);

/** A resolver that answers `addresses` and records what it was asked. */
function answering(...addresses: string[]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    return addresses.map((address) => ({ address, family: family(address) }));
  };
  return Object.assign(resolve, { asked });
}

/** For IP literals and bad URLs: the check must not ask DNS at all. */
const mustNotResolve: Resolver = async (hostname) => {
  throw new Error(`resolver called for ${hostname}`);
};

const production = (resolve: Resolver): AddressPolicy => ({ production: true, resolve });
const development = (resolve: Resolver): AddressPolicy => ({ production: false, resolve });

async function rejection(p: Promise<unknown>): Promise<UrlRejected> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(UrlRejected);
    return err as UrlRejected;
  }
  throw new Error('expected a rejection, the URL was accepted');
}

// [address, range classifyAddress gives, allowed in development]. Production allows only 'unicast'.
const ADDRESSES: [string, string, boolean][] = [
  // IPv4 public (boundaries of the private blocks included)
  ['8.8.8.8', 'unicast', true],
  ['93.184.216.34', 'unicast', true],
  ['172.15.255.255', 'unicast', true],
  ['172.32.0.1', 'unicast', true],
  ['100.63.255.255', 'unicast', true],
  ['100.128.0.1', 'unicast', true],
  ['192.169.0.1', 'unicast', true],
  // IPv4 refused
  ['127.0.0.1', 'loopback', true],
  ['127.255.255.254', 'loopback', true],
  ['10.0.0.5', 'private', true],
  ['10.255.255.255', 'private', true],
  ['172.16.0.1', 'private', true],
  ['172.31.255.255', 'private', true],
  ['192.168.1.1', 'private', true],
  ['169.254.169.254', 'linkLocal', true],
  ['100.64.0.1', 'carrierGradeNat', true],
  ['100.127.255.255', 'carrierGradeNat', true],
  ['224.0.0.1', 'multicast', false],
  ['239.255.255.250', 'multicast', false],
  ['0.0.0.0', 'unspecified', false],
  ['0.1.2.3', 'unspecified', false],
  ['255.255.255.255', 'broadcast', false],
  ['192.0.2.1', 'reserved', true],
  ['198.51.100.7', 'reserved', true],
  ['203.0.113.9', 'reserved', true],
  ['198.18.0.1', 'reserved', true],
  ['192.0.0.8', 'reserved', true],
  ['240.0.0.1', 'reserved', true],
  ['192.175.48.1', 'as112', true],
  ['192.52.193.1', 'amt', true],
  // IPv6 public
  ['2606:4700:4700::1111', 'unicast', true],
  ['2001:4860:4860::8888', 'unicast', true],
  // IPv6 refused
  ['::1', 'loopback', true],
  ['::', 'unspecified', false],
  ['fe80::1', 'linkLocal', true],
  ['febf:ffff::1', 'linkLocal', true],
  ['fc00::1', 'uniqueLocal', true],
  ['fd12:3456:789a::1', 'uniqueLocal', true],
  ['ff02::1', 'multicast', false],
  ['ff0e::101', 'multicast', false],
  ['fec0::1', 'deprecatedSiteLocal', true],
  ['2001:db8::1', 'reserved', true],
  ['3fff::1', 'reserved', true],
  ['2001:2::1', 'benchmarking', true],
  ['100::1', 'discard', true],
  ['2002:7f00:1::1', '6to4', true],
  ['2002:808:808::1', '6to4', true],
  ['2001:0:4136:e378::1', 'teredo', true],
  ['2001:20::1', 'orchid2', true],
  ['5f00::1', 'segmentRouting', true],
  ['4000::1', 'reserved', true],
  ['::1:2:3:4', 'reserved', true],
  // IPv4-mapped: judged by the IPv4 inside
  ['::ffff:8.8.8.8', 'unicast', true],
  ['::ffff:127.0.0.1', 'loopback', true],
  ['::ffff:7f00:1', 'loopback', true],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback', true],
  ['::ffff:10.0.0.5', 'private', true],
  ['::ffff:172.16.0.1', 'private', true],
  ['::ffff:192.168.0.1', 'private', true],
  ['::ffff:169.254.169.254', 'linkLocal', true],
  ['::ffff:100.64.0.1', 'carrierGradeNat', true],
  ['::ffff:224.0.0.1', 'multicast', false],
  ['::ffff:0.0.0.0', 'unspecified', false],
  ['::ffff:255.255.255.255', 'broadcast', false],
  ['::ffff:192.0.2.1', 'reserved', true],
  // IPv4-compatible (deprecated): the IPv4's range, and never public
  ['::127.0.0.1', 'loopback', true],
  ['::10.0.0.5', 'private', true],
  ['::169.254.1.1', 'linkLocal', true],
  ['::100.64.0.1', 'carrierGradeNat', true],
  ['::224.0.0.1', 'multicast', false],
  ['::8.8.8.8', 'ipv4Compatible', true],
  ['::808:808', 'ipv4Compatible', true],
  ['0:0:0:0:0:0:7f00:1', 'loopback', true],
  // NAT64 64:ff9b::/96: as good as the IPv4 inside; the local-use /48 never
  ['64:ff9b::8.8.8.8', 'unicast', true],
  ['64:ff9b::127.0.0.1', 'loopback', true],
  ['64:ff9b::a00:5', 'private', true],
  ['64:ff9b::169.254.169.254', 'linkLocal', true],
  ['64:ff9b::100.64.0.1', 'carrierGradeNat', true],
  ['64:ff9b::192.168.0.1', 'private', true],
  ['64:ff9b:1::8.8.8.8', 'rfc6052', true],
  // IPv4-translated (SIIT)
  ['::ffff:0:127.0.0.1', 'loopback', true],
  ['::ffff:0:8.8.8.8', 'rfc6145', true],
];

describe('classifyAddress', () => {
  it.each(ADDRESSES)('%s is %s', (address, range) => {
    expect(classifyAddress(address)).toBe(range);
  });

  // ipaddr.js alone would read ::8.8.8.8 as ::ffff:8.8.8.8 (public); sockets read it as IPv4-compatible.
  it('reads a dotted tail after :: as the socket layer does', async () => {
    expect(classifyAddress('::8.8.8.8')).toBe('ipv4Compatible');
    const err = await rejection(checkBotUrl('https://bot.example.com/', production(answering('::8.8.8.8'))));
    expect(err.message).toContain('::8.8.8.8 (IPv4-compatible 8.8.8.8), a deprecated IPv4-compatible IPv6 address');
  });

  it.each(['127.1', '0x7f.1', '2130706433', 'localhost', '', '1.2.3.4.5', '::ffff:1.2.3'])(
    '%j is not an address',
    (s) => {
      expect(classifyAddress(s)).toBe('invalid');
    },
  );
});

describe('checkBotUrl: addresses from the resolver', () => {
  it.each(ADDRESSES)('production: bot.example.com -> %s (%s)', async (address, range) => {
    const resolve = answering(address);
    const check = checkBotUrl('https://bot.example.com/play', production(resolve));
    if (range === 'unicast') {
      const ok = await check;
      // A mapped address is pinned as the IPv4 it carries.
      const pinned = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
      expect(ok.address).toBe(pinned);
      expect(ok.family).toBe(family(pinned));
    } else {
      const err = await rejection(check);
      expect(err.code).toBe('url_rejected');
      expect(err.reason).toBe('address_not_allowed');
      expect(err.detail).toEqual({ address, range });
      expect(err.message).toContain(`bot.example.com resolves to ${address}`);
      expect(err.message).toContain('production bots must be reachable at a public address');
    }
    expect(resolve.asked).toEqual(['bot.example.com']);
  });

  it.each(ADDRESSES)('development: bot.example.com -> %s (%s)', async (address, range, devAllowed) => {
    const check = checkBotUrl('http://bot.example.com/', development(answering(address)));
    if (devAllowed) {
      expect((await check).url.hostname).toBe('bot.example.com');
    } else {
      const err = await rejection(check);
      expect(err.reason).toBe('address_not_allowed');
      expect(err.detail?.range).toBe(range);
    }
  });

  it('names the host, the address and its kind', async () => {
    const err = await rejection(checkBotUrl('https://bot.example.com/', production(answering('10.0.0.5'))));
    expect(err.message).toBe(
      'bot.example.com resolves to 10.0.0.5, a private address; production bots must be reachable at a public address',
    );
    const mapped = await rejection(checkBotUrl('https://bot.example.com/', production(answering('::ffff:a9fe:a9fe'))));
    expect(mapped.message).toBe(
      'bot.example.com resolves to ::ffff:a9fe:a9fe (IPv4-mapped 169.254.169.254), a link-local address; production bots must be reachable at a public address',
    );
  });

  it('rejects a host that answers public first and loopback second', async () => {
    const resolve = answering('93.184.216.34', '127.0.0.1');
    const err = await rejection(checkBotUrl('https://bot.example.com/', production(resolve)));
    expect(err.detail).toEqual({ address: '127.0.0.1', range: 'loopback' });
    expect(err.message).toContain('93.184.216.34, 127.0.0.1');
    expect(err.message).toContain('127.0.0.1 is a loopback address');
    expect(resolve.asked).toHaveLength(1);
  });

  it.each([
    [['127.0.0.1', '93.184.216.34'], '127.0.0.1'],
    [['2606:4700:4700::1111', 'fd00::1'], 'fd00::1'],
    [['93.184.216.34', '2606:4700:4700::1111', '::ffff:10.1.2.3'], '::ffff:10.1.2.3'],
    [['8.8.8.8', '64:ff9b::7f00:1'], '64:ff9b::7f00:1'],
  ])('rejects the whole host when one of %j is bad', async (addresses, bad) => {
    const err = await rejection(checkBotUrl('wss://bot.example.com/', production(answering(...addresses))));
    expect(err.detail?.address).toBe(bad);
  });

  it('passes a host whose addresses are all public and returns the first', async () => {
    const v4first = await checkBotUrl(
      'https://bot.example.com/',
      production(answering('93.184.216.34', '2606:4700:4700::1111', '8.8.8.8')),
    );
    expect(v4first).toMatchObject({ address: '93.184.216.34', family: 4 });
    const v6first = await checkBotUrl(
      'https://bot.example.com/',
      production(answering('2606:4700:4700::1111', '93.184.216.34')),
    );
    expect(v6first).toMatchObject({ address: '2606:4700:4700::1111', family: 6 });
    expect(v6first.url.href).toBe('https://bot.example.com/');
  });

  it('resolves once per check, so a rebinding name is caught on the next check, never between check and connect', async () => {
    let calls = 0;
    const rebinding: Resolver = async () =>
      calls++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    const gate = addressGate(production(rebinding));
    const first = await gate('https://bot.example.com/');
    expect(first).toEqual({ address: '93.184.216.34', family: 4 });
    expect(calls).toBe(1);
    // What the connection uses keeps answering the checked address, whatever DNS says now.
    expect(await lookupOnce(pinnedLookup(first), 'bot.example.com', {})).toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    expect(calls).toBe(1);
    const err = await rejection(gate('https://bot.example.com/'));
    expect(err.detail).toEqual({ address: '127.0.0.1', range: 'loopback' });
  });

  it('rejects a host that resolves to nothing', async () => {
    const err = await rejection(checkBotUrl('https://bot.example.com/', production(answering())));
    expect(err.reason).toBe('no_address');
    expect(err.message).toBe('bot.example.com resolves to no address');
  });

  it('rejects when the resolver fails, with its error code', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND bot.example.com'), { code: 'ENOTFOUND' });
    };
    const err = await rejection(checkBotUrl('https://bot.example.com/', production(failing)));
    expect(err.reason).toBe('resolve_failed');
    expect(err.message).toBe('bot.example.com could not be resolved (ENOTFOUND)');
    const throwingSync = (() => {
      throw new Error('boom');
    }) as unknown as Resolver;
    expect((await rejection(checkBotUrl('https://bot.example.com/', production(throwingSync)))).reason).toBe(
      'resolve_failed',
    );
    const notAList = (async () => 'nope') as unknown as Resolver;
    expect((await rejection(checkBotUrl('https://bot.example.com/', production(notAList)))).reason).toBe(
      'resolve_failed',
    );
  });

  it('rejects when the resolver does not answer in time', async () => {
    const never: Resolver = () => new Promise(() => {});
    const err = await rejection(
      checkBotUrl('https://bot.example.com/', { production: true, resolve: never, resolveTimeoutMs: 20 }),
    );
    expect(err.reason).toBe('resolve_timeout');
    expect(err.message).toBe('bot.example.com did not resolve within 20 ms');
  });

  it.each(['127.1', 'localhost', 'not-an-ip', '10.0.0.5 '])(
    'refuses a resolver answer that is not an IP address: %j',
    async (address) => {
      for (const policy of [production(answering(address)), development(answering(address))]) {
        const err = await rejection(checkBotUrl('https://bot.example.com/', policy));
        expect(err.detail).toEqual({ address, range: 'invalid' });
      }
    },
  );

  it('hands the resolver the URL host in its ASCII form', async () => {
    const resolve = answering('93.184.216.34');
    await checkBotUrl('https://BÜCHER.example:8443/x?y=1', production(resolve));
    await checkBotUrl('wss://bot.example.com./', production(resolve));
    expect(resolve.asked).toEqual(['xn--bcher-kva.example', 'bot.example.com.']);
  });
});

describe('checkBotUrl: IP literals (checked without DNS)', () => {
  const v4 = ADDRESSES.filter(([a]) => !a.includes(':'));
  const v6 = ADDRESSES.filter(([a]) => a.includes(':'));

  it.each([...v4.map(([a, r]) => [a, r, a]), ...v6.map(([a, r]) => [`[${a}]`, r, a])])(
    'https://%s/ is %s',
    async (host, range, address) => {
      const check = checkBotUrl(`https://${host}/`, production(mustNotResolve));
      if (range === 'unicast') {
        // As WHATWG writes it; a mapped address is pinned as its IPv4.
        const canonical = new URL(`https://${host}/`).hostname.replace(/^\[|\]$/g, '');
        const pinned = (address as string).startsWith('::ffff:')
          ? (address as string).slice('::ffff:'.length)
          : canonical;
        await expect(check).resolves.toMatchObject({ address: pinned, family: family(pinned) });
      } else {
        const err = await rejection(check);
        expect(err.reason).toBe('address_not_allowed');
        expect(err.detail?.range).toBe(range);
        expect(err.message).toMatch(/is .*; production bots must be reachable at a public address$/);
      }
    },
  );

  // WHATWG URL normalises these before we see them; the check must see through every one.
  it.each([
    ['0x7f.1', '127.0.0.1', 'loopback'],
    ['2130706433', '127.0.0.1', 'loopback'],
    ['127.1', '127.0.0.1', 'loopback'],
    ['0177.0.0.1', '127.0.0.1', 'loopback'],
    ['0x7f000001', '127.0.0.1', 'loopback'],
    ['0', '0.0.0.0', 'unspecified'],
    ['10.1', '10.0.0.1', 'private'],
    ['3232235777', '192.168.1.1', 'private'],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254', 'linkLocal'],
    ['0x64.0x40.0.1', '100.64.0.1', 'carrierGradeNat'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1', 'loopback'],
    ['[0:0:0:0:0:ffff:7f00:1]', '::ffff:7f00:1', 'loopback'],
    ['[::127.0.0.1]', '::7f00:1', 'loopback'],
    ['[64:ff9b::127.0.0.1]', '64:ff9b::7f00:1', 'loopback'],
    ['[::ffff:0a00:0005]', '::ffff:a00:5', 'private'],
    ['[0::1]', '::1', 'loopback'],
    ['[::]', '::', 'unspecified'],
    ['[FE80::1]', 'fe80::1', 'linkLocal'],
  ])('https://%s/ is %s (%s)', async (host, address, range) => {
    const err = await rejection(checkBotUrl(`https://${host}:8443/`, production(mustNotResolve)));
    expect(err.detail).toEqual({ address, range });
    expect(err.message).toContain(`${address}`);
  });

  it('accepts a public literal and a loopback literal in development, pinning the literal', async () => {
    await expect(checkBotUrl('https://93.184.216.34/', production(mustNotResolve))).resolves.toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
    await expect(checkBotUrl('http://127.1:9000/', development(mustNotResolve))).resolves.toMatchObject({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(checkBotUrl('ws://[::1]:9000/', development(mustNotResolve))).resolves.toMatchObject({
      address: '::1',
      family: 6,
    });
    await expect(checkBotUrl('ws://[::ffff:127.0.0.1]:9000/', development(mustNotResolve))).resolves.toMatchObject({
      address: '127.0.0.1',
      family: 4,
    });
  });
});

describe('checkBotUrl: the URL itself', () => {
  const both: [string, AddressPolicy][] = [
    ['production', production(mustNotResolve)],
    ['development', development(mustNotResolve)],
  ];

  it.each([
    ['https://alice:hunter2@bot.example.com/', 'credentials_in_url'],
    ['https://alice@bot.example.com/', 'credentials_in_url'],
    ['wss://:hunter2@bot.example.com/', 'credentials_in_url'],
    ['http://alice:hunter2@127.0.0.1:9000/', 'credentials_in_url'],
    ['https://bot.example.com/#top', 'fragment_in_url'],
    ['https://bot.example.com/#', 'fragment_in_url'],
    ['https://bot.example.com:0/', 'invalid_port'],
    ['ftp://bot.example.com/', 'unsupported_scheme'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['gopher://127.0.0.1:6379/_', 'unsupported_scheme'],
    ['bot.example.com', 'invalid_url'],
    ['/relative/path', 'invalid_url'],
    ['https://', 'invalid_url'],
    ['https://bot.example.com:99999/', 'invalid_url'],
    [' https://bot.example.com/', 'invalid_url'],
    ['https://bot.example.com/\n', 'invalid_url'],
    ['https://bot.exa\tmple.com/', 'invalid_url'],
    [`https://bot.example.com/${'a'.repeat(MAX_URL_LENGTH)}`, 'url_too_long'],
    [`https://bot.example.com/${'é'.repeat(700)}`, 'url_too_long'],
  ])('%s is refused (%s) in both modes, before any lookup', async (url, reason) => {
    for (const [, policy] of both) {
      const err = await rejection(checkBotUrl(url, policy));
      expect(err.reason).toBe(reason);
      expect(err.message.length).toBeGreaterThan(10);
      // Messages never repeat a path, query or secret from the URL.
      expect(err.message).not.toContain('hunter2');
      expect(err.message).not.toContain('alice');
      expect(err.message).not.toContain('aaaa');
    }
  });

  it.each(['http://bot.example.com/', 'ws://bot.example.com/'])(
    'production refuses %s before any lookup',
    async (url) => {
      const err = await rejection(checkBotUrl(url, production(mustNotResolve)));
      expect(err.reason).toBe('https_required');
      expect(err.message).toMatch(/^production bots must use https or wss, not (http|ws)$/);
    },
  );

  it.each([
    'http://bot.example.com/',
    'ws://bot.example.com:9000/play',
    'https://bot.example.com/',
    'wss://bot.example.com/',
  ])('development allows %s', async (url) => {
    await expect(checkBotUrl(url, development(answering('127.0.0.1')))).resolves.toMatchObject({
      address: '127.0.0.1',
      family: 4,
    });
  });

  it('accepts a URL at the length limit and keeps path and query', async () => {
    const base = 'https://bot.example.com/';
    const url = `${base}${'a'.repeat(MAX_URL_LENGTH - base.length - 4)}?k=v`;
    expect(url).toHaveLength(MAX_URL_LENGTH);
    const ok = await checkBotUrl(url, production(answering('93.184.216.34')));
    expect(ok.url.search).toBe('?k=v');
  });
});

describe('addressGate', () => {
  it('returns only the checked address, and throws UrlRejected for a refused URL', async () => {
    const gate = addressGate(production(answering('2606:4700:4700::1111')));
    expect(await gate('wss://bot.example.com/')).toEqual({ address: '2606:4700:4700::1111', family: 6 });
    const err = await rejection(gate('http://bot.example.com/'));
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('url_rejected');
    expect(err.name).toBe('UrlRejected');
  });
});

describe('systemResolver', () => {
  // Literals only: getaddrinfo answers them without sending a query.
  it('answers an IP literal with itself', async () => {
    expect(await systemResolver('127.0.0.1')).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await systemResolver('::1')).toEqual([{ address: '::1', family: 6 }]);
  });
});

type Answer = { address: string | LookupAddress[]; family?: number };

function lookupOnce(lookup: LookupFunction, hostname: string, options: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    lookup(hostname, options, (err, address, fam) => (err ? reject(err) : resolve({ address, family: fam })));
  });
}

describe('pinnedLookup', () => {
  const pinned = { address: '203.0.113.7', family: 4 as const };

  it.each(['bot.example.com', 'localhost', 'other.invalid'])(
    'answers the pinned address for %s, in both callback forms',
    async (hostname) => {
      const lookup = pinnedLookup(pinned);
      expect(await lookupOnce(lookup, hostname, {})).toEqual({ address: '203.0.113.7', family: 4 });
      expect(await lookupOnce(lookup, hostname, { all: false, family: 0 })).toEqual({
        address: '203.0.113.7',
        family: 4,
      });
      expect(await lookupOnce(lookup, hostname, { all: true })).toEqual({
        address: [{ address: '203.0.113.7', family: 4 }],
        family: undefined,
      });
      // A family hint does not move the connection elsewhere.
      expect(await lookupOnce(lookup, hostname, { family: 6 })).toEqual({ address: '203.0.113.7', family: 4 });
    },
  );

  it('answers IPv6 too, and accepts the two-argument form', async () => {
    const lookup = pinnedLookup({ address: '2001:db8::7', family: 6 }) as unknown as (
      h: string,
      cb: (e: unknown, a: string, f: number) => void,
    ) => void;
    const answer = await new Promise((resolve) =>
      lookup('bot.example.com', (_e, address, fam) => resolve({ address, family: fam })),
    );
    expect(answer).toEqual({ address: '2001:db8::7', family: 6 });
  });

  it('calls back asynchronously, as node resolvers do', async () => {
    let called = false;
    const done = new Promise<void>((resolve) => {
      pinnedLookup(pinned)('bot.example.com', {}, () => {
        called = true;
        resolve();
      });
    });
    expect(called).toBe(false);
    await done;
    expect(called).toBe(true);
  });
});

describe('pinnedLookup end to end (local servers only)', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  async function pongServer(host: string): Promise<{ port: number; hosts: string[] }> {
    const hosts: string[] = [];
    const server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      if (req.url === '/ping') res.end('pong');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, resolve);
    });
    servers.push(server);
    return { port: (server.address() as AddressInfo).port, hosts };
  }

  function fetchText(url: string, options: { lookup: LookupFunction; autoSelectFamily?: boolean }): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = get(url, { ...options, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(body));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  }

  // `.invalid` never resolves (RFC 6761): reaching the server proves no DNS was used.
  it.each([true, false])(
    'http.get to bot.invalid reaches 127.0.0.1 (autoSelectFamily %s)',
    async (autoSelectFamily) => {
      const { port, hosts } = await pongServer('127.0.0.1');
      const body = await fetchText(`http://bot.invalid:${port}/ping`, {
        lookup: pinnedLookup({ address: '127.0.0.1', family: 4 }),
        autoSelectFamily,
      });
      expect(body).toBe('pong');
      // The request still names the URL's host.
      expect(hosts).toEqual([`bot.invalid:${port}`]);
    },
  );

  it('check then connect: the address the check returned is the one reached', async () => {
    const { port } = await pongServer('127.0.0.1');
    const resolve = answering('127.0.0.1');
    const checked = await checkBotUrl(`http://bot.invalid:${port}/`, development(resolve));
    expect(await fetchText(`http://bot.invalid:${port}/ping`, { lookup: pinnedLookup(checked) })).toBe('pong');
    expect(resolve.asked).toEqual(['bot.invalid']);
  });

  it('works for IPv6 (::1) when the machine has it', async (ctx) => {
    let server: { port: number };
    try {
      server = await pongServer('::1');
    } catch {
      ctx.skip();
      return;
    }
    expect(
      await fetchText(`http://bot.invalid:${server.port}/ping`, {
        lookup: pinnedLookup({ address: '::1', family: 6 }),
      }),
    ).toBe('pong');
  });

  it('a ws WebSocket to ws://bot.invalid opens on the pinned 127.0.0.1', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => wss.once('listening', r));
    const { port } = wss.address() as AddressInfo;
    try {
      const received = new Promise<string>((resolve) =>
        wss.once('connection', (s) => s.once('message', (m) => resolve(String(m)))),
      );
      const socket = new WebSocket(`ws://bot.invalid:${port}/`, {
        lookup: pinnedLookup({ address: '127.0.0.1', family: 4 }),
      } as WebSocket.ClientOptions);
      await new Promise<void>((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.send('hello');
      expect(await received).toBe('hello');
      socket.close();
      await new Promise((r) => socket.once('close', r));
    } finally {
      for (const c of wss.clients) c.terminate();
      await new Promise((r) => wss.close(r));
    }
  });
});
