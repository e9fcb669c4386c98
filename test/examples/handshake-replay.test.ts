// Issue 27 item 2: a handshake the arena sent to one bot must not open a
// socket at another, nor a second time at the bot it was meant for. The
// starter bots run as their authors run them (a real process, the platform
// key, their own public URL); the arena plays a real match against them; a
// recording bot seated at the same table and a recording proxy in front of
// the starter capture real handshakes, which are then replayed.
import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingHttpHeaders } from 'node:http';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  generateKeyPair,
  publicKeyRaw,
  signBoundHandshake,
  signHandshake,
  verifyHandshake,
} from '../../src/keys/index';
import { runMatch } from '../../src/runner/index';
import { answer, startTestBot, type TestBot } from '../support/test-bot';
import { findPython } from '../support/python';

const root = resolve(__dirname, '../..');
const platform = generateKeyPair().privateKey;
const platformPublic = Buffer.from(publicKeyRaw(platform)).toString('base64');

const python = findPython();

/**
 * A TCP proxy that records the header block of every request through it and
 * forwards the bytes unchanged: a bot behind a reverse proxy, whose public URL
 * is the proxy's. `target` is set once the bot behind it is listening.
 */
interface RecordingProxy {
  url: string;
  target: number;
  seen: Record<string, string>[];
  close(): Promise<void>;
}

async function startProxy(): Promise<RecordingProxy> {
  const sockets = new Set<Socket>();
  const proxy: RecordingProxy = { url: '', target: 0, seen: [], close: async () => {} };
  const server: Server = createServer((client) => {
    sockets.add(client);
    const upstream = createConnection({ host: '127.0.0.1', port: proxy.target });
    sockets.add(upstream);
    let head = '';
    client.on('data', (chunk) => {
      if (!head.includes('\r\n\r\n')) {
        head += chunk.toString('latin1');
        if (head.includes('\r\n\r\n')) proxy.seen.push(parseHead(head));
      }
    });
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((ok) => server.close(ok));
  };
  return proxy;
}

function parseHead(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n\r\n')[0].split('\r\n').slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

/** Only the arena's handshake headers, as an owner would copy them out of a log. */
function handshakeOf(headers: IncomingHttpHeaders | Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([k]) => k.startsWith('x-svc-'))
      .map(([k, v]) => [k, String(v)]),
  );
}

function upgradeStatus(url: string, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((ok) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    ws.on('open', () => {
      ok('open');
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => ok(res.statusCode ?? 0));
    ws.on('error', () => {});
  });
}

/** Starts a bot process and reads its address from its "listening on http://..." line (stdout or stderr). */
function startProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, NODE_OPTIONS: '', ...env } });
  return new Promise((ok, fail) => {
    let out = '';
    const read = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok({ url: m[1], child });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => fail(new Error(`bot exited with ${code}: ${out}`)));
  });
}

async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
}

const starters: {
  name: string;
  skip: boolean;
  launch: (publicUrl: string) => [string, string[], NodeJS.ProcessEnv];
}[] = [
  {
    name: 'examples/starter-bot (TypeScript)',
    skip: false,
    // The public URL from the flag here; the Python one reads it from $BOT_PUBLIC_URL.
    launch: (publicUrl) => [
      process.execPath,
      [
        '--import',
        'tsx',
        'examples/starter-bot/bot.ts',
        '--port',
        '0',
        '--quiet',
        '--platform-key',
        platformPublic,
        '--public-url',
        publicUrl,
      ],
      {},
    ],
  },
  {
    name: 'examples/python-bot',
    // CI installs python3-websockets, so there a missing python is a failure, not a skip.
    skip: !python && !process.env.CI,
    launch: (publicUrl) => [
      python ?? 'python3',
      ['examples/python-bot/bot.py', '--port', '0', '--quiet', '--platform-key', platformPublic],
      { BOT_PUBLIC_URL: publicUrl },
    ],
  },
];

for (const starter of starters) {
  (starter.skip ? describe.skip : describe)(`${starter.name}: audience-bound handshake`, () => {
    let proxy: RecordingProxy;
    let bot: { url: string; child: ChildProcess };
    let recorder: TestBot;

    beforeAll(async () => {
      proxy = await startProxy();
      const [command, args, env] = starter.launch(`${proxy.url}/`);
      bot = await startProcess(command, args, env);
      proxy.target = Number(new URL(bot.url).port);
      // Another owner's bot: it accepts anything, records what it was sent, and answers nothing useful.
      recorder = await startTestBot({ behaviour: (ctx) => answer(ctx, null) });
    }, 30_000);
    afterAll(async () => {
      await stopProcess(bot?.child);
      await proxy?.close();
      await recorder?.close();
    });

    it('accepts the arena in a real match, refuses a handshake captured by another bot (401) and a replay of its own (401)', async () => {
      const result = await runMatch({
        matchId: 'm-replay',
        seed: 'replay/1',
        platformKey: platform,
        entrants: [
          { botId: 'starter', botName: 'starter', source: { type: 'ws', url: proxy.url } },
          { botId: 'recorder', botName: 'recorder', source: { type: 'ws', url: recorder.url } },
          { botId: 'r1', botName: 'r1', source: { type: 'builtin', bot: 'random' } },
        ],
      });
      expect(result.match.status).toBe('completed');
      const seat = result.seats.find((s) => s.botId === 'starter')!;
      // The starter verified and accepted the arena's handshake and played every decision itself.
      expect(seat.connections).toBe(1);
      expect(seat.strikeLog).toEqual([]);
      expect(seat.decisions).toBeGreaterThan(5);

      // The recording bot's owner copies the handshake their bot received.
      const stolen = handshakeOf(recorder.handshakes[0]);
      expect(stolen['x-svc-match']).toBe('m-replay');
      // Today's starter accepted this: the spec's signature alone verifies for any bot.
      expect(verifyHandshake(publicKeyRaw(platform), stolen).ok).toBe(true);
      expect(await upgradeStatus(bot.url, stolen)).toBe(401);
      expect(await upgradeStatus(proxy.url, stolen)).toBe(401);
      // Stripped to the spec's three headers it is refused too: a verifying starter requires the bound form.
      const { 'x-svc-match': m, 'x-svc-timestamp': t, 'x-svc-signature': s } = stolen;
      expect(await upgradeStatus(bot.url, { 'x-svc-match': m, 'x-svc-timestamp': t, 'x-svc-signature': s })).toBe(401);

      // The handshake the starter itself accepted (seen on its proxy), sent again within 30 s: a replay.
      const own = handshakeOf(proxy.seen.find((h) => h.upgrade?.toLowerCase() === 'websocket')!);
      expect(own['x-svc-audience']).toBe(`${proxy.url.replace('http:', 'ws:')}/`);
      expect(Math.abs(Date.now() - Number(own['x-svc-timestamp']))).toBeLessThan(25_000);
      expect(await upgradeStatus(proxy.url, own)).toBe(401);
      // What is refused is the nonce: the same audience, freshly signed, opens.
      expect(await upgradeStatus(proxy.url, signBoundHandshake(platform, 'm-replay', proxy.url))).toBe('open');
      // The public URL comes from the configuration, not from the Host header the sender chose.
      expect(await upgradeStatus(bot.url, signBoundHandshake(platform, 'm-2', bot.url))).toBe(401);
      expect(await upgradeStatus(bot.url, signHandshake(platform, 'm-2'))).toBe(401);
    }, 60_000);
  });
}
