// Who is calling, per request: an Ed25519-signed request (spec section 5:
// key id, 5-minute window, exact body bytes; a revoked key fails at once; a
// signature seen before is a replay) or a dashboard session cookie (every
// scope; writes must come from our own origin). Then the route's scope.
// A signed request takes its key's rate-limit token before its signature is
// verified or remembered: a key over its limit costs no Ed25519 check and no
// replay-store entry, and its 429'd request may be sent again as it was.
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { cachedPublicKey } from '../../keys/der';
import { REQUEST_WINDOW_MS, verifyRequest } from '../../keys/index';
import { SCOPES, type Scope } from '../../protocol/api';
import { clientKey } from './client-limit';
import { DEFAULT_RATE_LIMITS, type AppDeps } from './deps';
import type { AppEnv, Caller } from './env';
import { ApiError, rateLimited } from './errors';
import { requestHeader, responseHeader } from './node-io';
import { RateLimiter } from './rate-limit';
import { ReplayCache, replayKey, type ReplayGuard } from './replay-cache';
import { batchPerTurn } from './turn-batch';

export const SESSION_COOKIE = 'arena_session';
const ALL_SCOPES: ReadonlySet<Scope> = new Set(SCOPES);
/** Methods that carry no body and change nothing (no same-origin check, no body read). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
const NO_BODY = new Uint8Array(0);

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Path and query exactly as the client signed them (the request line's target). */
export function signedPath(c: Context): string {
  const incoming = (c.env as { incoming?: { url?: string } } | undefined)?.incoming;
  if (incoming?.url) return incoming.url;
  const u = new URL(c.req.url);
  return u.pathname + u.search;
}

export async function rawBody(c: Context<AppEnv>): Promise<Uint8Array> {
  let body = c.get('rawBody');
  if (!body) {
    body = SAFE_METHODS.has(c.req.method) ? new Uint8Array(0) : new Uint8Array(await c.req.arrayBuffer());
    c.set('rawBody', body);
  }
  return body;
}

export class Authenticator {
  private readonly replays: ReplayGuard;
  private readonly keyLimiter: RateLimiter;
  /** Failed signed requests per client address: each costs a signature check before any key's limit applies. */
  private readonly failures: RateLimiter;
  /** The Ed25519 checks of the signed requests read in one event-loop turn, back to back (turn-batch.ts says why). */
  private readonly verify = batchPerTurn(verifyRequest);
  private lastIso = { at: NaN, text: '' };

  constructor(private readonly deps: AppDeps) {
    this.replays = deps.replayGuard ?? new ReplayCache(REQUEST_WINDOW_MS);
    this.keyLimiter = new RateLimiter(deps.rateLimits.key, deps.now);
    this.failures = new RateLimiter(deps.rateLimits.authFailures ?? DEFAULT_RATE_LIMITS.authFailures, deps.now);
  }

  /** The caller of this request, or null when it carries no credentials. Throws 401 for bad ones. */
  async caller(c: Context<AppEnv>): Promise<Caller | null> {
    const cached = c.get('caller');
    if (cached !== undefined) return cached;
    const caller =
      requestHeader(c, 'x-svc-key') !== undefined || requestHeader(c, 'x-svc-signature') !== undefined
        ? await this.guardedSigned(c)
        : await this.session(c);
    c.set('caller', caller);
    // What credentials unlocked is never cached; set now, before the handler builds the response.
    if (caller) responseHeader(c, 'Cache-Control', 'no-store');
    return caller;
  }

