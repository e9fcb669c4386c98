#!/usr/bin/env node
// A complete pioneers bot in plain Node.js (ESM, no build step) with one
// dependency: ws.
//
// Run:    npm install && npm start -- --port 8080
// Then:   arena bot check http://127.0.0.1:8080
//         arena play http://127.0.0.1:8080 builtin:random builtin:random --games 10
//
// The board's fixed geometry (which vertices a hex has, which vertices and
// edges touch) comes from board.json beside this file: the output of
// `arena board --json`. The view each decision carries holds the rest.
//
// Strategy: settle on the richest free vertices, then build a city, a
// settlement or a road whenever affordable, discard from the largest piles,
// send the bandit to an opponent, decline trades. Replace `decide`.
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { WebSocketServer } from 'ws';

const BOARD = JSON.parse(readFileSync(new URL('./board.json', import.meta.url), 'utf8'));
const HEX_VERTICES = BOARD.hexes.map((h) => h.vertices);
const VERTEX_NEIGHBOURS = BOARD.vertices.map((v) => v.neighbours);
const VERTEX_EDGES = BOARD.vertices.map((v) => v.edges);
const VERTEX_HEXES = BOARD.vertices.map((v) => v.hexes);
const EDGE_VERTICES = BOARD.edges.map((e) => e.vertices);

const RESOURCES = ['brick', 'lumber', 'wool', 'grain', 'ore'];
const COSTS = {
  road: { brick: 1, lumber: 1 },
  settlement: { brick: 1, lumber: 1, wool: 1, grain: 1 },
  city: { grain: 2, ore: 3 },
};
const LIMITS = { road: 15, settlement: 5, city: 4 };
/** Dots under a number token: how many of the 36 dice rolls pay it. */
const PIPS = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };

// ------------------------------------------------------------------ the strategy

/** One legal answer for a DecisionRequest's kind and view. */
export function decide(kind, view) {
  switch (kind) {
    case 'setup':
      return setup(view);
    case 'turn':
      return turn(view);
    case 'discard':
      return discard(view);
    case 'bandit':
      return bandit(view);
    case 'trade':
      return { accept: false }; // never help an opponent
    default:
      throw new Error(`unknown decision kind ${kind}`);
  }
}

/** How much a town on v produces: the sum of its hexes' pips. */
function vertexValue(view, v) {
  return VERTEX_HEXES[v].reduce((n, h) => n + (PIPS[view.board.hexes[h].token ?? 0] ?? 0), 0);
}

function townAt(view) {
  return new Map(view.towns.map((t) => [t.vertex, t]));
}

/** The distance rule: v and all its neighbours are town-free. */
function freeForTown(v, towns) {
  return !towns.has(v) && VERTEX_NEIGHBOURS[v].every((n) => !towns.has(n));
}

function canAfford(hand, cost) {
  return Object.entries(cost).every(([r, n]) => (hand[r] ?? 0) >= n);
}

/** The highest-scoring item; ties go to the first. */
function best(items, score) {
  return items.reduce((a, b) => (score(b) > score(a) ? b : a));
}

function setup(view) {
  const towns = townAt(view);
  const roads = new Set(view.roads.map((r) => r.edge));
  const free = VERTEX_NEIGHBOURS.map((_, v) => v).filter((v) => freeForTown(v, towns));
  const settlement = best(free, (v) => vertexValue(view, v));
  const road = VERTEX_EDGES[settlement].find((e) => !roads.has(e));
  return { settlement, road };
}

/** Empty edges connected to the seat's network, not through an opponent's town. */
function roadEdges(view) {
  const me = view.seat;
  const towns = townAt(view);
  const owner = new Map(view.roads.map((r) => [r.edge, r.seat]));
  return EDGE_VERTICES.map((_, e) => e).filter(
    (e) =>
      !owner.has(e) &&
      EDGE_VERTICES[e].some((v) => {
        const town = towns.get(v);
        if (town) return town.seat === me;
        return VERTEX_EDGES[v].some((f) => f !== e && owner.get(f) === me);
      }),
  );
}

