// readHeadersFromNode: c.req.header(name) read from Node's raw headers gives what hono's own read gives.
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHeadersFromNode } from '../../../src/service/http/node-io';

const NAMES = ['content-type', 'Content-Type', 'x-twice', 'X-TWICE', 'x-empty', 'x-absent', 'host'];

describe('readHeadersFromNode', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    const app = new Hono();
    app.get('/h', (c) => {
      // What hono reads from the web Headers, then the same names through the fast reader.
      const web = Object.fromEntries(NAMES.map((n) => [n, c.req.raw.headers.get(n) ?? undefined]));
      const all = c.req.header();
      readHeadersFromNode(c);
      const fast = Object.fromEntries(NAMES.map((n) => [n, c.req.header(n)]));
      return c.json({ web, fast, all, allAfter: c.req.header() });
    });
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers as Headers.get does: any case, repeats joined with ", ", absent is undefined', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      'GET /h HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: Application/JSON; charset=utf-8\r\nX-Twice: one\r\nx-twice: two\r\nX-Empty:\r\nConnection: close\r\n\r\n',
    );
    let text = '';
    socket.setEncoding('utf8');
    for await (const chunk of socket) text += chunk;
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, ''));
    expect(body.fast).toEqual(body.web);
    expect(body.fast['x-twice']).toBe('one, two');
    expect(body.fast['content-type']).toBe('Application/JSON; charset=utf-8');
    expect(body.allAfter).toEqual(body.all);
  });
});
