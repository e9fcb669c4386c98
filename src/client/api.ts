// Typed, signed calls to the management API: every request signed with the
// caller's key (signed-request.ts), every answer checked against the
// protocol's zod schema, every error body ({"error":{"code","message"}}) turned
// into an ApiError that keeps the server's words.
import type { KeyObject } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ErrorBodySchema } from '../protocol/api';
import { ApiError } from './api-error';
import { ClientError } from './errors';
import { sendSigned, type SignedResponse } from './signed-request';

export { ApiError };

export interface ApiTarget {
  baseUrl: string;
  keyId: string;
  privateKey: KeyObject;
  dispatcher?: Dispatcher;
}

/** Sends one signed request; JSON bodies are serialised here so the signed bytes are the sent bytes. */
export async function callRaw(
  target: ApiTarget,
  method: string,
  path: string,
  body?: unknown,
): Promise<SignedResponse> {
  const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
  const res = await sendSigned({ ...target, method, path, body: bytes, headers: { accept: 'application/json' } });
  if (res.status >= 400) throw errorOf(res);
  return res;
}

/** A call whose 2xx answer must match `schema`. */
export async function callJson<S extends z.ZodType>(
  target: ApiTarget,
  method: string,
  path: string,
  schema: S,
  body?: unknown,
): Promise<z.infer<S>> {
  const res = await callRaw(target, method, path, body);
  return parseBody(res, schema, `${method} ${path}`);
}

export function parseBody<S extends z.ZodType>(res: SignedResponse, schema: S, what: string): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new ClientError(`${what}: the server answered HTTP ${res.status} without JSON; is the URL an arena server?`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ClientError(
      `${what}: the server's answer does not match the API (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'}); is the server a different version?`,
    );
  }
  return parsed.data;
}

function errorOf(res: SignedResponse): ApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const body = ErrorBodySchema.safeParse(parsed);
  if (body.success) return new ApiError(res.status, body.data.error.code, body.data.error.message);
  // Not the API's error body (a proxy's page, another server): keep it short and say so.
  const loose = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const code = typeof loose?.code === 'string' ? loose.code : 'http_error';
  const message = typeof loose?.message === 'string' ? loose.message : `the server answered HTTP ${res.status}`;
  return new ApiError(res.status, code, message);
}
