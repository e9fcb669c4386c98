// The part of a bot that is the same for every strategy: an HTTP server that
// answers `GET /ping` with `pong`, accepts the arena's WebSocket (optionally
// verifying that the arena signed its handshake for this bot, once), and
// answers each DecisionRequest frame with a DecisionResponse carrying the
// same id. Copy it; plug in your `decide`.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AnyAction } from 'bot-arena/engine';
import type { DecisionRequest } from 'bot-arena/protocol';

/**
 * What your bot knows between decisions of one match. The view does not say
 * whether you played a dev card this turn or how many offers you made; the
 * rules cap both, so a bot must count them itself.
 */
export interface MatchMemo {
  matchId: string;
  turn: number;
  devPlayedThisTurn: boolean;
  offersThisTurn: number;
}

export type Decide = (request: DecisionRequest, memo: MatchMemo) => AnyAction | Promise<AnyAction>;

export interface BotServerOptions {
  port?: number;
  host?: string;
  /**
   * base64 of the platform's raw 32-byte public key; when set, every upgrade
   * must carry a good audience-bound handshake for `publicUrl` with a nonce
   * not seen before, or it gets 401.
   */
  platformPublicKey?: string;
  /**
   * The URL the arena reaches this bot at, as registered (http(s) is read as
   * ws(s)). Default ws://<host>:<port>/ from what the server listens on; set it
   * when the bot sits behind a proxy or a public name. Never taken from the
   * request's Host header: the sender chooses that.
   */
  publicUrl?: string;
  /** One short line per decision; default silent. */
  log?: (line: string) => void;
  name?: string;
}

export interface RunningBot {
  /** http://host:port, ready for `arena play`. */
  url: string;
  port: number;
  /** The audience a handshake must name to be accepted (opts.publicUrl or ws://host:port/), normalized. */
  publicUrl: string;
  close(): Promise<void>;
}

export async function serveBot(decide: Decide, opts: BotServerOptions = {}): Promise<RunningBot> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? (() => {});
  const key = opts.platformPublicKey ? platformKey(opts.platformPublicKey) : undefined;
  // A bad public URL fails at start, not at every upgrade.
  if (opts.publicUrl !== undefined && !URL.canParse(opts.publicUrl))
    throw new Error(`publicUrl must be a URL such as wss://bot.example.org/, got "${opts.publicUrl}"`);
  const nonces = new NonceMemory();
  let publicUrl = '';

  const http = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0].replace(/\/+$/, '').endsWith('/ping')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('pong');
      return;
    }
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end('not found: this is a bot; the arena connects by WebSocket\n');
  });
  // 64 KiB is the arena's frame limit too; nothing we receive is larger.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  http.on('upgrade', (req: IncomingMessage, socket, head) => {
    if (key) {
      const check = verifyBoundHandshake(key, req.headers, publicUrl, nonces);
      if (!check.ok) {
        log(`refused upgrade: ${check.reason}`);
        socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
    }
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws, String(req.headers['x-svc-match'] ?? '?')));
  });

  function onSocket(ws: WebSocket, matchId: string): void {
    const memo: MatchMemo = { matchId, turn: -1, devPlayedThisTurn: false, offersThisTurn: 0 };
    ws.on('message', async (data) => {
      let request: DecisionRequest;
      try {
        request = JSON.parse(data.toString()) as DecisionRequest;
      } catch {
        log('ignored a frame that is not JSON');
        return;
      }
      if (request.view.turn !== memo.turn) {
        memo.turn = request.view.turn;
        memo.devPlayedThisTurn = false;
        memo.offersThisTurn = 0;
      }
      const start = performance.now();
      let action: AnyAction;
      try {
        action = await decide(request, memo);
      } catch (err) {
        // Answer at once with no action: the arena plays its default and counts
        // a strike either way, but the match does not wait out the deadline.
        log(
          `decide failed (${(err as Error).message}); sent no action, the arena plays its default and counts a strike`,
        );
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: request.id, action: null }));
        return;
      }
      if (request.kind === 'turn' && 'type' in action) {
        if (action.type.startsWith('play_')) memo.devPlayedThisTurn = true;
        if (action.type === 'offer_trade') memo.offersThisTurn++;
      }
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: request.id, action }));
      log(
        `${request.matchId} seat ${request.seat} ${request.kind} -> ${JSON.stringify(action)} (${(performance.now() - start).toFixed(1)} ms)`,
      );
    });
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  publicUrl = handshakeAudience(opts.publicUrl ?? `ws://${shownHost}:${port}/`);
  return {
    url: `http://${shownHost}:${port}`,
    port,
    publicUrl,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** How far a handshake's timestamp may be from our clock (the arena's window). */
