// Sends one signed management request with undici. The signature covers the
// path as it appears on the request line, so a base URL with a path prefix
// (https://host/api) signs `/api/bots`, which is what the server sees.
import type { KeyObject } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import { signRequest } from '../keys/request';

export interface SignedRequest {
  baseUrl: string;
  keyId: string;
  privateKey: KeyObject;
  method: string;
  /** Path with optional query, starting with "/". */
  path: string;
  body?: Uint8Array;
  /** Extra headers; cannot override the x-svc-* signature headers. */
  headers?: Record<string, string>;
  dispatcher?: Dispatcher;
  now?: number;
}

export interface SignedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

import { ClientError, unreachable } from './errors';
import { readAnswer } from './read-limited';

export { ClientError };

/**
 * The URL to request and the path to sign: the path as the request line will
 * carry it (percent-encoded, dot segments resolved), which is what the server
 * verifies. Signing the text as typed would fail for `/bots?name=a b` or `/a/../me`.
 */
export function requestTarget(baseUrl: string, path: string): { url: string; signedPath: string } {
  if (!path.startsWith('/')) throw new ClientError(`path must start with "/", got ${JSON.stringify(path)}`);
  if (path.includes('#'))
    throw new ClientError(
      `path must not contain "#" (a fragment is never sent; write %23 in a query value), got ${JSON.stringify(path)}`,
    );
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  // Joined as text, not resolved against the base: a path starting "//" must not name another host.
  const target = new URL(base.origin + prefix + path);
  const signedPath = target.pathname + target.search;
  return { url: target.origin + signedPath, signedPath };
}

export async function sendSigned(req: SignedRequest): Promise<SignedResponse> {
  const method = req.method.toUpperCase();
  const { url, signedPath } = requestTarget(req.baseUrl, req.path);
  const body = req.body && req.body.length > 0 ? req.body : undefined;
  const signed = signRequest(req.privateKey, req.keyId, { method, path: signedPath, body }, req.now);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) {
    if (!k.toLowerCase().startsWith('x-svc-')) headers[k.toLowerCase()] = v;
  }
  if (body && !headers['content-type']) headers['content-type'] = 'application/json';
  Object.assign(headers, signed);
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body: body && Buffer.from(body),
      dispatcher: req.dispatcher,
    });
  } catch (err) {
    throw unreachable(url, err);
  }
  const bytes = await readAnswer(res.body, url);
  return { status: res.statusCode, headers: res.headers, body: bytes };
}
