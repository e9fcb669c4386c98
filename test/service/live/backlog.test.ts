// A live viewer that stops reading is dropped once its unsent backlog passes
// the limit, so a stalled client cannot make the server hold an endless
// stream; one that reads keeps getting everything.
import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { writeOrDrop } from '../../../src/service/live/backlog';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

/** A real server whose one response the test writes to; resolves with it once a client asked. */
async function serverWithResponse(): Promise<{ port: number; res: Promise<ServerResponse> }> {
  let got!: (r: ServerResponse) => void;
  const res = new Promise<ServerResponse>((r) => (got = r));
  const server = createServer((_req, r) => {
    r.writeHead(200, { 'content-type': 'text/event-stream' });
    got(r);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => server.close());
  return { port: (server.address() as AddressInfo).port, res };
}

const CHUNK = `event: event\ndata: ${'x'.repeat(16 * 1024)}\n\n`;

describe('live viewer backlog', () => {
  it('a client that never reads is dropped past the limit, and the backlog never grows far beyond it', async () => {
    const { port, res: pending } = await serverWithResponse();
    const client = connect(port, '127.0.0.1');
    cleanup.push(() => client.destroy());
    client.write('GET /live HTTP/1.1\r\nHost: x\r\n\r\n');
    client.pause(); // never reads
    const res = await pending;
    const limit = 256 * 1024;
    let written = 0;
    let peak = 0;
    // Far more than the kernel's socket buffers hold: the backlog must build up in the process.
    while (written < 64 * 1024 * 1024 && writeOrDrop(res, CHUNK, limit)) {
      written += CHUNK.length;
      peak = Math.max(peak, res.writableLength);
      if (written % (1024 * 1024) < CHUNK.length) await new Promise((r) => setImmediate(r));
    }
    expect(res.destroyed).toBe(true);
    expect(written).toBeLessThan(64 * 1024 * 1024);
    expect(peak).toBeLessThanOrEqual(limit + CHUNK.length);
    expect(writeOrDrop(res, CHUNK, limit)).toBe(false);
  });

  it('a client that reads gets every chunk', async () => {
    const { port, res: pending } = await serverWithResponse();
    const client = connect(port, '127.0.0.1');
    cleanup.push(() => client.destroy());
    let received = 0;
    let all: () => void = () => {};
    const done = new Promise<void>((r) => (all = r));
    client.on('data', (d: Buffer) => {
      received += d.length;
      if (received > 400 * CHUNK.length) all();
    });
    client.write('GET /live HTTP/1.1\r\nHost: x\r\n\r\n');
    const res = await pending;
    for (let i = 0; i < 400; i++) {
      expect(writeOrDrop(res, CHUNK, 256 * 1024)).toBe(true);
      if (res.writableLength > 128 * 1024) await new Promise((r) => res.once('drain', r));
    }
    await done; // every chunk arrived (with the HTTP framing around them)
    expect(res.destroyed).toBe(false);
  });
});