function settlementVertices(view) {
  const towns = townAt(view);
  const ownRoad = new Set(view.roads.filter((r) => r.seat === view.seat).map((r) => r.edge));
  return VERTEX_NEIGHBOURS.map((_, v) => v).filter(
    (v) => freeForTown(v, towns) && VERTEX_EDGES[v].some((e) => ownRoad.has(e)),
  );
}

function turn(view) {
  const hand = view.hand;
  const mine = view.towns.filter((t) => t.seat === view.seat);
  const settlements = mine.filter((t) => !t.city).map((t) => t.vertex);
  const cities = mine.length - settlements.length;
  const roads = view.roads.filter((r) => r.seat === view.seat).length;
  if (settlements.length && cities < LIMITS.city && canAfford(hand, COSTS.city)) {
    return { type: 'build_city', vertex: best(settlements, (v) => vertexValue(view, v)) };
  }
  if (settlements.length < LIMITS.settlement && canAfford(hand, COSTS.settlement)) {
    const spots = settlementVertices(view);
    if (spots.length) return { type: 'build_settlement', vertex: best(spots, (v) => vertexValue(view, v)) };
  }
  if (roads < LIMITS.road && canAfford(hand, COSTS.road)) {
    const edges = roadEdges(view);
    if (edges.length) return { type: 'build_road', edge: edges[0] };
  }
  return { type: 'end_turn' };
}

/** Exactly half the hand, rounded down, one card at a time from the largest pile. */
function discard(view) {
  const hand = Object.fromEntries(RESOURCES.map((r) => [r, view.hand[r] ?? 0]));
  let owed = Math.floor(Object.values(hand).reduce((a, b) => a + b, 0) / 2);
  const cards = {};
  for (; owed > 0; owed--) {
    const r = best(RESOURCES, (x) => hand[x]);
    hand[r]--;
    cards[r] = (cards[r] ?? 0) + 1;
  }
  return { cards };
}

/**
 * A hex other than the bandit's where an opponent has a town and we have none; the opponent holding most cards is
 * robbed.
 */
function bandit(view) {
  const me = view.seat;
  const current = view.board.bandit;
  const towns = townAt(view);
  let choice;
  let bestScore = -1;
  HEX_VERTICES.forEach((verts, h) => {
    if (h === current) return;
    const seats = verts.filter((v) => towns.has(v)).map((v) => towns.get(v).seat);
    const victims = seats.filter((s) => s !== me);
    if (!victims.length || seats.includes(me)) return;
    const victim = best(victims, (s) => view.handCounts[s]);
    const score = view.handCounts[victim] * 10 + victims.length;
    if (score > bestScore) [bestScore, choice] = [score, { hex: h, victim }];
  });
  return choice ?? { hex: current === 0 ? 1 : 0 };
}

// ------------------------------------------------ verifying the arena's handshake

/** How far a handshake's timestamp may be from our clock, and how long a nonce is remembered. */
const WINDOW_MS = 30_000;
/**
 * Bounded memory: past this many live nonces a handshake is refused (only validly signed ones are stored, so only the
 * arena can fill it).
 */
