// E-mail sign-in (docs/decisions.md, "sign-in"): POST /auth/email sends a single-use link
// valid 15 minutes. Opening it (GET) only shows a page naming the address it
// signs in and asks to confirm; the confirm is a same-origin POST that creates
// the user if new and sets an HttpOnly, SameSite=Lax session cookie (Secure in
// production). So someone else's link opened in your browser (login CSRF)
// cannot silently swap your session for theirs. POST /auth/logout ends it.
import { createHash, randomBytes } from 'node:crypto';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { EmailSignInBodySchema, ErrorBodySchema } from '../../../protocol/api';
import { hashToken, isSameOrigin, SESSION_COOKIE } from '../auth';
import { clientKey } from '../client-limit';
import { allowanceText, DEFAULT_RATE_LIMITS, type AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError, rateLimited } from '../errors';
import { json, PUBLIC_ERRORS } from '../openapi-kit';
import { RateLimiter } from '../rate-limit';
import { prefersHtml } from '../../dashboard';

export const SIGN_IN_TTL_MS = 15 * 60_000;
export const SESSION_TTL_MS = 30 * 24 * 3600_000;
/**
 * Sign-in links one address may hold unused at once; a new one replaces the oldest, so nobody can use up another's
 * allowance.
 */
export const MAX_OPEN_SIGN_IN_LINKS = 3;

export function signInRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, limit: MiddlewareHandler<AppEnv>): void {
  const { store, log } = deps;
  const iso = (ms: number) => new Date(ms).toISOString();
  const mails = new RateLimiter(deps.rateLimits.signInMails ?? DEFAULT_RATE_LIMITS.signInMails, deps.now);
  const inboxLimit = deps.rateLimits.signInMailsPerAddress ?? DEFAULT_RATE_LIMITS.signInMailsPerAddress;
  const inbox = new RateLimiter(inboxLimit, deps.now);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/auth/email',
      tags: ['auth'],
      summary: 'Mail a sign-in link (valid 15 minutes, once)',
      description: `An address holds at most ${MAX_OPEN_SIGN_IN_LINKS} unused links: a new one replaces the oldest (which stops working). One client address may ask for a few links in a row, then one a minute, and one e-mail address is mailed ${allowanceText(DEFAULT_RATE_LIMITS.signInMailsPerAddress)}, whoever asks; past either, 429 rate_limited with Retry-After.`,
      middleware: [limit] as const,
      request: { body: { content: { 'application/json': { schema: EmailSignInBodySchema } }, required: true } },
      responses: {
        202: json(z.object({ status: z.literal('sent') }), 'A link is on its way (the same answer for every address)'),
        ...PUBLIC_ERRORS,
      },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      const wait = mails.take(clientKey(c, deps.trustProxy));
      if (wait > 0)
        throw rateLimited(deps.metrics, `too many sign-in links asked for from this address; retry in ${wait} s`, wait);
      const address = email.toLowerCase();
      const inboxWait = inbox.take(address);
      if (inboxWait > 0)
        throw rateLimited(
          deps.metrics,
          `a sign-in link was mailed to this e-mail address moments ago; open it, or ask again in ${inboxWait} s`,
          inboxWait,
        );
      const token = randomBytes(32).toString('base64url');
      const now = deps.now();
      const added = await store.addSignInToken(
        {
          tokenHash: hashToken(token),
          email: address,
          createdAt: iso(now),
          expiresAt: iso(now + SIGN_IN_TTL_MS),
          usedAt: null,
        },
        MAX_OPEN_SIGN_IN_LINKS,
      );
      const link = new URL(`/auth/callback?token=${token}`, deps.baseUrl).toString();
      try {
        await deps.mailer.sendSignIn(email, link);
      } catch (err) {
        log({ event: 'auth.mail_failed', error: err instanceof Error ? err.message : String(err) });
        // Never delivered: spent, so it neither works nor pushes out one of the address's open links later.
        await store.consumeSignInToken(hashToken(token), iso(now));
        throw new ApiError('internal', 'the sign-in mail could not be sent; try again later');
      }
      log({ event: 'auth.email', email: address, ...(added.replaced > 0 ? { replaced: added.replaced } : {}) });
      return c.json({ status: 'sent' as const }, 202);
    },
  );

  const badLink = (c: Context<AppEnv>) => {
    deps.metrics.authFailure('bad_sign_in_link');
    // A person who clicked an old link gets the sign-in page saying so, not a JSON body.
    if (prefersHtml(c.req.header('accept'))) return c.redirect('/sign-in?link=expired', 303);
    throw new ApiError('unauthenticated', 'this sign-in link is unknown, used or expired; ask for a new one');
  };

  /** Who the browser's session cookie signs in now, if anyone. */
  const currentUser = async (c: Context<AppEnv>, now: number) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (!cookie) return null;
    const session = await store.getSession(hashToken(cookie), iso(now));
    return session ? { tokenHash: session.tokenHash, user: await store.getUser(session.userId) } : null;
  };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/auth/callback',
      tags: ['auth'],
      summary: 'The sign-in link: a page that asks to confirm signing in',
      description:
        'Changes nothing and does not use the link: it answers an HTML page naming the address the link signs in (and, when the browser is signed in already, who that is and that confirming switches accounts), with a button that POSTs the token to /auth/callback from this origin.',
      middleware: [limit] as const,
      request: { query: z.object({ token: z.string().min(1).max(200) }) },
      responses: {
        200: { description: 'The confirm page (text/html)', content: { 'text/html': { schema: z.string() } } },
        303: {
          description:
            'A browser (Accept: text/html) with an unknown, used or expired link is sent to /sign-in?link=expired instead of the 401.',
        },
        401: json(ErrorBodySchema, 'unauthenticated: unknown, used or expired link'),
        ...PUBLIC_ERRORS,
      },
    }),
    async (c) => {
      const { token } = c.req.valid('query');
      const now = deps.now();
      const link = await store.getSignInToken(hashToken(token), iso(now));
      if (!link) return badLink(c);
      const current = await currentUser(c, now);
      const page = confirmPage(
        token,
        link.email,
        current?.user ? { email: current.user.email, name: current.user.name } : null,
      );
      return c.body(page, 200, CONFIRM_HEADERS);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/auth/callback',
      tags: ['auth'],
      summary: 'Confirm a sign-in link: starts a session and goes to the dashboard',
      description:
        "Only from this origin (the confirm page's form): a cross-site post is 403 and leaves the link unused. A session the browser had is ended and replaced (the page said so).",
      middleware: [limit] as const,
      request: {
        body: {
          content: { 'application/x-www-form-urlencoded': { schema: z.object({ token: z.string().min(1).max(200) }) } },
          required: true,
        },
      },
      responses: {
        303: {
          description:
            'Signed in: redirect to /. A browser with an unknown, used or expired link is sent to /sign-in?link=expired instead of the 401.',
        },
        401: json(ErrorBodySchema, 'unauthenticated: unknown, used or expired link'),
        403: json(ErrorBodySchema, 'forbidden: the confirm did not come from this origin'),
        ...PUBLIC_ERRORS,
      },
    }),
    async (c) => {
      // Another site must not be able to sign a browser in to an account of its choosing (login CSRF).
      if (!isSameOrigin(c, deps.baseUrl)) {
        deps.metrics.authFailure('cross_site');
        throw new ApiError(
          'forbidden',
          "a sign-in must be confirmed on this server's own page (Origin or Sec-Fetch-Site did not match); open the link again",
        );
      }
      const { token } = c.req.valid('form');
      const now = deps.now();
      const used = await store.consumeSignInToken(hashToken(token), iso(now));
      if (!used) return badLink(c);
      const user = (await store.getUserByEmail(used.email)) ?? (await store.createUser({ email: used.email }));
      const previous = await currentUser(c, now);
      if (previous) await store.deleteSession(previous.tokenHash);
      const session = randomBytes(32).toString('base64url');
      await store.addSession({
        tokenHash: hashToken(session),
        userId: user.id,
        createdAt: iso(now),
        expiresAt: iso(now + SESSION_TTL_MS),
      });
      setCookie(c, SESSION_COOKIE, session, {
        httpOnly: true,
        sameSite: 'Lax',
        secure: deps.production,
        path: '/',
        maxAge: SESSION_TTL_MS / 1000,
      });
      log({
        event: 'auth.sign_in',
        userId: user.id,
        ...(previous?.user && previous.user.id !== user.id ? { switchedFrom: previous.user.id } : {}),
      });
      return c.redirect('/', 303);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/auth/logout',
      tags: ['auth'],
      summary: 'End the dashboard session',
      responses: {
        204: { description: 'Signed out' },
        403: json(ErrorBodySchema, "forbidden: the request did not come from the dashboard's own origin"),
      },
    }),
    async (c) => {
      const token = getCookie(c, SESSION_COOKIE);
      // A cookie write like any other: another site must not be able to sign the user out.
      if (token && !isSameOrigin(c, deps.baseUrl)) {
        deps.metrics.authFailure('cross_site');
        throw new ApiError(
          'forbidden',
          'a cookie-authenticated write must come from the dashboard itself (Origin or Sec-Fetch-Site did not match)',
        );
      }
      if (token) await store.deleteSession(hashToken(token));
      deleteCookie(c, SESSION_COOKIE, { path: '/', secure: deps.production });
      return c.body(null, 204);
    },
  );
}

