// Asks a server whether it accepts a key, before `arena login` saves it: one
// signed GET /me, with short timeouts (a login should not wait minutes on a
// server that does not answer).
import type { KeyObject } from 'node:crypto';
import { Agent } from 'undici';
import { ApiError, callRaw } from './api';

export type KeyCheck =
  /** The server verified the signature. `handle` when the key may also read the account (scope account.read). */
  | { outcome: 'accepted'; handle?: string }
  /** The server refused the key itself (401): unknown, revoked, a bad signature, a clock too far off. */
  | { outcome: 'refused'; reason: string }
  /** No verdict: the server could not be reached, or answered something else (not an arena, a 5xx). */
  | { outcome: 'unknown'; reason: string };

/** `timeoutMs` bounds the connect, the answer's headers and its body, each. */
export async function checkKey(opts: {
  baseUrl: string;
  keyId: string;
  privateKey: KeyObject;
  timeoutMs: number;
}): Promise<KeyCheck> {
  const ms = opts.timeoutMs;
  const dispatcher = new Agent({ connectTimeout: ms, headersTimeout: ms, bodyTimeout: ms });
  try {
    const res = await callRaw(
      { baseUrl: opts.baseUrl, keyId: opts.keyId, privateKey: opts.privateKey, dispatcher },
      'GET',
      '/me',
    );
    // A redirect (http to https, say) is no verdict on the key.
    if (res.status !== 200) return { outcome: 'unknown', reason: `HTTP ${res.status}` };
    const name = handleOf(res.body);
    return name === undefined ? { outcome: 'accepted' } : { outcome: 'accepted', handle: name };
  } catch (err) {
    if (err instanceof ApiError) {
      // 403: the signature passed and the key lacks account.read, which only /me needs.
      if (err.status === 403) return { outcome: 'accepted' };
      const reason =
        err.code === 'http_error' ? `HTTP ${err.status}` : `HTTP ${err.status} ${err.code}: ${err.serverMessage}`;
      if (err.status === 401) return { outcome: 'refused', reason };
      return {
        outcome: 'unknown',
        reason: err.status === 404 ? `${reason}; is ${opts.baseUrl} an arena server's base URL?` : reason,
      };
    }
    // Best effort: whatever else went wrong (no connection, a timeout while reading), there is no verdict.
    return { outcome: 'unknown', reason: err instanceof Error ? err.message : String(err) };
  } finally {
    await dispatcher.close().catch(() => {});
  }
}

/** The account's handle from GET /me's answer, if it has one. */
function handleOf(body: Buffer): string | undefined {
  try {
    const name = (JSON.parse(body.toString('utf8')) as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
