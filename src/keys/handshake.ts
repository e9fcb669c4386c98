// Bot handshakes (spec section 5): the service signs `<timestamp>.<matchId>`
// with the platform key on every WebSocket upgrade; a bot may verify it.
import { sign, verify, type KeyObject } from 'node:crypto';
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
  const timestamp = parseTimestamp(ts);
  if (timestamp === undefined) return { ok: false, reason: 'x-svc-timestamp is not unix milliseconds (digits only)' };
  const skew = timestamp - now;
  if (Math.abs(skew) > windowMs) {
    return { ok: false, reason: `x-svc-timestamp is ${Math.abs(skew)} ms ${skew < 0 ? 'old' : 'in the future'}; allowed skew is ${windowMs} ms` };
  }
  const signature = decodeBase64(sig);
  if (!signature || signature.length !== 64) return { ok: false, reason: 'x-svc-signature is not base64 of a 64-byte Ed25519 signature' };
  const key = toKeyObject(publicKey);
  if (!key) return { ok: false, reason: 'platform public key is not 32 bytes' };
  if (!verify(null, handshakeMessage(ts, matchId), key, signature)) {
    return { ok: false, reason: 'signature does not verify for this match id and timestamp with the platform key' };
  }
  return { ok: true, matchId };
}

function toKeyObject(key: Uint8Array | KeyObject): KeyObject | undefined {
  if (key instanceof Uint8Array) return key.length === 32 ? cachedPublicKey(key) : undefined;
  return key;
}
