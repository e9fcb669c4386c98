// Connection caps of `arena serve` (issue 27, item 1): a flood of slow
// clients (a request's headers sent one line at a time, never finished)
// from a few loopback addresses, against a real service with small caps and
// short timeouts. While it lasts, /health and a signed request answer, the
// running match's bots keep deciding and a live stream keeps flowing; past
// a cap a connection is answered 429 at once; the slow ones are closed.
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, publicKeyRaw, signRequest } from '../../../src/keys/index';
import { defaultConnectionLimits } from '../../../src/service/http/connection-limit';
import { wellBehaved } from '../../support/policies';
import type { Behaviour } from '../../support/test-bot';
import { startArena, type Arena } from '../../support/serve-arena';

const LIMITS = { maxConnections: 60, maxConnectionsPerAddress: 20, maxLiveStreams: 4 };
const HEADERS_MS = 1500;

let arena: Arena;
let port: number;
let sign: () => Record<string, string>;
let matchId: string;

/** Answers legally after 40 ms: the match (some 400 decisions) lasts the whole file. */
function slowPlayer(): Behaviour {
  const play = wellBehaved();
  return (ctx) => void setTimeout(() => play(ctx), 40);
}

beforeAll(async () => {
  arena = await startArena([slowPlayer(), slowPlayer(), slowPlayer(), slowPlayer()], {
    connectionLimits: LIMITS,
    timeouts: { headersMs: HEADERS_MS, requestMs: 3000, checkEveryMs: 200 },
  });
  port = Number(new URL(arena.url).port);
  const user = await arena.store.createUser({ email: 'flooded@example.com', name: 'flooded' });
  const pair = generateKeyPair();
  const key = await arena.store.addKey({
    userId: user.id,
    name: 'k',
    publicKey: Buffer.from(publicKeyRaw(pair.privateKey)).toString('base64'),
    scopes: ['account.read'],
  });
  sign = () => signRequest(pair.privateKey, key.id, { method: 'GET', path: '/me' });
  [matchId] = await arena.tick();
});
afterAll(() => arena?.close());

interface Slow {
  socket: Socket;
  /** What the server sent (a 429 when refused). */
  got: string;
  closedAt: number | null;
}

/** `count` connections from `from` that send a request's headers one line every 300 ms, never ending them. */
async function slowClients(from: string, count: number, opts: { ignoreEnd?: boolean } = {}): Promise<Slow[]> {
  const out = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Slow>((resolve) => {
          // ignoreEnd: a hostile client, which keeps its side open and sending after the server's end.
          const socket = connect({
            host: '127.0.0.1',
            port,
            localAddress: from,
            allowHalfOpen: opts.ignoreEnd === true,
          });
          const slow: Slow = { socket, got: '', closedAt: null };
          const drip = setInterval(
            () => socket.writable && socket.write(`X-Slow-${Math.random().toString(36).slice(2)}: 1\r\n`),
            300,
          );
          socket.on('data', (d) => (slow.got += d));
          socket.on('error', () => {});
          socket.on('close', () => {
            clearInterval(drip);
            slow.closedAt = performance.now();
          });
          socket.on('connect', () => {
            socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
            resolve(slow);
          });
        }),
    ),
  );
  // The server has taken or refused each by now.
  await new Promise((r) => setTimeout(r, 200));
  return out;
}

const refused = (all: Slow[]) => all.filter((s) => s.got.startsWith('HTTP/1.1 429 '));
const open = (all: Slow[]) => all.filter((s) => s.closedAt === null);

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Milliseconds a fresh connection takes to get an answer to GET path (undici: a new socket each). */
async function timed(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; ms: number; text: string }> {
  const t0 = performance.now();
  const res = await request(`${arena.url}${path}`, { headers: { ...headers, connection: 'close' }, reset: true });
  const text = await res.body.text();
  return { status: res.statusCode, ms: performance.now() - t0, text };
}

function decisions(): number {
  return arena.bots.reduce((n, b) => n + b.server.frames.length, 0);
}

