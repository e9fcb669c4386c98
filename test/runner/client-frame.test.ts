// The runner's own client framing (src/runner/client-frame.ts), checked by a
// real ws server on 127.0.0.1: it refuses unmasked frames, bad lengths and
// invalid UTF-8, so every text arriving intact means the frames were right.
import { afterEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import WebSocket, { WebSocketServer } from 'ws';
import { generateKeyPair } from '../../src/keys';
import { maskedTextFrame, sendText } from '../../src/runner/client-frame';
import { openBotSocket } from '../../src/runner/connect';

const { privateKey } = generateKeyPair();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A ws server that keeps every message it gets, and how its connections ended. */
async function startServer() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: 1 << 20 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const got: Array<{ text: string; binary: boolean }> = [];
  const closes: number[] = [];
  let arrived: () => void = () => {};
  wss.on('connection', (ws) => {
    ws.on('message', (data: Buffer, binary: boolean) => {
      got.push({ text: data.toString('utf8'), binary });
      arrived();
    });
    ws.on('close', (code) => {
      closes.push(code);
      arrived();
    });
  });
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  closers.push(
    () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  );
  /**
   * Resolves once `n` messages have arrived in all; fails at once if a connection closed first (ws closes on a framing
   * fault).
   */
  const received = (n: number) =>
    new Promise<void>((resolve, reject) => {
      arrived = () => {
        if (got.length >= n) resolve();
        else if (closes.length > 0)
          reject(new Error(`connection closed (${closes.join(', ')}) after ${got.length} of ${n} messages`));
      };
      arrived();
    });
  return { url, got, closes, received };
}

async function open(url: string): Promise<WebSocket> {
  const r = await openBotSocket({
    url,
    matchId: 'm-frames',
    platformKey: privateKey,
    maxPayload: 1 << 20,
    handshakeTimeoutMs: 5000,
  });
  if (!r.ok) throw new Error(r.failure.message);
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if (r.socket.readyState === WebSocket.CLOSED) return resolve();
        r.socket.once('close', () => resolve());
        r.socket.terminate();
      }),
  );
  return r.socket;
}

/**
 * `text` as UTF-8 in a Buffer starting `offset` bytes into its memory (unaligned starts take the byte-by-byte path).
 */
function bufferAt(text: string, offset: number): Buffer {
  const bytes = Buffer.from(text);
  const host = Buffer.alloc(offset + bytes.length);
  bytes.copy(host, offset);
  return host.subarray(offset);
}

describe('client frames', () => {
  it('a ws server reads every length form and alignment as the text that was sent', async () => {
    const server = await startServer();
    const ws = await open(server.url);
    // Around each length form's edges (7-bit, 16-bit, 64-bit lengths), and lengths that leave 1-3 bytes after the last
    // word.
    const lengths = [0, 1, 2, 3, 5, 125, 126, 127, 128, 1021, 2318, 65535, 65536, 70001];
    const texts = lengths.map((n, i) =>
      JSON.stringify({ id: i, pad: 'abcdefghijklmnopqrstuvwxyz'.repeat(Math.ceil(n / 26)) }).slice(0, Math.max(n, 0)),
    );
    const sent: string[] = [];
    for (const [i, t] of texts.entries()) {
      sendText(ws, bufferAt(t, i % 4));
      sent.push(t);
    }
    // Strings, and text beyond ASCII: the length is in bytes, the mask runs over bytes.
    for (const t of ['{"talk":"héllo wörld"}', '{"talk":"名前と😀絵文字"}', 'x'.repeat(4099)]) {
      sendText(ws, t);
      sent.push(t);
    }
    await server.received(sent.length);
    expect(server.got.map((m) => m.text)).toEqual(sent);
    expect(server.got.every((m) => !m.binary)).toBe(true);
    // Nothing the server objected to: it closes a socket on any framing fault.
    expect(server.closes).toEqual([]);
  });

  it('masks every frame with a fresh key', () => {
    const payload = Buffer.from(JSON.stringify({ pad: 'x'.repeat(300) }));
    const keys = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const f = maskedTextFrame(payload);
      expect(f[0]).toBe(0x81); // FIN, text
      expect(f[1]).toBe(0x80 | 126); // masked, 16-bit length
      expect(f.readUInt16BE(2)).toBe(payload.length);
      const key = f.subarray(4, 8);
      keys.add(key.toString('hex'));
      const body = f.subarray(8);
      expect(Buffer.from(body.map((b, j) => b ^ key[j & 3]))).toEqual(payload);
    }
    // 200 frames, 200 keys (two equal 32-bit random keys in 200 draws: about 5 in a million).
    expect(keys.size).toBe(200);
  });

  it('leaves the payload as it was (the seat may resend it)', () => {
    const payload = Buffer.from('{"id":1,"view":{}}'.repeat(20));
    const copy = Buffer.from(payload);
    maskedTextFrame(payload);
    expect(payload).toEqual(copy);
  });

  it('writes nothing once the socket is closing, and does not throw', async () => {
    const server = await startServer();
    const ws = await open(server.url);
    sendText(ws, '{"before":true}');
    await server.received(1);
    const closed = new Promise<void>((r) => ws.once('close', () => r()));
    ws.close(1000);
    expect(() => sendText(ws, '{"after":true}')).not.toThrow();
    await closed;
    expect(server.got.map((m) => m.text)).toEqual(['{"before":true}']);
    expect(server.closes).toEqual([1000]);
  });

  it('a socket the runner did not open goes through ws', async () => {
    const server = await startServer();
    const ws = new WebSocket(server.url, { perMessageDeflate: false });
    closers.push(
      () =>
        new Promise<void>((r) => {
          ws.once('close', () => r());
          ws.terminate();
        }),
    );
    await new Promise((r) => ws.once('open', r));
    sendText(ws, '{"plain":true}');
    await server.received(1);
    expect(server.got).toEqual([{ text: '{"plain":true}', binary: false }]);
  });

  it('works the same over TLS (a wss bot, the production case)', async () => {
    const child = fileURLToPath(new URL('./client-frame-tls-child.ts', import.meta.url));
    const cert = fileURLToPath(new URL('../fixtures/tls/cert.pem', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: cert },
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual({ same: true, lengths: [8, 2310, 60011] });
  });
});