const HANDSHAKE_WINDOW_MS = 30_000;
/** DER header of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The platform's public key from base64 of its 32 raw bytes (`arena play --print-platform-key`). */
function platformKey(base64: string): KeyObject {
  const raw = Buffer.from(base64, 'base64');
  if (raw.length !== 32)
    throw new Error(
      'platform public key must be base64 of 32 raw bytes (print it with `arena play --print-platform-key`)',
    );
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/**
 * The arena signs every WebSocket upgrade: `x-svc-signature` is base64 of an
 * Ed25519 signature of `<x-svc-timestamp>.<x-svc-match>` (unix milliseconds,
 * the match id). A fresh timestamp and a good signature mean the arena signed
 * it, but not that it was meant for you: another bot's owner can replay a
 * handshake their bot received to you within 30 s. serveBot checks
 * verifyBoundHandshake instead; this is the spec's check alone.
 */
export function verifyHandshake(
  key: KeyObject,
  headers: IncomingHttpHeaders,
  now = Date.now(),
): { ok: true } | { ok: false; reason: string } {
  const one = (name: string) => (typeof headers[name] === 'string' ? (headers[name] as string) : undefined);
  const matchId = one('x-svc-match');
  const timestamp = one('x-svc-timestamp');
  const signature = one('x-svc-signature');
  if (!matchId || !timestamp || !signature)
    return { ok: false, reason: 'unsigned: x-svc-match, x-svc-timestamp and x-svc-signature are required' };
  if (!/^\d{1,16}$/.test(timestamp) || Math.abs(Number(timestamp) - now) > HANDSHAKE_WINDOW_MS)
    return { ok: false, reason: 'stale or bad x-svc-timestamp' };
  const sig = Buffer.from(signature, 'base64');
  if (sig.length !== 64 || !verify(null, Buffer.from(`${timestamp}.${matchId}`), key, sig))
    return { ok: false, reason: 'bad signature' };
  return { ok: true };
}

/**
 * The audience-bound handshake (docs/protocol.md in the arena): the arena also
 * sends `x-svc-audience` (the URL it connected to), `x-svc-nonce` (16 random
 * bytes, base64url) and `x-svc-audience-signature`: Ed25519 by the platform
 * key over `<timestamp>.<matchId>.<nonce>.<audience>`. Accept only when the
 * audience is our own public URL (from our configuration, never the Host
 * header), the signature verifies, the timestamp is within 30 s, and the
 * nonce is new (remembered for 30 s).
 */
export function verifyBoundHandshake(
  key: KeyObject,
  headers: IncomingHttpHeaders,
  ownPublicUrl: string,
  nonces: NonceMemory,
  now = Date.now(),
): { ok: true } | { ok: false; reason: string } {
  const one = (name: string) => (typeof headers[name] === 'string' ? (headers[name] as string) : undefined);
  const matchId = one('x-svc-match');
  const timestamp = one('x-svc-timestamp');
  const audience = one('x-svc-audience');
  const nonce = one('x-svc-nonce');
  const signature = one('x-svc-audience-signature');
  if (!matchId || !timestamp || !audience || !nonce || !signature) {
    return {
      ok: false,
      reason:
        'unsigned: x-svc-match, x-svc-timestamp, x-svc-audience, x-svc-nonce and x-svc-audience-signature are required',
    };
  }
  if (audience !== handshakeAudience(ownPublicUrl))
    return { ok: false, reason: 'addressed to another bot (x-svc-audience is not our public URL)' };
  if (!/^[A-Za-z0-9_-]{22}$/.test(nonce)) return { ok: false, reason: 'bad x-svc-nonce' };
  if (!/^\d{1,16}$/.test(timestamp) || Math.abs(Number(timestamp) - now) > HANDSHAKE_WINDOW_MS)
    return { ok: false, reason: 'stale or bad x-svc-timestamp' };
  const sig = Buffer.from(signature, 'base64');
  if (sig.length !== 64 || !verify(null, Buffer.from(`${timestamp}.${matchId}.${nonce}.${audience}`), key, sig))
    return { ok: false, reason: 'bad signature' };
  if (!nonces.admit(nonce, now, Number(timestamp)))
    return { ok: false, reason: 'replayed handshake (nonce seen before)' };
  return { ok: true };
}

/**
 * The audience as the arena writes it: `new URL(url).href` of the socket URL,
 * so http(s) becomes ws(s). Throws for something that is not a URL.
 */
export function handshakeAudience(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
  if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
  parsed.hash = '';
  return parsed.href;
}

/**
 * Nonces of accepted handshakes, each until its timestamp is out of the 30 s
 * window. Only fully verified handshakes get here, so nobody but the arena
 * can fill it; when full it refuses rather than forget a live nonce.
 */
export class NonceMemory {
  private readonly until = new Map<string, number>();

  constructor(private readonly capacity = 10_000) {}

  /** false: seen before (a replay), or no room. */
  admit(nonce: string, now: number, timestamp = now): boolean {
    if (this.until.size >= this.capacity || this.until.size % 64 === 0) {
      for (const [n, t] of this.until) if (t <= now) this.until.delete(n);
    }
    const seen = this.until.get(nonce);
    if ((seen !== undefined && seen > now) || this.until.size >= this.capacity) return false;
    this.until.set(nonce, Math.max(now, timestamp) + HANDSHAKE_WINDOW_MS);
    return true;
  }
}

/** `--port 8080 --host 0.0.0.0 --platform-key BASE64` (or $PORT, $HOST, $ARENA_PLATFORM_KEY). */
export function parseBotCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): BotServerOptions & { quiet: boolean } {
  const get = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(
      'options: --port N (default 8080, $PORT)  --host H (default 127.0.0.1, $HOST)\n         --platform-key BASE64 (verify handshakes; $ARENA_PLATFORM_KEY; get it with `arena play --print-platform-key`)\n         --public-url URL (the URL the arena connects to, as registered; $BOT_PUBLIC_URL; default ws://HOST:PORT/)\n         --quiet (no per-decision log)\n',
    );
    process.exit(0);
  }
  const portText = get('--port') ?? env.PORT ?? '8080';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`bot: --port must be a port number 0-65535, got "${portText}"\n`);
    process.exit(2);
  }
  const publicUrl = get('--public-url') ?? env.BOT_PUBLIC_URL;
  if (publicUrl !== undefined) {
    try {
      handshakeAudience(publicUrl);
    } catch {
      process.stderr.write(
        `bot: --public-url must be a URL such as wss://bot.example.org/ (the one the arena connects to), got "${publicUrl}"\n`,
      );
      process.exit(2);
    }
  }
  return {
    port,
    publicUrl,
    host: get('--host') ?? env.HOST ?? '127.0.0.1',
    platformPublicKey: get('--platform-key') ?? env.ARENA_PLATFORM_KEY,
    quiet: argv.includes('--quiet'),
  };
}