const MAX_NONCES = 10_000;
/** DER header of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The platform's public key from base64 of its 32 raw bytes (`arena play --print-platform-key`). */
export function platformKey(base64) {
  const raw = Buffer.from(base64, 'base64');
  if (raw.length !== 32)
    throw new Error('--platform-key must be base64 of 32 raw bytes (print it with `arena play --print-platform-key`)');
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/**
 * Checks the arena's signed upgrade. The spec's form: `x-svc-signature` is
 * Ed25519 by the platform key over `<x-svc-timestamp>.<x-svc-match>`, the
 * timestamp within 30 s. That names no bot, so another bot's owner could
 * replay one their bot received to us: the audience-bound form is required
 * too, `x-svc-audience` (the URL the arena dialled, which must be ours),
 * `x-svc-nonce` (never accepted twice) and `x-svc-audience-signature` over
 * `<timestamp>.<match>.<nonce>.<audience>`. A handshake without those three
 * is refused: otherwise stripping them from a captured one would replay it.
 * Returns undefined when it passes, else the reason.
 */
export function handshakeProblem(headers, { key, audience, nonces }, now = Date.now()) {
  const one = (name) => (typeof headers[name] === 'string' ? headers[name] : undefined);
  const match = one('x-svc-match');
  const stamp = one('x-svc-timestamp');
  const signature = one('x-svc-signature');
  if (!match || !stamp || !signature) return 'unsigned: x-svc-match, x-svc-timestamp and x-svc-signature are required';
  if (!/^\d{1,16}$/.test(stamp) || Math.abs(Number(stamp) - now) > WINDOW_MS) return 'stale or bad x-svc-timestamp';
  if (!signedBy(key, `${stamp}.${match}`, signature)) return 'bad x-svc-signature';
  const [claimed, nonce, audienceSignature] = ['x-svc-audience', 'x-svc-nonce', 'x-svc-audience-signature'].map(one);
  if (!claimed || !nonce || !audienceSignature)
    return 'not audience-bound: x-svc-audience, x-svc-nonce and x-svc-audience-signature are required';
  if (claimed !== audience) return "x-svc-audience is not this bot's URL";
  if (!/^[A-Za-z0-9_-]{22}$/.test(nonce)) return 'bad x-svc-nonce';
  if (!signedBy(key, `${stamp}.${match}.${nonce}.${claimed}`, audienceSignature)) return 'bad x-svc-audience-signature';
  for (const [n, until] of nonces) {
    if (until > now) break; // insertion order is expiry order but for clock jumps; good enough to bound memory
    nonces.delete(n);
  }
  if (nonces.has(nonce)) return 'x-svc-nonce seen before (a replayed handshake)';
  // Forgetting a live nonce would let its replay through: refuse instead.
  if (nonces.size >= MAX_NONCES) return 'too many handshakes in the last 30 s to remember their nonces';
  // Kept until the timestamp can no longer pass the window check either.
  nonces.set(nonce, Math.max(now, Number(stamp)) + WINDOW_MS);
  return undefined;
}

/**
 * The audience as the arena writes it: `new URL(url).href` of the socket URL,
 * http(s) read as ws(s) (a bot registered as https://x/ is dialled at
 * wss://x/), no fragment. Throws for anything but a ws(s) or http(s) URL.
 */
export function handshakeAudience(url) {
  const parsed = new URL(url);
  const scheme = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' }[parsed.protocol];
  if (!scheme) throw new TypeError(`not a ws(s):// or http(s):// URL: ${url}`);
  parsed.protocol = scheme;
  parsed.hash = '';
  return parsed.href;
}

function signedBy(key, message, base64) {
  const sig = Buffer.from(base64, 'base64');
  return sig.length === 64 && verify(null, Buffer.from(message), key, sig);
}

// ------------------------------------------------------------------ the server

/**
 * Starts the bot: GET /ping answers pong; every WebSocket upgrade (one per
 * match) is checked when a platform key is given, then each DecisionRequest
 * frame is answered with {id, action}. Resolves with {url, port, audience, close}.
 */
export async function startBot({
  port = 8080,
  host = '127.0.0.1',
  platformKey: keyText,
  publicUrl,
  log = () => {},
} = {}) {
  const key = keyText ? platformKey(keyText) : undefined;
  // A bad public URL fails here, before listening, not at every upgrade.
  const configured = publicUrl === undefined ? undefined : handshakeAudience(publicUrl);
  const nonces = new Map();
  let audience;
  const http = createServer((req, res) => {
    if (req.method === 'GET' && req.url.split('?')[0].replace(/\/+$/, '').endsWith('/ping')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('pong');
      return;
    }
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end('not found: this is a bot; the arena connects by WebSocket\n');
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  http.on('upgrade', (req, socket, head) => {
    if (key) {
      const problem = handshakeProblem(req.headers, { key, audience, nonces });
      if (problem) {
        log(`refused upgrade: ${problem}`);
        socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
    }
    wss.handleUpgrade(req, socket, head, (ws) => play(ws, log));
  });
  await new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, resolve);
  });
  const bound = http.address().port;
  const shown = host.includes(':') ? `[${host}]` : host;
  // Our own URL comes from configuration, never from the request's Host header.
  const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : shown;
  audience = configured ?? handshakeAudience(`ws://${local}:${bound}/`);
  return {
    url: `http://${shown}:${bound}`,
    port: bound,
    audience,
    close: () =>
      new Promise((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function play(ws, log) {
  ws.on('error', () => {}); // a dropped socket ends the match for us; nothing to do
  ws.on('message', (data) => {
    let request;
    try {
      request = JSON.parse(data.toString());
    } catch {
      log('ignored a frame that is not JSON');
      return;
    }
    let action = null;
    try {
      action = decide(request.kind, request.view);
    } catch (err) {
      // Answer at once: the arena plays its default and counts a strike, but does not wait out the deadline.
      log(`decide failed (${err.message}); sent no action`);
    }
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: request.id, action }));
    log(`seat ${request.seat} ${request.kind} -> ${JSON.stringify(action)}`);
  });
}

/**
 * --port N --host H --platform-key B64 --public-url URL --quiet (or $PORT, $HOST, $ARENA_PLATFORM_KEY,
 * $BOT_PUBLIC_URL).
 */
function parseArgs(argv, env) {
  const get = (flag) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(
      [
        'usage: node bot.mjs [--port N] [--host H] [--platform-key BASE64] [--public-url URL] [--quiet]',
        '  --port N            default 8080, or $PORT; 0 picks a free port',
        '  --host H            default 127.0.0.1, or $HOST',
        '  --platform-key B64  verify every handshake (401 otherwise); $ARENA_PLATFORM_KEY; `arena play --print-platform-key`',
        '  --public-url URL    the URL the arena connects to, as registered (https counts as wss), for the audience check; $BOT_PUBLIC_URL; default ws://<host>:<port>/',
        '  --quiet             no per-decision log',
        '',
      ].join('\n'),
    );
    process.exit(0);
  }
  const portText = get('--port') ?? env.PORT ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) fail(`--port must be a port number 0-65535, got "${portText}"`);
  const publicUrl = get('--public-url') ?? env.BOT_PUBLIC_URL;
  if (publicUrl !== undefined) {
    try {
      handshakeAudience(publicUrl);
    } catch {
      fail(
        `--public-url must be a URL such as wss://bot.example.org/ (the one the arena connects to), got "${publicUrl}"`,
      );
    }
  }
  return {
    port,
    host: get('--host') ?? env.HOST ?? '127.0.0.1',
    platformKey: get('--platform-key') ?? env.ARENA_PLATFORM_KEY,
    publicUrl,
    quiet: argv.includes('--quiet'),
  };
}

function fail(message) {
  process.stderr.write(`bot: ${message}\n`);
  process.exit(2);
}

// `npm start` (node bot.mjs): run as a program.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const opts = parseArgs(process.argv.slice(2), process.env);
  let bot;
  try {
    bot = await startBot({
      ...opts,
      log: opts.quiet ? undefined : (line) => process.stderr.write(`javascript-bot: ${line}\n`),
    });
  } catch (err) {
    fail(err.message);
  }
  // Scripts and tests read the address from this line.
  process.stdout.write(
    `javascript bot listening on ${bot.url}${opts.platformKey ? ` (verifying handshakes for ${bot.audience})` : ''}\n`,
  );
  process.on('SIGINT', () => void bot.close().then(() => process.exit(0)));
  process.on('SIGTERM', () => void bot.close().then(() => process.exit(0)));
}
