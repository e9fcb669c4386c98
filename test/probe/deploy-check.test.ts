import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { generateKeyPair, publicKeyRaw, verifyHandshake } from '../../src/keys/index';
import { deployCheck } from '../../src/probe/deploy-check';
import { pingUrl } from '../../src/probe/urls';
import { toWebSocketUrl } from '../../src/runner/ws-url';

const { privateKey } = generateKeyPair();
const servers: Server[] = [];

type Upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

async function serve(onRequest: (req: IncomingMessage, res: ServerResponse) => void, onUpgrade?: Upgrade): Promise<string> {
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
    const url = await serve(pong, (_req, socket) => socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n'));
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
