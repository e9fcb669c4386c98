// The one error body of the API (docs/decisions.md): {"error": {"code", "message"}},
// always JSON, with docs/decisions.md's status for each code.
import type { Context } from 'hono';
import type { ErrorCode } from '../../protocol/api';

export const STATUS_OF: Record<ErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503> = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  url_rejected: 422,
  deploy_check_failed: 422,
  rate_limited: 429,
  internal: 500,
  // The store's database is away (StoreUnavailable); comes with Retry-After.
  unavailable: 503,
};

/** Thrown anywhere in a handler or middleware; onError turns it into the error body. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number {
    return STATUS_OF[this.code];
  }
}

/** A 429 that says when to retry (Retry-After, in seconds), counted in /metrics. */
export function rateLimited(metrics: { rateLimited(): void }, message: string, retryAfterSeconds: number): ApiError {
  metrics.rateLimited();
  return new ApiError('rate_limited', message, { 'Retry-After': String(retryAfterSeconds) });
}

export function errorResponse(
  c: Context,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return c.json({ error: { code, message } }, STATUS_OF[code], headers);
}

/** A zod issue list as one message naming the field: "scopes.0: Invalid option ...". */
export function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : 'body'}: ${i.message}`)
    .join('; ');
}
