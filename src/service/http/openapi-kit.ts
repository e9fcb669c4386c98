// Shared pieces of route definitions: the error responses every route may
// give, JSON bodies, and how a route declares its scope.
import { z } from 'zod';
import { ErrorBodySchema } from '../../protocol/api';

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

const err = (description: string) => json(ErrorBodySchema, description);

/** The error responses of a route that needs authentication. */
export const AUTH_ERRORS = {
  400: err('invalid_request: bad JSON, or a field that does not fit the schema (the message names it)'),
  401: err(
    'unauthenticated: no or bad signature, stale timestamp, unknown or revoked key, replayed signature, no session',
  ),
  403: err('forbidden: the key lacks the scope, or the resource belongs to someone else'),
  413: err('too_large: body over 64 KiB'),
  429: err('rate_limited: see Retry-After'),
} as const;

export const PUBLIC_ERRORS = {
  400: err('invalid_request'),
  429: err('rate_limited: see Retry-After'),
} as const;

export const NOT_FOUND = { 404: err('not_found') } as const;
export const CONFLICT = { 409: err('conflict') } as const;
export const URL_ERRORS = {
  422: err('url_rejected (the URL check) or deploy_check_failed (/ping or the signed upgrade)'),
} as const;

/** Signed requests and the dashboard session, as OpenAPI security schemes. */
export const SECURITY: Array<Record<string, string[]>> = [{ signature: [] }, { session: [] }];
export const IdParam = z.object({ id: z.string().min(1).max(64) });

const LIMIT_ERROR = 'must be a whole number from 1 to 100';
/** A list page's `limit` query parameter: 1 to 100, default 20. */
export const PageLimit = z.coerce
  .number({ error: LIMIT_ERROR })
  .int({ error: LIMIT_ERROR })
  .min(1, { error: LIMIT_ERROR })
  .max(100, { error: LIMIT_ERROR })
  .default(20);
