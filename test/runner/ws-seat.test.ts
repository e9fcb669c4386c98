// The socket layer on its own: real WebSocket bots on 127.0.0.1, one WsSeat each.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { generateKeyPair } from '../../src/keys';
import { NonceMemory, verifyBoundHandshake, verifyHandshake } from '../../src/keys/handshake';
import { leadingId, UNREQUESTED_BUDGET, WsSeat } from '../../src/runner/ws-seat';
import { FRAME_CEILING_BYTES } from '../../src/runner/connect';
import { answer, startTestBot, type Behaviour, type TestBot, type TestBotOptions } from '../support/test-bot';

const { privateKey, publicKey } = generateKeyPair();
// Generous: the machine is shared and a starved event loop must not make a good bot late.
const DEADLINE = 1000;
const bots: TestBot[] = [];
const seats: WsSeat[] = [];

afterEach(async () => {
  await Promise.all(seats.splice(0).map((s) => s.close()));
  await Promise.all(bots.splice(0).map((b) => b.close()));
});

async function setup(behaviour: Behaviour, extra: Partial<TestBotOptions> = {}, matchId = 'm-1') {
  const bot = await startTestBot({ behaviour, verifyKey: publicKey, ...extra });
  bots.push(bot);
  const seat = new WsSeat({ url: bot.url, matchId, platformKey: privateKey });
  seats.push(seat);
  return { bot, seat };
}

let nextId = 1;
function frame(): { id: number; text: string } {
  const id = nextId++;
  return {
    id,
    text: JSON.stringify({
      id,
      matchId: 'm-1',
      game: 'pioneers',
      seat: 0,
      kind: 'turn',
      deadlineMs: DEADLINE,
      view: {},
    }),
  };
}
async function ask(seat: WsSeat) {
  const f = frame();
  return seat.ask(f.id, f.text, DEADLINE);
}
const endTurn: Behaviour = (ctx) => answer(ctx, { type: 'end_turn' });