describe('a flood of slow clients', () => {
  let streamed = 0;
  let stream: Awaited<ReturnType<typeof request>> | null = null;

  beforeAll(async () => {
    stream = await request(`${arena.url}/matches/${matchId}/live`);
    expect(stream.statusCode).toBe(200);
    void (async () => {
      for await (const chunk of stream!.body) streamed += (chunk as Buffer).length;
    })().catch(() => {});
    await until('the match decides', () => decisions() > 5, 5000);
  });
  afterAll(() => stream?.body.destroy());

  it('from two addresses: each keeps its cap, the rest is refused at once; the service answers, the match plays on, the slow ones are closed', async () => {
    const flood = [...(await slowClients('127.0.0.2', 100)), ...(await slowClients('127.0.0.3', 100))];
    // 20 of each address's 100 are held, the other 80 answered 429 and closed.
    expect(refused(flood)).toHaveLength(160);
    expect(refused(flood)[0].got).toMatch(
      /\r\nRetry-After: 1\r\n[\s\S]*"code":"rate_limited".*--max-connections-per-address/,
    );
    expect(open(flood)).toHaveLength(40);
    const [decided, flowed] = [decisions(), streamed];
    const health = await timed('/health');
    expect(health.status).toBe(200);
    expect(health.ms).toBeLessThan(1000);
    const me = await timed('/me', sign());
    expect(me.status, me.text).toBe(200);
    expect(me.ms).toBeLessThan(1000);
    await until(
      'the match keeps deciding and the live stream keeps flowing',
      () => decisions() > decided + 10 && streamed > flowed,
      2000,
    );
    // Headers not done within the headers timeout: closed (Node answers 408).
    await until('the slow connections are closed', () => open(flood).length === 0, HEADERS_MS + 1500);
    expect(
      flood
        .filter((s) => !s.got.startsWith('HTTP/1.1 429 '))
        .every((s) => s.got === '' || s.got.startsWith('HTTP/1.1 408 ')),
    ).toBe(true);
    expect(arena.server.scheduler.runningCount).toBe(1);
  });

  it('from many addresses: past the server-wide cap new connections are refused, the live stream and the match are not touched; then it recovers', async () => {
    const flood: Slow[] = [];
    for (const n of [4, 5, 6, 7]) flood.push(...(await slowClients(`127.0.0.${n}`, 20)));
    // All of it, but for what this process's own keep-alive connections may hold.
    expect(open(flood).length).toBeGreaterThan(LIMITS.maxConnections - 3);
    expect(open(flood).length).toBeLessThanOrEqual(LIMITS.maxConnections);
    const full = await timed('/health').catch((err: Error) => ({ status: 0, ms: 0, text: err.message }));
    expect(full.status).toBe(429);
    expect(full.text).toMatch(/--max-connections\)/);
    const [decided, flowed] = [decisions(), streamed];
    await until(
      'the match keeps deciding and the live stream keeps flowing',
      () => decisions() > decided + 10 && streamed > flowed,
      2000,
    );
    await until('the slow connections are closed', () => open(flood).length === 0, HEADERS_MS + 1500);
    expect((await timed('/health')).status).toBe(200);
    expect(await request(`${arena.url}/metrics`).then((r) => r.body.text())).toMatch(
      /arena_connections_refused_total\{cap="server"\} [1-9]/,
    );
    expect(arena.server.scheduler.runningCount).toBe(1);
  });
});

describe('the caps a server starts with', () => {
  it("come from the open-file limit: what is left after the matches' sockets, halved for requests, a quarter for live streams", () => {
    expect(defaultConnectionLimits(20_000, 100, false)).toEqual({
      maxConnections: 9672,
      maxConnectionsPerAddress: 256,
      maxLiveStreams: 4836,
    });
    expect(defaultConnectionLimits(1024, 100, false)).toEqual({
      maxConnections: 184,
      maxConnectionsPerAddress: 23,
      maxLiveStreams: 92,
    });
    // Never above 10,000 by default; behind a proxy every connection is the proxy's, so one address may hold them all.
    expect(defaultConnectionLimits(1_048_576, 100, true)).toEqual({
      maxConnections: 10_000,
      maxConnectionsPerAddress: 10_000,
      maxLiveStreams: 10_000,
    });
    // A limit too small for the matches still leaves a few.
    expect(defaultConnectionLimits(256, 100, false)).toEqual({
      maxConnections: 32,
      maxConnectionsPerAddress: 8,
      maxLiveStreams: 16,
    });
  });

  it('keep live streams apart: past --max-live-streams a new stream is 429, and the streams leave the request connections alone', async () => {
    expect(arena.server.scheduler.runningCount).toBe(1);
    const streams = [];
    for (let i = 0; i < LIMITS.maxLiveStreams; i++) {
      const res = await request(`${arena.url}/matches/${matchId}/live`);
      expect(res.statusCode).toBe(200);
      streams.push(res);
    }
    const over = await request(`${arena.url}/matches/${matchId}/live`);
    expect(over.statusCode).toBe(429);
    expect(await over.body.text()).toMatch(/--max-live-streams/);
    // A full request budget (one address may hold all of it here) beside the full live one.
    const flood = [
      ...(await slowClients('127.0.0.8', 20)),
      ...(await slowClients('127.0.0.9', 20)),
      ...(await slowClients('127.0.0.10', 20)),
    ];
    // All of it (but what this process's own keep-alive connections hold), whatever the live streams hold.
    expect(open(flood).length).toBeGreaterThan(LIMITS.maxConnections - LIMITS.maxLiveStreams);
    for (const s of flood) s.socket.destroy();
    for (const s of streams) s.body.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const again = await request(`${arena.url}/matches/${matchId}/live`);
    expect(again.statusCode).toBe(200);
    again.body.destroy();
  });
});

describe('a refused client that keeps sending', () => {
  it('is cut off within 2 s of its 429', async () => {
    const held = await slowClients('127.0.0.12', LIMITS.maxConnectionsPerAddress);
    const [hostile] = await slowClients('127.0.0.12', 1, { ignoreEnd: true });
    expect(hostile.got).toMatch(/^HTTP\/1\.1 429 /);
    await until('the hostile client is cut off', () => hostile.closedAt !== null, 3000);
    for (const s of held) s.socket.destroy();
  });
});

describe('stopping', () => {
  it('a client still sending its request does not hold the stop up past the request timeout', async () => {
    const quick = await startArena([], { timeouts: { headersMs: 500, requestMs: 1000, checkEveryMs: 100 } });
    try {
      port = Number(new URL(quick.url).port);
      const [slow] = await slowClients('127.0.0.11', 1);
      const t0 = performance.now();
      await quick.server.close();
      expect(performance.now() - t0).toBeLessThan(2500);
      await until('the slow client is cut off', () => slow.closedAt !== null, 1000);
    } finally {
      await quick.close();
    }
  });
});
