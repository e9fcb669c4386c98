// Rate limit by client address, for routes anyone may call.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps } from './deps';
import type { AppEnv } from './env';
import { ApiError } from './errors';
import { RateLimiter } from './rate-limit';

export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function addressLimit(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const limiter = new RateLimiter(deps.rateLimits.address, deps.now);
  return async (c, next) => {
    const wait = limiter.take(clientAddress(c));
    if (wait > 0) {
      deps.metrics.rateLimited();
      throw new ApiError('rate_limited', `too many requests from this address; retry in ${wait} s`, { 'Retry-After': String(wait) });
    }
    await next();
  };
}
