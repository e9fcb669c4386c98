// Asks a server whether it accepts a key, before `arena login` saves it: one
// signed GET /me, with short timeouts (a login should not wait minutes on a
// server that does not answer).
import type { KeyObject } from 'node:crypto';
import { Agent } from 'undici';
import { ErrorBodySchema } from '../protocol/api';
import { sendSigned } from './signed-request';

export type KeyCheck =
  /** The server verified the signature. `handle` when the key may also read the account (scope account.read). */
  | { outcome: 'accepted'; handle?: string }
  /** The server refused the key itself (401): unknown, revoked, a bad signature, a clock too far off. */
  | { outcome: 'refused'; reason: string }
  /** No verdict: the server could not be reached, or answered something else (not an arena, a 5xx). */
  | { outcome: 'unknown'; reason: string };

/** `timeoutMs` bounds the connect, the answer's headers and its body, each. */
export async function checkKey(opts: { baseUrl: string; keyId: string; privateKey: KeyObject; timeoutMs: number }): Promise<KeyCheck> {
  const ms = opts.timeoutMs;
  const dispatcher = new Agent({ connectTimeout: ms, headersTimeout: ms, bodyTimeout: ms });
  try {
    const res = await sendSigned({ baseUrl: opts.baseUrl, keyId: opts.keyId, privateKey: opts.privateKey, method: 'GET', path: '/me', dispatcher });
    if (res.status === 200) {
      const name = (parseJson(res.body) as { name?: unknown } | undefined)?.name;
      return typeof name === 'string' ? { outcome: 'accepted', handle: name } : { outcome: 'accepted' };
    }
    // 403: the signature passed and the key lacks account.read, which only /me needs.
    if (res.status === 403) return { outcome: 'accepted' };
    const reason = `HTTP ${res.status}${describe(res.body)}`;
    if (res.status === 401) return { outcome: 'refused', reason };
    return { outcome: 'unknown', reason: res.status === 404 ? `${reason}; is ${opts.baseUrl} an arena server's base URL?` : reason };
  } catch (err) {
    // Best effort: whatever went wrong (no connection, a timeout while reading), there is no verdict.
    return { outcome: 'unknown', reason: err instanceof Error ? err.message : String(err) };
  } finally {
    await dispatcher.close().catch(() => {});
  }
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** ` code: message` from the decisions' error body, if it is one. */
function describe(body: Buffer): string {
  const parsed = ErrorBodySchema.safeParse(parseJson(body));
  return parsed.success ? ` ${parsed.data.error.code}: ${parsed.data.error.message}` : '';
}
