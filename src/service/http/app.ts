// The HTTP API of `arena serve`: one hono app whose routes are defined with
// zod schemas (validation, types and openapi.json from one definition).
import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { MAX_BODY_BYTES } from '../../protocol/api';
import { Authenticator, SAFE_METHODS } from './auth';
import { addressLimit } from './client-limit';
import type { AppDeps } from './deps';
import type { AppEnv } from './env';
import { ApiError, describeIssues, errorResponse } from './errors';
import { StoreUnavailable } from '../store/types';
import { openApiDocument, registerProtocolComponents } from './openapi';
import { accountRoutes } from './routes/account';
import { botRoutes } from './routes/bots';
import { keyRoutes } from './routes/keys';
import { matchRoutes } from './routes/matches';
import { metaRoutes } from './routes/meta';
import { ownerRoutes } from './routes/owner';
import { readHeadersFromNode, requestHeader, responseHeader } from './node-io';
import { signInRoutes } from './routes/signin';
import { mountDashboard } from '../dashboard';
import { opponentRoutes } from './routes/opponents';
import { challengeRoutes } from './routes/challenges';

import { webhookRoutes } from './routes/webhooks';

export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return errorResponse(c, 'invalid_request', describeIssues(result.error.issues));
    },
  });

  // A proxy in front that the server was not told of: every client behind it shares the proxy's
  // address, and so its rate limits. Said once, in the log the operator reads.
  let proxyNoted = deps.trustProxy === true;
  // One log line and one metric per request (no-store on what credentials unlocked: Authenticator.caller).
  app.use('*', async (c, next) => {
    readHeadersFromNode(c);
    if (!proxyNoted && requestHeader(c, 'x-forwarded-for') !== undefined) {
      proxyNoted = true;
      deps.log({
        event: 'proxy.untrusted',
        note: 'requests carry X-Forwarded-For, so a proxy is in front: without --trust-proxy every client behind it shares its address and rate limits',
      });
    }
    const started = performance.now();
    const requestId = randomUUID();
    c.set('requestId', requestId);
    // Set before the handler runs: a header set on a finished response makes hono rebuild it (a full Response per
    // request).
    responseHeader(c, 'X-Request-Id', requestId);
    await next();
    const caller = c.get('caller');
    const route = c.req.routePath;
    deps.metrics.request(route, c.req.method, c.res.status);
    deps.log({
      event: 'request',
      method: c.req.method,
      route,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...(caller?.keyId ? { keyId: caller.keyId } : caller ? { userId: caller.userId } : {}),
      requestId,
    });
  });

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => errorResponse(c, 'too_large', `the body is over ${MAX_BODY_BYTES} bytes`),
  });
  // Bodyless methods skip it: asking for a body makes @hono/node-server build a full web Request per request.
  // No route reads a body on them (rawBody treats them as empty).
  app.use('*', (c, next) => (SAFE_METHODS.has(c.req.method) ? next() : limitBody(c, next)));

  app.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err.code, err.message, err.headers);
    if (err instanceof StoreUnavailable)
      return errorResponse(c, 'unavailable', "the arena's database is unavailable; retry shortly", {
        'Retry-After': String(err.retryAfterSeconds),
      });
    if (err instanceof HTTPException && err.status === 400)
      return errorResponse(c, 'invalid_request', `body: ${err.message || 'not valid JSON'}`);
    if (err instanceof HTTPException && err.status === 413)
      return errorResponse(c, 'too_large', `the body is over ${MAX_BODY_BYTES} bytes`);
    // zod-openapi's media-type gate: docs/decisions.md has no 415, so it is a bad request that says what to send.
    if (err instanceof HTTPException && err.status === 415)
      return errorResponse(c, 'invalid_request', 'body: send it as JSON with Content-Type: application/json');
    deps.log({
      event: 'error',
      requestId: c.get('requestId'),
      error: err instanceof Error ? err.message : String(err),
    });
    return errorResponse(c, 'internal', `internal error (request ${c.get('requestId')}); the operator's log has it`);
  });
  app.notFound((c) => errorResponse(c, 'not_found', `no route ${c.req.method} ${c.req.path}`));

  const auth = new Authenticator(deps);
  const limit = addressLimit(deps);
  registerProtocolComponents(app);
  // The web dashboard (dist/web): index.html at / and the page paths, hashed assets under /assets/,
  // and the page at API paths a browser opens (content negotiation): so before the API routes.
  mountDashboard(app);
  let doc: object | null = null;
  metaRoutes(app, deps, limit, () => (doc ??= openApiDocument(app, deps.baseUrl)));
  accountRoutes(app, deps, auth);
  keyRoutes(app, deps, auth);
  botRoutes(app, deps, auth);
  ownerRoutes(app, deps, auth);
  challengeRoutes(app, deps, auth);

  webhookRoutes(app, deps, auth);
  signInRoutes(app, deps, limit);
  matchRoutes(app, deps, limit);
  opponentRoutes(app, deps, limit);
  return app;
}