const CONFIRM_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}.switch{border-left:4px solid #c60;padding-left:.75rem}';

/**
 * The page is ours alone: no framing (a framed button would be clicked for the user), no referrer (the token is in the
 * URL), never cached.
 */
const CONFIRM_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(CONFIRM_STYLE).digest('base64')}'`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The confirm page: which address the link signs in, who is signed in now, and one button that posts the token here.
 */
export function confirmPage(token: string, email: string, current: { email: string; name: string } | null): string {
  const who = (u: { email: string; name: string }) =>
    u.name ? `${escapeHtml(u.name)} (${escapeHtml(u.email)})` : escapeHtml(u.email);
  const same = current !== null && current.email.toLowerCase() === email.toLowerCase();
  const note =
    current === null
      ? ''
      : same
        ? `<p data-testid="signed-in-as">You are signed in as ${who(current)} already; confirming starts a new session for the same account.</p>`
        : `<p class="switch" data-testid="signed-in-as">You are signed in now as <strong>${who(current)}</strong>. Confirming signs you out of that account and in as <strong>${escapeHtml(email)}</strong>. If you did not ask for this link, close this page.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>Sign in to Bot Arena</title><style>${CONFIRM_STYLE}</style></head>
<body><main>
<h1>Sign in to Bot Arena</h1>
<p>This link signs you in as <strong data-testid="sign-in-email">${escapeHtml(email)}</strong>.</p>
${note}
<form method="post" action="/auth/callback"><input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">${current !== null && !same ? `Switch to ${escapeHtml(email)}` : `Sign in as ${escapeHtml(email)}`}</button></form>
</main></body></html>
`;
}
