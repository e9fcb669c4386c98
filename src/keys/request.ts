// Signed management requests (spec section 5): the message is
// `{timestamp}.{METHOD}.{path}.{body}` over the exact body bytes, carried in
// x-svc-key / x-svc-timestamp / x-svc-signature.
import { sign, verify, type KeyObject } from 'node:crypto';
import { decodeBase64 } from './base64';
import { cachedPublicKey } from './der';
import { parseTimestamp, requiredHeaders, type HeaderBag } from './headers';

export const REQUEST_WINDOW_MS = 5 * 60_000;

export type RequestHeaders = { 'x-svc-key': string; 'x-svc-timestamp': string; 'x-svc-signature': string };
export type RequestBody = Uint8Array | string | undefined;

/** Why a request failed; the service maps every one of these to 401 unauthenticated. */
export type RequestFailure =
  | 'missing_header'
  | 'bad_timestamp'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'unknown_key'
  | 'revoked_key'
  | 'bad_signature';

export type RequestVerification =
  | { ok: true; keyId: string; timestamp: number }
  | { ok: false; code: RequestFailure; reason: string };

/** What the key store returns for a key id; undefined when there is no such key. */
export type KeyRecord = { publicKey: Uint8Array | KeyObject; revoked: boolean };

export interface VerifyRequestInput {
  method: string;
  /** Path with query string, exactly as on the request line (e.g. `/bots?game=pioneers`). */
  path: string;
  /** The exact raw body bytes; empty or undefined for bodyless requests. */
  body?: RequestBody;
  headers: HeaderBag;
  lookupKey: (keyId: string) => KeyRecord | undefined;
  now?: number;
  windowMs?: number;
}

export function requestMessage(timestamp: string, method: string, path: string, body: RequestBody): Buffer {
  const head = Buffer.from(`${timestamp}.${method.toUpperCase()}.${path}.`, 'utf8');
  if (body === undefined || body.length === 0) return head;
  const bytes =
    typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.concat([head, bytes]);
}

export function signRequest(
  privateKey: KeyObject,
  keyId: string,
  req: { method: string; path: string; body?: RequestBody },
  now: number = Date.now(),
): RequestHeaders {
  if (!keyId) throw new TypeError('signRequest: keyId must be a non-empty string');
  if (!req.path.startsWith('/')) throw new TypeError(`signRequest: path must start with "/" (got "${req.path}")`);
  const timestamp = String(Math.floor(now));
  const signature = sign(null, requestMessage(timestamp, req.method, req.path, req.body), privateKey).toString(
    'base64',
  );
  return { 'x-svc-key': keyId, 'x-svc-timestamp': timestamp, 'x-svc-signature': signature };
}

/** Verifies a signed request; the key store plugs in through lookupKey. */
export function verifyRequest(input: VerifyRequestInput): RequestVerification {
  const now = input.now ?? Date.now();
  const windowMs = input.windowMs ?? REQUEST_WINDOW_MS;
  const got = requiredHeaders(input.headers, ['x-svc-key', 'x-svc-timestamp', 'x-svc-signature']);
  if (!got.ok) return { ok: false, code: 'missing_header', reason: got.reason };
  const [keyId, ts, sig] = got.values;
  const timestamp = parseTimestamp(ts);
  if (timestamp === undefined)
    return { ok: false, code: 'bad_timestamp', reason: 'x-svc-timestamp is not unix milliseconds (digits only)' };
  if (now - timestamp > windowMs) {
    return {
      ok: false,
      code: 'stale_timestamp',
      reason: `x-svc-timestamp is ${now - timestamp} ms old; allowed skew is ${windowMs} ms (check the client clock)`,
    };
  }
  if (timestamp - now > windowMs) {
    return {
      ok: false,
      code: 'future_timestamp',
      reason: `x-svc-timestamp is ${timestamp - now} ms in the future; allowed skew is ${windowMs} ms (check the client clock)`,
    };
  }
  const record = input.lookupKey(keyId);
  if (!record) return { ok: false, code: 'unknown_key', reason: `unknown key id ${JSON.stringify(keyId)}` };
  const signature = decodeBase64(sig);
  if (signature?.length !== 64) {
    return { ok: false, code: 'bad_signature', reason: 'x-svc-signature is not base64 of a 64-byte Ed25519 signature' };
  }
  const key = record.publicKey instanceof Uint8Array ? cachedPublicKey(record.publicKey) : record.publicKey;
  if (!verify(null, requestMessage(ts, input.method, input.path, input.body), key, signature)) {
    return {
      ok: false,
      code: 'bad_signature',
      reason: 'signature does not match this method, path, body and timestamp for this key',
    };
  }
  // Checked after the signature so only the key's holder learns it was revoked.
  if (record.revoked)
    return { ok: false, code: 'revoked_key', reason: `key ${JSON.stringify(keyId)} has been revoked` };
  return { ok: true, keyId, timestamp };
}
