// The live client (src/client/live.ts) against a real service through a TCP
// proxy the test can cut: after a drop it reconnects with Last-Event-ID and
// hands on every event exactly once, also when the match ends while it is
// disconnected; a 404 and a server that is not an arena end it clearly.
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_RECENT_EVENTS } from '../../src/service/live/hub';
import { followLive, LiveStreamError, type LiveConnection } from '../../src/client/live';
import type { LiveMessage } from '../../src/protocol/live';
import { wellBehaved } from '../support/policies';
import { startArena, type Arena } from '../support/serve-arena';

interface Proxy {
  url: string;
  /** Destroys every open connection, as a network drop would. */
  cut(): void;
  /** While blocked, new connections are closed at once. */
  blocked: boolean;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<Proxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const proxy: Proxy = {
    url: '',
    blocked: false,
    cut: () => {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    close: () =>
      new Promise<void>((r) => {
        proxy.cut();
        server.close(() => r());
      }),
  };
  const server: Server = createServer((client) => {
    if (proxy.blocked) return void client.destroy();
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

let arena: Arena;
let proxy: Proxy;

beforeAll(async () => {
  arena = await startArena([wellBehaved(), wellBehaved(), wellBehaved(), wellBehaved()]);
  proxy = await startProxy(arena.url);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await arena?.close();
});

describe('following a match live', () => {
  it('survives a drop mid-match and a drop across the end: every event once, in order, resumed from Last-Event-ID', async () => {
    const [id] = await arena.tick();
    const messages: LiveMessage[] = [];
    const connections: LiveConnection[] = [];
    const sentIds: Array<string | null> = [];
    const seqAtDrop: number[] = [];
    let lastSeq = -1;
    let events = 0;
    let ended: Promise<void> | null = null;
    const end = await followLive({
      baseUrl: proxy.url,
      matchId: id,
      retryMs: 20,
      maxRetryMs: 100,
      fetch: (url, init) => {
        sentIds.push(new Headers(init?.headers).get('last-event-id'));
        return fetch(url, init);
      },
      onConnection: (c) => {
        connections.push(c);
        if (
          c.state === 'reconnecting' &&
          seqAtDrop.length < connections.filter((x) => x.state === 'reconnecting').length
        )
          seqAtDrop.push(lastSeq);
      },
      onMessage: (m) => {
        messages.push(m);
        if (m.type === 'snapshot') lastSeq = m.data.seq;
        if (m.type !== 'event') return;
        lastSeq = m.data.seq;
        events++;
        // A drop while the match runs: the next attempt goes straight through.
        if (events === 60) proxy.cut();
        // A drop, then nothing gets through until the match has ended.
        if (events === 200) {
          proxy.blocked = true;
          proxy.cut();
          ended = arena.idle().then(() => void (proxy.blocked = false));
        }
      },
    });
    await ended;
    expect(end.status).toBe('completed');
    const record = (await (await fetch(`${arena.url}/matches/${id}`)).json()) as { replay: unknown[] };
    const snap = messages[0].type === 'snapshot' ? messages[0].data : null;
    const seqs = [
      ...snap!.recent.map((e) => e.seq),
      ...messages.flatMap((m) => (m.type === 'event' ? [m.data.seq] : [])),
    ];
    // Joining after the match began, the snapshot's recent window starts later; from there every event once, in order.
    const first = Math.max(0, snap!.seq - (SNAPSHOT_RECENT_EVENTS - 1));
    expect(seqs).toEqual(record.replay.slice(first).map((_, i) => first + i));
    expect(messages.filter((m) => m.type === 'snapshot')).toHaveLength(1);
    expect(messages.at(-1)!.type).toBe('end');
    // Each reconnect asked for what came after the last event it had.
    expect(seqAtDrop.length).toBeGreaterThanOrEqual(2);
    const resumes = sentIds.filter((x) => x !== null).map(Number);
    expect(sentIds[0]).toBeNull();
    for (const seq of seqAtDrop) expect(resumes).toContain(seq);
    expect(connections.some((c) => c.state === 'reconnecting')).toBe(true);
  }, 120_000);

  it('a match the server does not know ends with not_found; a server that is not an arena with not_a_stream', async () => {
    const err = await followLive({ baseUrl: arena.url, matchId: 'm_nosuchmatch', onMessage: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LiveStreamError);
    expect((err as LiveStreamError).code).toBe('not_found');
    expect((err as LiveStreamError).message).toMatch(/no match m_nosuchmatch/);

    const plain = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      const e2 = await followLive({ baseUrl: url, matchId: 'm_x', onMessage: () => {} }).catch((e: unknown) => e);
      expect((e2 as LiveStreamError).code).toBe('not_a_stream');
    } finally {
      await new Promise<void>((r) => plain.close(() => r()));
    }
  });

  it('a stream whose event never ends (no line break, ever) is refused with bad_message once it passes the limit, not read into memory', async () => {
    let sent = 0;
    const endless = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: event\ndata: ');
      const chunk = 'x'.repeat(64 * 1024);
      const more = () => {
        while (!res.destroyed && sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed && sent < 64 * 1024 * 1024) res.once('drain', more);
      };
      more();
    });
    await new Promise<void>((r) => endless.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`;
      const err = await followLive({ baseUrl: url, matchId: 'm_x', onMessage: () => {} }).catch((e: unknown) => e);
      expect((err as LiveStreamError).code).toBe('bad_message');
      expect((err as LiveStreamError).message).toMatch(
        /sent an event over 1048576 characters; is the URL an arena server\?/,
      );
      expect(sent).toBeLessThan(16 * 1024 * 1024); // it stopped reading soon after the limit
    } finally {
      endless.closeAllConnections();
      await new Promise<void>((r) => endless.close(() => r()));
    }
  });

  it('gives up after maxAttempts when nothing answers, saying why', async () => {
    proxy.blocked = true;
    proxy.cut(); // kept-alive connections too
    try {
      const err = await followLive({
        baseUrl: proxy.url,
        matchId: 'm_any',
        retryMs: 5,
        maxAttempts: 3,
        onMessage: () => {},
      }).catch((e: unknown) => e);
      expect((err as LiveStreamError).code).toBe('gave_up');
      expect((err as Error).message).toMatch(/after 3 failed attempts/);
    } finally {
      proxy.blocked = false;
    }
  });
});