describe('WsSeat', () => {
  it('opens one signed socket lazily and reuses it for every decision', async () => {
    const { bot, seat } = await setup(endTurn);
    expect(bot.connections).toBe(0);
    for (let i = 0; i < 3; i++) {
      const r = await ask(seat);
      expect(r).toMatchObject({ ok: true, action: { type: 'end_turn' } });
      if (r.ok) expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(bot.connections).toBe(1);
    expect(seat.connections).toBe(1);
    expect(bot.verified).toEqual([true]);
    expect(bot.handshakes[0]['x-svc-match']).toBe('m-1');
    expect(verifyHandshake(publicKey, bot.handshakes[0]).ok).toBe(true);
    // The audience-bound extension rides along, addressed to this bot's URL.
    expect(bot.handshakes[0]['x-svc-audience']).toBe(`${bot.url.replace('http:', 'ws:')}/`);
    expect(verifyBoundHandshake(publicKey, bot.handshakes[0], bot.url, new NonceMemory()).ok).toBe(true);
  });

  it('a late answer is a `late` strike, and the late frame is ignored afterwards', async () => {
    let first: number | null = null;
    // Withholds the first answer and sends it once the second decision is pending; never answers the second.
    const { seat } = await setup((ctx) => {
      if (first === null) first = ctx.request.id;
      else answer({ ...ctx, request: { ...ctx.request, id: first } }, { type: 'end_turn' });
    });
    expect(await ask(seat)).toMatchObject({ ok: false, reason: 'late' });
    // The second decision is pending when the first's late answer arrives: that answer must not be taken for it.
    const second = await ask(seat);
    expect(second).toMatchObject({ ok: false, reason: 'late' });
    expect(seat.unrequested).toBe(1);
  });

  it('sends Buffer frames as text frames, whether the socket is open or still connecting', async () => {
    const { bot, seat } = await setup(endTurn);
    const f = frame();
    expect(await seat.ask(f.id, Buffer.from(f.text), DEADLINE)).toMatchObject({ ok: true }); // connects first
    const g = frame();
    expect(await seat.ask(g.id, Buffer.from(g.text), DEADLINE)).toMatchObject({ ok: true }); // open socket
    expect(bot.frames.map((r) => r.id)).toEqual([f.id, g.id]);
  });

  it('a shorter deadline after a longer one is still kept (one deadline timer per seat)', async () => {
    let calls = 0;
    // The second answer comes 600 ms after its frame, past its 100 ms deadline but well within the first one's.
    const { seat } = await setup((ctx) => {
      if (calls++ === 0) answer(ctx, { type: 'end_turn' });
      else setTimeout(() => answer(ctx, { type: 'end_turn' }), 600);
    });
    expect(await ask(seat)).toMatchObject({ ok: true });
    const f = frame();
    expect(await seat.ask(f.id, f.text, 100)).toMatchObject({
      ok: false,
      reason: 'late',
      detail: 'no answer within 100 ms',
    });
  });

  it('an answer arriving after a late decision does not spill into the next one', async () => {
    let first: number | null = null;
    // The first answer is sent only when the second decision arrives, just before the second's own answer.
    const { seat } = await setup((ctx) => {
      if (first === null) {
        first = ctx.request.id;
        return;
      }
      answer({ ...ctx, request: { ...ctx.request, id: first } }, { type: 'buy_dev' });
      answer(ctx, { type: 'end_turn' });
    });
    expect(await ask(seat)).toMatchObject({ ok: false, reason: 'late' });
    expect(await ask(seat)).toMatchObject({ ok: true, action: { type: 'end_turn' } });
  });

  it('garbage of every kind is `malformed`, and the socket stays open', async () => {
    const garbage = [
      (c: Parameters<Behaviour>[0]) => c.socket.send('{not json'),
      (c: Parameters<Behaviour>[0]) => c.socket.send(JSON.stringify({ action: { type: 'end_turn' } })),
      (c: Parameters<Behaviour>[0]) => c.socket.send(JSON.stringify({ id: c.request.id })),
      (c: Parameters<Behaviour>[0]) => c.socket.send(JSON.stringify({ id: 999_999, action: {} })),
      (c: Parameters<Behaviour>[0]) =>
        c.socket.send(Buffer.from(JSON.stringify({ id: c.request.id, action: {} })), { binary: true }),
      (c: Parameters<Behaviour>[0]) => c.socket.send('null'),
    ];
    let i = 0;
    const { bot, seat } = await setup((ctx) => garbage[i++](ctx));
    const details: string[] = [];
    for (let k = 0; k < garbage.length; k++) {
      const r = await ask(seat);
      expect(r).toMatchObject({ ok: false, reason: 'malformed' });
      if (!r.ok) details.push(r.detail);
    }
    expect(details[0]).toContain('not JSON');
    expect(details[3]).toContain('unknown decision id 999999');
    expect(details[4]).toContain('binary');
    expect(bot.connections).toBe(1);
  });

  it('a frame over 65,536 bytes is `oversize` and the socket stays open', async () => {
    let calls = 0;
    const { bot, seat } = await setup((ctx) => {
      if (calls++ === 0)
        ctx.socket.send(JSON.stringify({ id: ctx.request.id, action: { type: 'end_turn' }, pad: 'x'.repeat(70_000) }));
      else answer(ctx, { type: 'end_turn' });
    });
    const r = await ask(seat);
    expect(r).toMatchObject({ ok: false, reason: 'oversize' });
    if (!r.ok) expect(r.detail).toContain('65536-byte limit');
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(bot.connections).toBe(1);
    expect(bot.closeCodes).toEqual([]);
  });

  it('a frame over the 1 MiB ceiling is `oversize` and closes the socket; the next decision reconnects', async () => {
    let calls = 0;
    const { bot, seat } = await setup((ctx) => {
      if (calls++ === 0) ctx.socket.send('x'.repeat(FRAME_CEILING_BYTES + 1));
      else answer(ctx, { type: 'end_turn' });
    });
    const r = await ask(seat);
    expect(r).toMatchObject({ ok: false, reason: 'oversize' });
    if (!r.ok) expect(r.detail).toContain('ceiling');
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(bot.connections).toBe(2);
    expect(bot.closeCodes).toEqual([1009]);
  });

  it('offers no compression (no permessage-deflate in the handshake)', async () => {
    const { bot, seat } = await setup(endTurn);
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(bot.handshakes[0]['sec-websocket-extensions']).toBeUndefined();
  });

  it('a text frame that is not UTF-8 is `malformed` (ws must close that socket); the next decision reconnects', async () => {
    let calls = 0;
    const { bot, seat } = await setup((ctx) => {
      if (calls++ === 0) ctx.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
      else answer(ctx, { type: 'end_turn' });
    });
    const r = await ask(seat);
    expect(r).toMatchObject({ ok: false, reason: 'malformed' });
    if (!r.ok) expect(r.detail).toContain('invalid WebSocket frame');
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(bot.connections).toBe(2);
  });

  it('a frame of exactly 65,536 bytes is still accepted', async () => {
    const { seat } = await setup((ctx) => {
      const base = JSON.stringify({ id: ctx.request.id, action: { type: 'end_turn' }, pad: '' });
      ctx.socket.send(
        JSON.stringify({ id: ctx.request.id, action: { type: 'end_turn' }, pad: 'x'.repeat(65_536 - base.length) }),
      );
    });
    expect(await ask(seat)).toMatchObject({ ok: true, action: { type: 'end_turn' } });
  });

  it('a drop (no Close frame) with a decision pending is `dropped` at once; the next decision reconnects with a fresh handshake', async () => {
    let calls = 0;
    const { bot, seat } = await setup((ctx) => {
      if (calls++ === 0) ctx.socket.terminate();
      else answer(ctx, { type: 'end_turn' });
    });
    // Dropped, not late: the strike comes from the close, long before this deadline.
    const f = frame();
    expect(await seat.ask(f.id, f.text, 60_000)).toMatchObject({
      ok: false,
      reason: 'dropped',
      detail: expect.stringContaining('1006'),
    });
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(bot.connections).toBe(2);
    expect(bot.verified).toEqual([true, true]);
  });

  it('a clean close right after answering is no strike: the next decision reconnects with a fresh handshake', async () => {
    const { bot, seat } = await setup((ctx) => {
      answer(ctx, { type: 'end_turn' });
      ctx.socket.close(1000, 'done');
    });
    for (let i = 0; i < 4; i++) expect(await ask(seat)).toMatchObject({ ok: true, action: { type: 'end_turn' } });
    expect(bot.connections).toBe(4);
    expect(bot.verified).toEqual([true, true, true, true]);
  });

  it('a clean close that crosses the next frame gets that frame again on a fresh socket', async () => {
    // The bot closes as the decision arrives (as if its Close crossed our frame), then answers on the new socket.
    let calls = 0;
    const { bot, seat } = await setup((ctx) => {
      if (calls++ === 0) ctx.socket.close(1001, 'going away');
      else answer(ctx, { type: 'end_turn' });
    });
    const f = frame();
    expect(await seat.ask(f.id, f.text, DEADLINE)).toMatchObject({ ok: true, action: { type: 'end_turn' } });
    expect(bot.frames.map((x) => x.id)).toEqual([f.id, f.id]);
    expect(bot.connections).toBe(2);
  });

  it('a bot that sends a Close frame but never ends the connection is cut after 1 s, and the decision resent', async () => {
    // First upgrade: accepted by hand; the first frame is answered with a Close frame, then the TCP connection is held
    // open.
    // Later upgrades: a normal bot. (ws alone would wait 30 s for the TCP close, and the decision would go late.)
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
    const raws: Socket[] = [];
    let upgrades = 0;
    const server = createHttpServer();
    server.on('upgrade', (req, socket: Socket, head) => {
      if (upgrades++ > 0) {
        wss.handleUpgrade(req, socket, head, (ws) =>
          ws.on('message', (data) => {
            const id = (JSON.parse(String(data)) as { id: number }).id;
            ws.send(JSON.stringify({ id, action: { type: 'end_turn' } }));
          }),
        );
        return;
      }
      raws.push(socket);
      const accept = createHash('sha1')
        .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`,
      );
      socket.once('data', () => socket.write(Buffer.from([0x88, 0x02, 0x03, 0xe9])));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const seat = new WsSeat({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        matchId: 'm-1',
        platformKey: privateKey,
      });
      seats.push(seat);
      const f = frame();
      expect(await seat.ask(f.id, f.text, 10_000)).toMatchObject({ ok: true, action: { type: 'end_turn' } });
      expect(upgrades).toBe(2);
    } finally {
      for (const c of wss.clients) c.terminate();
      for (const r of raws) r.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  it('a clean close on the resent frame too is `dropped` (one resend per decision)', async () => {
    const { bot, seat } = await setup((ctx) => ctx.socket.close(1001, 'going away'));
    const f = frame();
    expect(await seat.ask(f.id, f.text, 60_000)).toMatchObject({
      ok: false,
      reason: 'dropped',
      detail: expect.stringContaining('1001'),
    });
    expect(bot.frames.map((x) => x.id)).toEqual([f.id, f.id]);
  });

  it('a close while no decision is pending is no strike', async () => {
    const { bot, seat } = await setup(endTurn);
    expect(await ask(seat)).toMatchObject({ ok: true });
    // The bot's server restarts between decisions: every socket dropped without a Close frame.
    for (const s of bot.sockets()) s.terminate();
    await vi.waitFor(() => expect(seat.isOpen()).toBe(false));
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(bot.connections).toBe(2);
  });

  it('an upgrade refused with 401 is `dropped` and names the status', async () => {
    const { seat } = await setup(endTurn, { refuseUpgrade: 401 });
    const r = await ask(seat);
    expect(r).toMatchObject({ ok: false, reason: 'dropped' });
    if (!r.ok) expect(r.detail).toContain('401');
  });

  it('a handshake signed by another key is refused by a verifying bot', async () => {
    const other = generateKeyPair();
    const bot = await startTestBot({ behaviour: endTurn, verifyKey: other.publicKey });
    bots.push(bot);
    const seat = new WsSeat({ url: bot.url, matchId: 'm-1', platformKey: privateKey });
    seats.push(seat);
    expect(await ask(seat)).toMatchObject({ ok: false, reason: 'dropped' });
    expect(bot.verified).toEqual([false]);
  });

  it('an upgrade that never completes is bounded by the deadline', async () => {
    const { seat } = await setup(endTurn, { stallUpgrade: true });
    const r = await ask(seat);
    expect(r).toMatchObject({ ok: false, reason: 'dropped' });
    if (!r.ok) expect(r.detail).toMatch(/upgrade|timeout|timed out/i);
  });

  it('a port nobody listens on is `dropped`', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const seat = new WsSeat({ url: `http://127.0.0.1:${port}`, matchId: 'm-1', platformKey: privateKey });
    seats.push(seat);
    expect(await ask(seat)).toMatchObject({ ok: false, reason: 'dropped' });
  });

  it('a gate that refuses the URL means no connection is attempted', async () => {
    const bot = await startTestBot({ behaviour: endTurn });
    bots.push(bot);
    const seat = new WsSeat({
      url: bot.url,
      matchId: 'm-1',
      platformKey: privateKey,
      gate: async (u) => {
        throw new Error(`${u} is loopback`);
      },
    });
    seats.push(seat);
    const r = await ask(seat);
    expect(r).toMatchObject({ ok: false, reason: 'dropped' });
    if (!r.ok) expect(r.detail).toContain('is loopback');
    expect(bot.handshakes).toHaveLength(0);
    expect(seat.connections).toBe(0);
  });

  it('connects to the address the gate checked, not to what DNS says (pinned lookup)', async () => {
    const bot = await startTestBot({ behaviour: endTurn, verifyKey: publicKey });
    bots.push(bot);
    const port = new URL(bot.url).port;
    const checked: string[] = [];
    // `.invalid` never resolves (RFC 6761): reaching the bot proves the socket used the gate's answer.
    const seat = new WsSeat({
      url: `http://bot.invalid:${port}/`,
      matchId: 'm-1',
      platformKey: privateKey,
      gate: async (u) => {
        checked.push(u);
        return { address: '127.0.0.1', family: 4 };
      },
    });
    seats.push(seat);
    expect(await ask(seat)).toMatchObject({ ok: true, action: { type: 'end_turn' } });
    expect(bot.handshakes[0].host).toBe(`bot.invalid:${port}`);
    expect(bot.verified).toEqual([true]);
    // The gate runs again on every reconnect.
    for (const s of bot.sockets()) s.terminate();
    await vi.waitFor(() => expect(seat.isOpen()).toBe(false));
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(checked).toEqual([`http://bot.invalid:${port}/`, `http://bot.invalid:${port}/`]);
  });

  it('stray frames and duplicate answers while nothing is pending are ignored (within the budget)', async () => {
    const { seat, bot } = await setup((ctx) => {
      answer(ctx, { type: 'end_turn' });
      ctx.socket.send('garbage after');
      ctx.socket.send(JSON.stringify({ id: ctx.request.id, action: { type: 'buy_dev' } }));
    });
    expect(await ask(seat)).toMatchObject({ ok: true, action: { type: 'end_turn' } });
    await vi.waitFor(() => expect(seat.unrequested).toBe(2));
    expect(await ask(seat)).toMatchObject({ ok: true, action: { type: 'end_turn' } });
    expect(bot.connections).toBe(1);
  });

  it('answers to settled decisions are recognised by their leading id, without parsing the rest', async () => {
    let first: number | null = null;
    const { seat } = await setup((ctx) => {
      if (first === null) {
        first = ctx.request.id;
        answer(ctx, { type: 'end_turn' });
        return;
      }
      // Not JSON past its id: parsed, it would be a malformed strike for the pending decision.
      ctx.socket.send(`{"id":${first},"action":{"type":"end_turn"},"padding":"${'x'.repeat(60_000)}`);
      answer(ctx, { type: 'end_turn' });
    });
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(seat.unrequested).toBe(1);
  });

  it(`past ${UNREQUESTED_BUDGET} unrequested frames, the next one is \`malformed\` for the pending decision`, async () => {
    let first: number | null = null;
    const { seat, bot } = await setup((ctx) => {
      if (first === null) {
        first = ctx.request.id;
        answer(ctx, { type: 'end_turn' });
        return;
      }
      const stale = JSON.stringify({ id: first, action: { type: 'end_turn' } });
      for (let i = 0; i <= UNREQUESTED_BUDGET; i++) ctx.socket.send(stale);
      answer(ctx, { type: 'end_turn' });
    });
    expect(await ask(seat)).toMatchObject({ ok: true });
    const r = await ask(seat);
    expect(r).toMatchObject({ ok: false, reason: 'malformed', detail: expect.stringContaining('unrequested') });
    expect(bot.connections).toBe(1);
  });

  it('past the budget with nothing pending, the socket is closed (no strike); the next decision reconnects', async () => {
    let answered = 0;
    const { seat, bot } = await setup((ctx) => {
      answer(ctx, { type: 'end_turn' });
      if (answered++ === 0) for (let i = 0; i <= UNREQUESTED_BUDGET; i++) ctx.socket.send('{"chatter": true}');
    });
    expect(await ask(seat)).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(bot.closeCodes).toEqual([1008]));
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(bot.connections).toBe(2);
  });

  it('close() closes the socket with code 1000', async () => {
    const { bot, seat } = await setup(endTurn);
    await ask(seat);
    await seat.close();
    await vi.waitFor(() => expect(bot.closeCodes).toEqual([1000]));
    expect(bot.openSockets()).toBe(0);
    expect(await ask(seat)).toMatchObject({ ok: false, reason: 'dropped' });
  });

  it('preconnect opens the socket before the first decision, which then reuses it', async () => {
    const { bot, seat } = await setup(endTurn);
    seat.preconnect(DEADLINE);
    await vi.waitFor(() => expect(bot.connections).toBe(1));
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(bot.connections).toBe(1);
  });

  it('a failed preconnect is retried once at the first decision', async () => {
    let calls = 0;
    const bot = await startTestBot({ behaviour: endTurn });
    bots.push(bot);
    const seat = new WsSeat({
      url: bot.url,
      matchId: 'm-1',
      platformKey: privateKey,
      gate: async () => {
        if (calls++ === 0) throw new Error('not yet');
      },
    });
    seats.push(seat);
    seat.preconnect(DEADLINE);
    expect(await ask(seat)).toMatchObject({ ok: true });
    expect(calls).toBe(2);
  });

  it('a deeply nested answer within the size limit is just malformed', async () => {
    const { seat } = await setup((ctx) => ctx.socket.send('['.repeat(30_000) + ']'.repeat(30_000)));
    expect(await ask(seat)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('leadingId reads `{"id":N` only when it is the whole id', () => {
    expect(leadingId(Buffer.from('{"id":12,"action":{}}'))).toBe(12);
    expect(leadingId(Buffer.from(' { "id" : 7 }'))).toBe(7);
    expect(leadingId(Buffer.from('{"id":1.5,"action":{}}'))).toBeNull();
    expect(leadingId(Buffer.from('{"id":01,"action":{}}'))).toBeNull();
    expect(leadingId(Buffer.from('{"action":{},"id":3}'))).toBeNull();
    expect(leadingId(Buffer.from('{"id":"3"}'))).toBeNull();
    expect(leadingId(Buffer.from('{"id":12345678901234567890}'))).toBeNull();
  });

  it('http(s) URLs are upgraded to ws(s); other schemes are refused', async () => {
    const { toWebSocketUrl } = await import('../../src/runner/ws-url');
    expect(toWebSocketUrl('http://127.0.0.1:8080/bot')).toBe('ws://127.0.0.1:8080/bot');
    expect(toWebSocketUrl('https://bots.example/x')).toBe('wss://bots.example/x');
    expect(toWebSocketUrl('wss://bots.example/x')).toBe('wss://bots.example/x');
    expect(() => toWebSocketUrl('ftp://x')).toThrow(/http:\/\/, https:\/\/, ws:\/\/ or wss:\/\//);
    expect(() => toWebSocketUrl('not a url')).toThrow(/not a valid URL/);
    const seat = new WsSeat({ url: 'ftp://x', matchId: 'm', platformKey: privateKey });
    expect(await ask(seat)).toMatchObject({ ok: false, reason: 'dropped' });
  });
});
