// E-mail sign-in (docs/decisions.md, "sign-in"): POST /auth/email sends a single-use link
// valid 15 minutes; opening it creates the user if new and sets an HttpOnly,
// SameSite=Lax session cookie (Secure in production). POST /auth/logout ends it.
import { randomBytes } from 'node:crypto';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { EmailSignInBodySchema, ErrorBodySchema } from '../../../protocol/api';
import { hashToken, isSameOrigin, SESSION_COOKIE } from '../auth';
import { clientKey } from '../client-limit';
import { DEFAULT_RATE_LIMITS, type AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError, rateLimited } from '../errors';
import { json, PUBLIC_ERRORS } from '../openapi-kit';
import { RateLimiter } from '../rate-limit';

export const SIGN_IN_TTL_MS = 15 * 60_000;
export const SESSION_TTL_MS = 30 * 24 * 3600_000;
/** Sign-in links one address may hold unused at once: more would only let anyone fill a stranger's inbox. */
export const MAX_OPEN_SIGN_IN_LINKS = 3;

export function signInRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, limit: MiddlewareHandler<AppEnv>): void {
  const { store, log } = deps;
  const iso = (ms: number) => new Date(ms).toISOString();
  const mails = new RateLimiter(deps.rateLimits.signInMails ?? DEFAULT_RATE_LIMITS.signInMails, deps.now);

  app.openapi(
    createRoute({
      method: 'post', path: '/auth/email', tags: ['auth'], summary: 'Mail a sign-in link (valid 15 minutes, once)',
      description: `At most ${MAX_OPEN_SIGN_IN_LINKS} unused links per e-mail address at once, and from one client address a few in a row, then one a minute; past either, 429 rate_limited with Retry-After.`,
      middleware: [limit] as const,
      request: { body: { content: { 'application/json': { schema: EmailSignInBodySchema } }, required: true } },
      responses: { 202: json(z.object({ status: z.literal('sent') }), 'A link is on its way (the same answer for every address)'), ...PUBLIC_ERRORS },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      const wait = mails.take(clientKey(c, deps.trustProxy));
      if (wait > 0) throw rateLimited(deps.metrics, `too many sign-in links asked for from this address; retry in ${wait} s`, wait);
      const token = randomBytes(32).toString('base64url');
      const now = deps.now();
      const added = await store.addSignInToken({ tokenHash: hashToken(token), email: email.toLowerCase(), createdAt: iso(now), expiresAt: iso(now + SIGN_IN_TTL_MS), usedAt: null }, MAX_OPEN_SIGN_IN_LINKS);
      if (!added.added) {
        const seconds = Math.max(1, Math.ceil((Date.parse(added.firstExpiresAt) - now) / 1000));
        throw rateLimited(deps.metrics, `${MAX_OPEN_SIGN_IN_LINKS} sign-in links sent to this address in the last 15 minutes are still unused; open the newest, or ask again in ${Math.ceil(seconds / 60)} min`, seconds);
      }
      const link = new URL(`/auth/callback?token=${token}`, deps.baseUrl).toString();
      try {
        await deps.mailer.sendSignIn(email, link);
      } catch (err) {
        log({ event: 'auth.mail_failed', error: err instanceof Error ? err.message : String(err) });
        // Never delivered: spent, so it neither works nor takes one of the address's open links.
        await store.consumeSignInToken(hashToken(token), iso(now));
        throw new ApiError('internal', 'the sign-in mail could not be sent; try again later');
      }
      log({ event: 'auth.email', email: email.toLowerCase() });
      return c.json({ status: 'sent' as const }, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/auth/callback', tags: ['auth'], summary: 'The sign-in link: starts a session and goes to the dashboard',
      middleware: [limit] as const,
      request: { query: z.object({ token: z.string().min(1).max(200) }) },
      responses: { 303: { description: 'Signed in: redirect to /. A browser (Accept: text/html) with an unknown, used or expired link is sent to /sign-in?link=expired instead of the 401.' }, 401: json(z.object({ error: z.object({ code: z.string(), message: z.string() }) }), 'unauthenticated: unknown, used or expired link'), ...PUBLIC_ERRORS },
    }),
    async (c) => {
      const { token } = c.req.valid('query');
      const now = deps.now();
      const used = await store.consumeSignInToken(hashToken(token), iso(now));
      if (!used) {
        deps.metrics.authFailure('bad_sign_in_link');
        // A person who clicked an old link gets the sign-in page saying so, not a JSON body.
        if (wantsHtml(c.req.header('accept'))) return c.redirect('/sign-in?link=expired', 303);
        throw new ApiError('unauthenticated', 'this sign-in link is unknown, used or expired; ask for a new one');
      }
      const user = (await store.getUserByEmail(used.email)) ?? (await store.createUser({ email: used.email }));
      const session = randomBytes(32).toString('base64url');
      await store.addSession({ tokenHash: hashToken(session), userId: user.id, createdAt: iso(now), expiresAt: iso(now + SESSION_TTL_MS) });
      setCookie(c, SESSION_COOKIE, session, {
        httpOnly: true, sameSite: 'Lax', secure: deps.production, path: '/', maxAge: SESSION_TTL_MS / 1000,
      });
      log({ event: 'auth.sign_in', userId: user.id });
      return c.redirect('/', 303);
    },
  );

  app.openapi(
    createRoute({
      method: 'post', path: '/auth/logout', tags: ['auth'], summary: 'End the dashboard session',
      responses: { 204: { description: 'Signed out' }, 403: json(ErrorBodySchema, 'forbidden: the request did not come from the dashboard\'s own origin') },
    }),
    async (c) => {
      const token = getCookie(c, SESSION_COOKIE);
      // A cookie write like any other: another site must not be able to sign the user out.
      if (token && !isSameOrigin(c, deps.baseUrl)) {
        deps.metrics.authFailure('cross_site');
        throw new ApiError('forbidden', 'a cookie-authenticated write must come from the dashboard itself (Origin or Sec-Fetch-Site did not match)');
      }
      if (token) await store.deleteSession(hashToken(token));
      deleteCookie(c, SESSION_COOKIE, { path: '/', secure: deps.production });
      return c.body(null, 204);
    },
  );
}

/** The client asked for HTML before JSON (a browser following a link), by the Accept header's order. */
function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}