  /** Route middleware: a caller with this scope, within its rate limit. */
  require(scope: Scope): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      const caller = await this.caller(c);
      if (!caller) {
        this.deps.metrics.authFailure('missing_credentials');
        throw new ApiError(
          'unauthenticated',
          'this endpoint needs a signed request (x-svc-key, x-svc-timestamp, x-svc-signature) or a dashboard session; run `arena login` first',
        );
      }
      if (!caller.scopes.has(scope)) {
        this.deps.metrics.authFailure('missing_scope');
        throw new ApiError(
          'forbidden',
          `key ${caller.keyId} lacks the scope ${scope}; scopes are fixed at creation, so add a key with it`,
        );
      }
      // A signed request took its key's token before its signature was checked (signed()).
      if (caller.via === 'session') {
        const wait = this.keyLimiter.take(`user:${caller.userId}`);
        if (wait > 0) throw rateLimited(this.deps.metrics, `too many requests; retry in ${wait} s`, wait);
      }
      await next();
    };
  }

  /**
   * An address whose signed requests keep failing waits (429) before its next
   * one is checked, so bad signatures cannot buy unlimited CPU.
   */
  private guardedSigned(c: Context<AppEnv>): Promise<Caller> {
    const address = clientKey(c, this.deps.trustProxy);
    const wait = this.failures.wait(address);
    if (wait > 0)
      return Promise.reject(
        rateLimited(this.deps.metrics, `too many failed signed requests from this address; retry in ${wait} s`, wait),
      );
    // Not an async function: one promise less per signed request.
    return this.signed(c).catch((err: unknown) => {
      if (err instanceof ApiError && err.code === 'unauthenticated') this.failures.take(address);
      throw err;
    });
  }

  private async signed(c: Context<AppEnv>): Promise<Caller> {
    const { store, metrics } = this.deps;
    const headers = {
      'x-svc-key': requestHeader(c, 'x-svc-key'),
      'x-svc-timestamp': requestHeader(c, 'x-svc-timestamp'),
      'x-svc-signature': requestHeader(c, 'x-svc-signature'),
    };
    const keyId = headers['x-svc-key'] ?? '';
    const rec = keyId && keyId.length <= 64 ? await store.getKey(keyId) : null;
    const body = SAFE_METHODS.has(c.req.method) ? NO_BODY : await rawBody(c);
    const now = this.deps.now();
    // The token first (only for a key that exists: an unknown id gets no bucket). It is given
    // back if the request then fails, so forged requests under someone's key id cost that key nothing.
    if (rec) {
      const wait = this.keyLimiter.take(rec.id);
      if (wait > 0) throw rateLimited(metrics, `too many requests; retry in ${wait} s`, wait);
    }
    let accepted = false;
    try {
      const result = await this.verify({
        method: c.req.method,
        path: signedPath(c),
        body,
        headers,
        lookupKey: () =>
          rec ? { publicKey: cachedPublicKey(rec.publicKey), revoked: rec.revokedAt !== null } : undefined,
        now,
      });
      if (!result.ok) {
        metrics.authFailure(result.code);
        throw new ApiError('unauthenticated', result.reason);
      }
      const since = this.deps.signedSince;
      if (since !== undefined && result.timestamp < since) {
        metrics.authFailure('signed_before_start');
        throw new ApiError(
          'unauthenticated',
          `x-svc-timestamp is from before the server last started (${new Date(since).toISOString()}), so this signature cannot be checked for replay; sign the request again now (if you just did, your clock is behind the server's)`,
        );
      }
      // The in-memory cache answers at once: awaiting only a promise spares the common case a microtask.
      const answer = this.replays.check(replayKey(headers['x-svc-signature']!), result.timestamp, now);
      const seen = typeof answer === 'string' ? answer : await answer;
      if (seen === 'replay') {
        metrics.authFailure('replayed_signature');
        throw new ApiError(
          'unauthenticated',
          'this signature was already used: a replayed request; sign every request afresh',
        );
      }
      if (seen === 'full')
        throw rateLimited(
          metrics,
          'the service is taking more signed requests than it can remember for replay protection; retry in 1 s',
          1,
        );
      accepted = true;
    } finally {
      if (!accepted && rec) this.keyLimiter.refund(rec.id);
    }
    store.touchKey(rec!.id, this.isoTime(now));
    return { userId: rec!.userId, via: 'key', keyId: rec!.id, scopes: new Set(rec!.scopes) };
  }

  /** now as an ISO time; requests of one millisecond share the string. */
  private isoTime(now: number): string {
    if (now !== this.lastIso.at) this.lastIso = { at: now, text: new Date(now).toISOString() };
    return this.lastIso.text;
  }

  private async session(c: Context<AppEnv>): Promise<Caller | null> {
    const token = getCookie(c, SESSION_COOKIE);
    if (!token) return null;
    const session = await this.deps.store.getSession(hashToken(token), new Date(this.deps.now()).toISOString());
    if (!session) {
      this.deps.metrics.authFailure('bad_session');
      throw new ApiError('unauthenticated', 'your session has ended; sign in again');
    }
    if (!SAFE_METHODS.has(c.req.method) && !this.sameOrigin(c)) {
      this.deps.metrics.authFailure('cross_site');
      throw new ApiError(
        'forbidden',
        'a cookie-authenticated write must come from the dashboard itself (Origin or Sec-Fetch-Site did not match)',
      );
    }
    return { userId: session.userId, via: 'session', scopes: ALL_SCOPES };
  }

  private sameOrigin(c: Context): boolean {
    return isSameOrigin(c, this.deps.baseUrl);
  }
}

/** CSRF protection for cookie writes: the browser says where the request came from. */
export function isSameOrigin(c: Context, baseUrl: string): boolean {
  const site = requestHeader(c, 'sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = requestHeader(c, 'origin');
  return origin !== undefined && origin === new URL(baseUrl).origin;
}
