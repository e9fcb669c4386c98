// A real WebSocket bot server on 127.0.0.1 (port 0) for tests and benchmarks:
// GET /ping answers `pong`, upgrades are accepted (optionally verifying the
// signed handshake and refusing with 401), and every decision frame goes to a
// Behaviour that decides what the bot does with its socket.
import type { KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { verifyHandshake } from '../../src/keys/handshake';
import type { DecisionRequest } from '../../src/protocol';

export interface DecisionContext {
  request: DecisionRequest;
  socket: WebSocket;
  /** 0-based index of this decision among all this bot has received. */
  index: number;
  /** 1-based number of the connection the frame came on. */
  connection: number;
}

/** What the bot does with one decision: answer, misbehave, or both. */
export type Behaviour = (ctx: DecisionContext) => void | Promise<void>;

export interface TestBotOptions {
  behaviour: Behaviour;
  /** Verify handshakes against this platform public key; refuse failures with 401. */
  verifyKey?: KeyObject;
  /** Refuse every upgrade with this HTTP status (e.g. 401, 503). */
  refuseUpgrade?: number;
  /** Accept the TCP connection but never answer the upgrade. */
  stallUpgrade?: boolean;
}

export interface TestBot {
  /** http://127.0.0.1:<port> (the runner upgrades it to ws://). */
  url: string;
  /** Every decision frame received, parsed, in arrival order. */
  frames: DecisionRequest[];
  /** Headers of every upgrade request (accepted or not). */
  handshakes: IncomingHttpHeaders[];
  /** Handshake verification results when verifyKey is set. */
  verified: boolean[];
  /** Upgrades accepted. */
  connections: number;
  /** Close codes the bot saw, one per closed connection. */
  closeCodes: number[];
  /** Sockets currently open. */
  openSockets(): number;
  /** The bot's side of every open socket (to drop them as a crashing server would). */
  sockets(): WebSocket[];
  close(): Promise<void>;
}

export async function startTestBot(opts: TestBotOptions): Promise<TestBot> {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const rawSockets = new Set<Socket>();
  const bot: TestBot = {
    url: '',
    frames: [],
    handshakes: [],
    verified: [],
    connections: 0,
    closeCodes: [],
    openSockets: () => wss.clients.size,
    sockets: () => [...wss.clients],
    close: () => closeAll(server, wss, rawSockets),
  };
  let decisions = 0;

  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/ping') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('pong');
      return;
    }
    res.writeHead(404).end();
  });
  server.on('connection', (s) => {
    rawSockets.add(s);
    s.on('close', () => rawSockets.delete(s));
  });
  server.on('upgrade', (req, socket, head) => {
    bot.handshakes.push(req.headers);
    if (opts.stallUpgrade) return;
    if (opts.refuseUpgrade) {
      socket.end(`HTTP/1.1 ${opts.refuseUpgrade} Refused\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    if (opts.verifyKey) {
      const ok = verifyHandshake(opts.verifyKey, req.headers).ok;
      bot.verified.push(ok);
      if (!ok) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = ++bot.connections;
      ws.on('error', () => {}); // a test bot never crashes the test process
      ws.on('close', (code) => bot.closeCodes.push(code));
      ws.on('message', (data) => {
        let request: DecisionRequest;
        try {
          request = JSON.parse(String(data)) as DecisionRequest;
        } catch {
          return; // the arena only sends JSON; anything else is not a decision
        }
        bot.frames.push(request);
        void opts.behaviour({ request, socket: ws, index: decisions++, connection });
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bot.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return bot;
}

async function closeAll(server: Server, wss: WebSocketServer, rawSockets: Set<Socket>): Promise<void> {
  for (const ws of wss.clients) ws.terminate();
  for (const s of rawSockets) s.destroy();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Sends a DecisionResponse for the context's request. */
export function answer(ctx: DecisionContext, action: unknown): void {
  if (ctx.socket.readyState === ctx.socket.OPEN) ctx.socket.send(JSON.stringify({ id: ctx.request.id, action }));
}
