// The runner's request frames, framed and masked here and written straight to
// the bot's TCP (or TLS) socket. A client must mask every frame it sends
// (RFC 6455 §5.3) with a fresh, unpredictable key; ws does it byte by byte in
// JavaScript on Node 20 (without the optional native addon), which for a 2 KB
// request is up to a tenth of a loopback round trip; here it goes four bytes at a
// time (bench/runner.ts shows both round trips). Everything else on the socket
// (pongs, the Close handshake, reading) stays with ws; a frame is one write,
// so ws's own writes never land inside one of ours.
import { randomFillSync } from 'node:crypto';
import type { Socket } from 'node:net';
import WebSocket from 'ws';

/** Masking keys are drawn from this pool of random bytes, refilled when used up (as ws does). */
const KEY_POOL_KEYS = 2048;
const keyWords = new Int32Array(KEY_POOL_KEYS);
const keyBytes = new Uint8Array(keyWords.buffer);
let nextKey = KEY_POOL_KEYS;

/** The socket under each WebSocket the runner opened (src/runner/connect.ts registers it at the upgrade). */
const rawSockets = new WeakMap<WebSocket, Socket>();

export function adoptRawSocket(ws: WebSocket, raw: Socket): void {
  rawSockets.set(ws, raw);
}

/**
 * Sends `payload` as one text frame. Like ws.send without a callback, it
 * writes nothing once the socket is closing or closed: the 'close' event
 * settles whatever was waiting. A socket opened elsewhere goes through ws.
 */
export function sendText(ws: WebSocket, payload: Buffer | string): void {
  const raw = rawSockets.get(ws);
  if (raw === undefined) ws.send(payload, { binary: false });
  else if (ws.readyState === WebSocket.OPEN)
    raw.write(maskedTextFrame(typeof payload === 'string' ? Buffer.from(payload) : payload));
}

/** A final text frame (FIN, opcode 1) of `payload`, masked with a fresh key. */
export function maskedTextFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 6 : n < 65536 ? 8 : 14;
  // Leading padding puts the payload on a 4-byte boundary (Node's pool hands out 8-byte aligned
  // buffers), so the mask can be applied a word at a time.
  const pad = (4 - (head & 3)) & 3;
  const out = Buffer.allocUnsafe(pad + head + n);
  let p = pad;
  out[p++] = 0x81;
  if (n < 126) out[p++] = 0x80 | n;
  else if (n < 65536) {
    out[p++] = 0x80 | 126;
    out[p++] = n >>> 8;
    out[p++] = n & 0xff;
  } else {
    out[p++] = 0x80 | 127;
    out.writeUInt32BE(Math.floor(n / 0x1_0000_0000), p);
    out.writeUInt32BE(n >>> 0, p + 4);
    p += 8;
  }
  if (nextKey === KEY_POOL_KEYS) {
    randomFillSync(keyWords);
    nextKey = 0;
  }
  const key = nextKey++;
  const k = key * 4;
  out[p] = keyBytes[k];
  out[p + 1] = keyBytes[k + 1];
  out[p + 2] = keyBytes[k + 2];
  out[p + 3] = keyBytes[k + 3];
  p += 4;
  mask(payload, out, p, key);
  return pad === 0 ? out : out.subarray(pad);
}

/** out[at + i] = payload[i] ^ key byte (i mod 4): whole words where both sides are aligned, bytes elsewhere. */
function mask(payload: Buffer, out: Buffer, at: number, key: number): void {
  const n = payload.length;
  const k = key * 4;
  let i = 0;
  if (((payload.byteOffset | (out.byteOffset + at)) & 3) === 0) {
    const words = n >>> 2;
    // The key's bytes in memory order, as a word: XOR of words is XOR of their bytes, whatever the endianness.
    const w = keyWords[key];
    const src = new Int32Array(payload.buffer, payload.byteOffset, words);
    const dst = new Int32Array(out.buffer, out.byteOffset + at, words);
    for (let j = 0; j < words; j++) dst[j] = src[j] ^ w;
    i = words * 4;
  }
  for (; i < n; i++) out[at + i] = payload[i] ^ keyBytes[k + (i & 3)];
}
