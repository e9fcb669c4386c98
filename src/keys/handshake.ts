// Bot handshakes (spec section 5): the service signs `<timestamp>.<matchId>`
// with the platform key on every WebSocket upgrade; a bot may verify it.
// That message names no recipient, so a bot's owner can replay a handshake
// their bot received to any other bot within the window. The audience-bound
// extension (docs/protocol.md) adds the URL the upgrade was sent to and a
// fresh nonce under a second signature; a bot checking it refuses handshakes
// meant for another bot and replays of its own.
import { randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { decodeBase64 } from './base64';
import { cachedPublicKey } from './der';
import { parseTimestamp, requiredHeaders, type HeaderBag } from './headers';

export type { HeaderBag };

export const HANDSHAKE_WINDOW_MS = 30_000;

export type HandshakeHeaders = { 'x-svc-match': string; 'x-svc-timestamp': string; 'x-svc-signature': string };
export type HandshakeResult = { ok: true; matchId: string } | { ok: false; reason: string };

export function handshakeMessage(timestamp: string, matchId: string): Buffer {
  return Buffer.from(`${timestamp}.${matchId}`, 'utf8');
}

export function signHandshake(privateKey: KeyObject, matchId: string, now: number = Date.now()): HandshakeHeaders {
  if (!matchId) throw new TypeError('signHandshake: matchId must be a non-empty string');
  const timestamp = String(Math.floor(now));
  const signature = sign(null, handshakeMessage(timestamp, matchId), privateKey).toString('base64');
  return { 'x-svc-match': matchId, 'x-svc-timestamp': timestamp, 'x-svc-signature': signature };
}

/** Verifies an upgrade request's handshake headers against the platform public key. */
export function verifyHandshake(
  publicKey: Uint8Array | KeyObject,
  headers: HeaderBag,
  now: number = Date.now(),
  windowMs: number = HANDSHAKE_WINDOW_MS,
): HandshakeResult {
  const got = requiredHeaders(headers, ['x-svc-match', 'x-svc-timestamp', 'x-svc-signature']);
  if (!got.ok) return got;
  const [matchId, ts, sig] = got.values;
  const late = skewProblem(ts, now, windowMs);
  if (late) return { ok: false, reason: late };
  const signature = decodeBase64(sig);
  if (signature?.length !== 64)
    return { ok: false, reason: 'x-svc-signature is not base64 of a 64-byte Ed25519 signature' };
  const key = toKeyObject(publicKey);
  if (!key) return { ok: false, reason: 'platform public key is not 32 bytes' };
  if (!verify(null, handshakeMessage(ts, matchId), key, signature)) {
    return { ok: false, reason: 'signature does not verify for this match id and timestamp with the platform key' };
  }
  return { ok: true, matchId };
}

export type BoundHandshakeHeaders = HandshakeHeaders & {
  'x-svc-audience': string;
  'x-svc-nonce': string;
  'x-svc-audience-signature': string;
};

/** 16 random bytes, base64url without padding: 22 characters. */
const NONCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export function newHandshakeNonce(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The audience as both sides write it: the WHATWG-normalized URL of the
 * socket (`new URL(url).href`), http(s) read as ws(s) since that is what the
 * arena connects to (a bot registered as https://x/ is reached at wss://x/),
 * without a fragment (never sent). Throws a TypeError for a non-URL.
 */
export function handshakeAudience(url: string): string {
  const parsed = new URL(url);
  const scheme: Record<string, string> = { 'http:': 'ws:', 'https:': 'wss:' };
  if (scheme[parsed.protocol]) parsed.protocol = scheme[parsed.protocol];
  parsed.hash = '';
  return parsed.href;
}

export function boundHandshakeMessage(timestamp: string, matchId: string, nonce: string, audience: string): Buffer {
  return Buffer.from(`${timestamp}.${matchId}.${nonce}.${audience}`, 'utf8');
}

/** The spec's three headers plus the extension's three, one timestamp for both signatures. */
export function signBoundHandshake(
  privateKey: KeyObject,
  matchId: string,
  audienceUrl: string,
  now: number = Date.now(),
  nonce: string = newHandshakeNonce(),
): BoundHandshakeHeaders {
  const spec = signHandshake(privateKey, matchId, now);
  const audience = handshakeAudience(audienceUrl);
  const message = boundHandshakeMessage(spec['x-svc-timestamp'], matchId, nonce, audience);
  const signature = sign(null, message, privateKey).toString('base64');
  return { ...spec, 'x-svc-audience': audience, 'x-svc-nonce': nonce, 'x-svc-audience-signature': signature };
}

/**
 * Nonces of accepted handshakes, each kept until its timestamp can no longer
 * pass the skew check (30 s after the later of now and the timestamp), so a
 * replay inside the window is refused. Bounded: only handshakes that passed
 * every other check are remembered (an outsider cannot fill it), and when it
 * is full it refuses rather than forget a live nonce, which would let a
 * replay through.
 */
export class NonceMemory {
  private readonly expiry = new Map<string, number>();
  private nextSweep = 0;

  constructor(
    readonly ttlMs: number = HANDSHAKE_WINDOW_MS,
    readonly capacity: number = 10_000,
  ) {}

  get size(): number {
    return this.expiry.size;
  }

  /** Records the nonce: 'new', 'replayed' (seen and still live) or 'full'. */
  admit(nonce: string, now: number, timestamp: number = now): 'new' | 'replayed' | 'full' {
    if (now >= this.nextSweep || this.expiry.size >= this.capacity) this.sweep(now);
    const until = this.expiry.get(nonce);
    if (until !== undefined && until > now) return 'replayed';
    if (this.expiry.size >= this.capacity) return 'full';
    this.expiry.set(nonce, Math.max(now, timestamp) + this.ttlMs);
    return 'new';
  }

  private sweep(now: number): void {
    for (const [nonce, until] of this.expiry) if (until <= now) this.expiry.delete(nonce);
    // A sweep is O(size); once a second at most unless the memory is full.
    this.nextSweep = now + 1000;
  }
}

/**
 * The check a bot should do (docs/protocol.md): the audience is this bot's own
 * public URL (from its configuration, never the Host header), the second
 * signature verifies over `<timestamp>.<matchId>.<nonce>.<audience>`, the
 * timestamp is within the window, and the nonce was not seen before. The
 * nonce is remembered only when everything else holds.
 */
export function verifyBoundHandshake(
  publicKey: Uint8Array | KeyObject,
  headers: HeaderBag,
  ownPublicUrl: string,
  nonceMemory: NonceMemory,
  now: number = Date.now(),
  windowMs: number = HANDSHAKE_WINDOW_MS,
): HandshakeResult {
  const got = requiredHeaders(headers, [
    'x-svc-match',
    'x-svc-timestamp',
    'x-svc-audience',
    'x-svc-nonce',
    'x-svc-audience-signature',
  ]);
  if (!got.ok) return got;
  const [matchId, ts, audience, nonce, sig] = got.values;
  let own: string;
  try {
    own = handshakeAudience(ownPublicUrl);
  } catch {
    return { ok: false, reason: "this bot's own public URL is not a valid URL" };
  }
  if (audience !== own)
    return {
      ok: false,
      reason: "x-svc-audience is not this bot's public URL: the handshake was meant for another bot",
    };
  if (!NONCE_PATTERN.test(nonce))
    return { ok: false, reason: 'x-svc-nonce is not 16 bytes of base64url (22 characters)' };
  const late = skewProblem(ts, now, windowMs);
  if (late) return { ok: false, reason: late };
  const signature = decodeBase64(sig);
  if (signature?.length !== 64)
    return { ok: false, reason: 'x-svc-audience-signature is not base64 of a 64-byte Ed25519 signature' };
  const key = toKeyObject(publicKey);
  if (!key) return { ok: false, reason: 'platform public key is not 32 bytes' };
  if (!verify(null, boundHandshakeMessage(ts, matchId, nonce, audience), key, signature)) {
    return {
      ok: false,
      reason:
        'x-svc-audience-signature does not verify for this match id, timestamp, nonce and audience with the platform key',
    };
  }
  // skewProblem passed, so the timestamp parses.
  const admitted = nonceMemory.admit(nonce, now, parseTimestamp(ts)!);
  if (admitted === 'replayed') return { ok: false, reason: 'x-svc-nonce was seen before: a replayed handshake' };
  if (admitted === 'full')
    return { ok: false, reason: 'too many handshakes in the last 30 s to remember their nonces' };
  return { ok: true, matchId };
}

function toKeyObject(key: Uint8Array | KeyObject): KeyObject | undefined {
  if (key instanceof Uint8Array) return key.length === 32 ? cachedPublicKey(key) : undefined;
  return key;
}

/** Why x-svc-timestamp is refused (not a time, or outside the window), or null when it is fine. */
function skewProblem(ts: string, now: number, windowMs: number): string | null {
  const timestamp = parseTimestamp(ts);
  if (timestamp === undefined) return 'x-svc-timestamp is not unix milliseconds (digits only)';
  const skew = timestamp - now;
  if (Math.abs(skew) > windowMs)
    return `x-svc-timestamp is ${Math.abs(skew)} ms ${skew < 0 ? 'old' : 'in the future'}; allowed skew is ${windowMs} ms`;
  return null;
}
