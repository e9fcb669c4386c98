import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import {
  generateKeyPair,
  NonceMemory,
  publicKeyRaw,
  verifyBoundHandshake,
  verifyHandshake,
} from '../../src/keys/index';
import { deployCheck } from '../../src/probe/deploy-check';
import { pingUrl } from '../../src/probe/urls';
import { toWebSocketUrl } from '../../src/runner/ws-url';

const { privateKey } = generateKeyPair();
const servers: Server[] = [];

type Upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

async function serve(
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
  onUpgrade?: Upgrade,
): Promise<string> {
  const server = createServer(onRequest);
  if (onUpgrade) server.on('upgrade', onUpgrade);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const pong = (req: IncomingMessage, res: ServerResponse) => {
  if (req.url === '/ping') res.end('pong');
  else res.writeHead(404).end();
};

function acceptingUpgrade(seen: IncomingMessage[] = []): Upgrade {
  const wss = new WebSocketServer({ noServer: true });
  return (req, socket, head) => {
    seen.push(req);
    wss.handleUpgrade(req, socket, head, () => {});
  };
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('deployCheck', () => {
  it('passes a bot that answers pong and accepts a handshake signed for deploy-check', async () => {
    const seen: IncomingMessage[] = [];
    const url = await serve(pong, acceptingUpgrade(seen));
    const r = await deployCheck(url, { platformKey: privateKey });
    expect(r.ok).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0].headers['x-svc-match']).toBe('deploy-check');
    // The signature is real: it verifies with the platform public key.
    expect(verifyHandshake(publicKeyRaw(privateKey), seen[0].headers)).toEqual({ ok: true, matchId: 'deploy-check' });
    // And it is bound to the URL checked, so the bot's owner cannot replay it to another bot.
    expect(verifyBoundHandshake(publicKeyRaw(privateKey), seen[0].headers, url, new NonceMemory())).toEqual({
      ok: true,
      matchId: 'deploy-check',
    });
  });

  it('fails a server with no /ping, naming the URL and the status', async () => {
    const url = await serve((_req, res) => res.writeHead(404).end('nope'), acceptingUpgrade());
    const r = await deployCheck(url, { platformKey: privateKey });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure).toMatchObject({ step: 'ping', code: 'http_status', status: 404 });
    expect(r.failure.message).toContain(`${url}/ping`);
    expect(r.failure.message).toContain('404');
  });

  it('fails a wrong ping body and quotes it', async () => {
    const url = await serve((_req, res) => res.end('hello world'), acceptingUpgrade());
    const r = await deployCheck(url, { platformKey: privateKey });
    expect(!r.ok && r.failure).toMatchObject({ code: 'not_pong' });
    expect(!r.ok && r.failure.message).toContain('"hello world"');
  });

  it('fails a bot that refuses the upgrade, with the status', async () => {
    const url = await serve(pong, (_req, socket) =>
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n'),
    );
    const r = await deployCheck(url, { platformKey: privateKey });
    expect(!r.ok && r.failure).toMatchObject({ step: 'upgrade', code: 'upgrade_refused', status: 401 });
    expect(!r.ok && r.failure.message).toMatch(/ws:\/\/127\.0\.0\.1:\d+\/ was refused with HTTP 401/);
  });

  it('fails a plain HTTP server that does not speak WebSocket', async () => {
    const url = await serve(pong);
    const r = await deployCheck(url, { platformKey: privateKey });
    expect(!r.ok && r.failure.step).toBe('upgrade');
  });

  it('says connection refused when nothing listens', async () => {
    const url = await serve(pong);
    await new Promise((r) => servers.pop()!.close(r));
    const r = await deployCheck(url, { platformKey: privateKey });
    expect(!r.ok && r.failure).toMatchObject({ step: 'ping', code: 'connection_refused' });
    expect(!r.ok && r.failure.message).toContain('connection refused');
  });

  it('offers no compression and cuts the socket once upgraded, even from a bot that never answers a Close', async () => {
    const seen: IncomingMessage[] = [];
    let raw: Socket | null = null;
    // Accepts the upgrade by hand and then ignores everything: a Close frame would never be answered.
    const url = await serve(pong, (req, socket) => {
      seen.push(req);
      raw = socket as Socket;
      const accept = createHash('sha1')
        .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`,
      );
      socket.on('data', () => {});
    });
    const r = await deployCheck(url, { platformKey: privateKey });
    expect(r.ok).toBe(true);
    expect(seen[0].headers['sec-websocket-extensions']).toBeUndefined();
    // The check does not linger in a close handshake: the connection ends (FIN) now, not after ws's 30 s close timeout.
    await new Promise<void>((resolve) => {
      if (raw!.readableEnded) resolve();
      else raw!.once('end', () => resolve());
    });
    raw!.destroy();
  });

  it('with a gate, connects both steps to the address it checked (pinned lookup, no DNS)', async () => {
    const seen: IncomingMessage[] = [];
    const pings: string[] = [];
    const url = await serve((req, res) => {
      pings.push(String(req.headers.host));
      pong(req, res);
    }, acceptingUpgrade(seen));
    const port = new URL(url).port;
    const gated: string[] = [];
    // `.invalid` never resolves (RFC 6761): reaching the server proves both steps used the gate's answer.
    const botUrl = `http://bot.invalid:${port}`;
    const r = await deployCheck(botUrl, {
      platformKey: privateKey,
      gate: async (u) => {
        gated.push(u);
        return { address: '127.0.0.1', family: 4 };
      },
    });
    expect(r).toMatchObject({ ok: true });
    expect(gated).toEqual([botUrl]);
    expect(pings).toEqual([`bot.invalid:${port}`]);
    expect(seen.map((q) => q.headers.host)).toEqual([`bot.invalid:${port}`]);
  });

  it('a gate that refuses the URL fails the check before any connection', async () => {
    let connections = 0;
    const url = await serve(pong, acceptingUpgrade());
    servers.at(-1)!.on('connection', () => connections++);
    const r = await deployCheck(url, {
      platformKey: privateKey,
      gate: async () => {
        throw new Error('loopback addresses are not allowed');
      },
    });
    expect(!r.ok && r.failure).toMatchObject({ step: 'url', code: 'url_rejected' });
    expect(!r.ok && r.failure.message).toContain('loopback addresses are not allowed');
    expect(connections).toBe(0);
  });

  it('times out a ping that never answers', async () => {
    const url = await serve(() => {}); // holds every request open
    const r = await deployCheck(url, { platformKey: privateKey, timeoutMs: 200 });
    expect(!r.ok && r.failure).toMatchObject({ step: 'ping', code: 'timeout' });
    expect(!r.ok && r.failure.message).toContain('200 ms');
  });
});

describe('bot URLs', () => {
  it('maps http/ws schemes both ways and appends /ping to the path', () => {
    expect(pingUrl('ws://h:1')).toBe('http://h:1/ping');
    expect(pingUrl('https://h/bot/?x=1')).toBe('https://h/bot/ping');
    expect(toWebSocketUrl('http://h:1/bot#frag')).toBe('ws://h:1/bot');
    expect(toWebSocketUrl('https://h')).toBe('wss://h/');
  });
});
