// E-mail sign-in and the dashboard session: the link goes out by real SMTP
// (an in-process smtp-server) or, without SMTP, to the server log; opening it
// shows a confirm page, and confirming from our own origin sets the session
// cookie; cookie writes need our own origin, so a cross-site form post fails
// and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { formatPublicKey, generateKeyPair } from '../../../src/keys/index';
import { smtpMailer } from '../../../src/service/ops/mail';
import { startServer, type RunningServer } from '../../../src/service/server';
import { openFileStore, type FileStore } from '../../../src/service/store/index';
import { linkIn, startMailCapture, type MailCapture } from '../../web/support/mail';
import { startHarness, type Harness } from '../support/api-harness';

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
  text: string;
}

async function call(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<Res> {
  const res = await request(url, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, json, text };
}

function setCookies(res: Res): string[] {
  const h = res.headers['set-cookie'];
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}

/** The session cookie from a Set-Cookie list, as a Cookie header value. */
function sessionCookie(res: Res): string {
  const line = setCookies(res).find((c) => /=[^;]+/.test(c) && !/max-age=0/i.test(c));
  if (!line) throw new Error(`no session cookie in ${JSON.stringify(res.headers)}`);
  return line.split(';')[0];
}

/** The token of a sign-in link, as the confirm page's form posts it. */
function form(link: string): string {
  return `token=${encodeURIComponent(new URL(link).searchParams.get('token')!)}`;
}

/** Confirms a link as the confirm page's button does: a same-origin form post. */
function confirm(base: string, link: string, headers: Record<string, string> = {}): Promise<Res> {
  return call(
    `${base}/auth/callback`,
    'POST',
    { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(base).origin, ...headers },
    form(link),
  );
}

describe('e-mail sign-in over SMTP (production server)', () => {
  let mail: MailCapture;
  let dir: string;
  let store: FileStore;
  let server: RunningServer;
  const log: string[] = [];
  let cookie = '';
  let link = '';

  const snapshot = async () => {
    const users = await store.listUsers();
    return Promise.all(
      users.map(async (u) => ({ u, keys: await store.listKeys(u.id), bots: await store.listBots(u.id) })),
    );
  };

  beforeAll(async () => {
    mail = await startMailCapture();
    dir = mkdtempSync(join(tmpdir(), 'arena-signin-'));
    store = await openFileStore(join(dir, 'data'));
    server = await startServer({
      store,
      dataDir: join(dir, 'data'),
      host: '127.0.0.1',
      port: 0,
      smtpUrl: mail.url,
      tickSeconds: 0,
      logOut: { write: (s: string) => log.push(s) },
    });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    await mail?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('POST /auth/email mails a link to the address; the token is not in the log', async () => {
    const res = await call(
      `${server.url}/auth/email`,
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: 'New.Person@Example.com' }),
    );
    expect(res.status).toBe(202);
    // nodemailer lower-cases the domain; the local part is kept.
    const got = await mail.next('New.Person@example.com');
    link = linkIn(got);
    expect(link.startsWith(`${server.baseUrl}/`)).toBe(true);
    const token = new URL(link).searchParams.get('token');
    expect(token).toBeTruthy();
    expect(log.join('')).not.toContain(token!);
    // No account exists until the link is opened.
    expect(await store.getUserByEmail('new.person@example.com')).toBeNull();
  });

  it('opening the link shows a page naming the address and asking to confirm; it signs in nobody and uses nothing', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await call(link, 'GET', { accept: 'text/html' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('new.person@example.com');
      expect(res.text).toMatch(/<form method="post" action="\/auth\/callback">/);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(setCookies(res)).toEqual([]);
    }
    expect(await store.getUserByEmail('new.person@example.com')).toBeNull();
  });

  it('a confirm from another site (or with no origin) is 403 and leaves the link unused', async () => {
    const cases: Array<Record<string, string>> = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      { origin: '' },
    ];
    for (const headers of cases) {
      const res = await call(
        `${server.url}/auth/callback`,
        'POST',
        { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        form(link),
      );
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('forbidden');
      expect(setCookies(res)).toEqual([]);
    }
    expect(await store.getUserByEmail('new.person@example.com')).toBeNull();
  });

  it('confirming creates the user, sets an HttpOnly, SameSite=Lax, Secure cookie and redirects to /', async () => {
    const res = await confirm(server.baseUrl, link);
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/\/$/);
    const line = setCookies(res).find((c) => !/max-age=0/i.test(c))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/;\s*Secure/i);
    cookie = sessionCookie(res);
    const user = await store.getUserByEmail('new.person@example.com');
    expect(user).not.toBeNull();
    expect(log.join('')).not.toContain(cookie.split('=')[1]);
  });

  it('the link is single use', async () => {
    const again = await call(link, 'GET');
    expect(again.status).toBe(401);
    expect(again.json.error.code).toBe('unauthenticated');
    expect(setCookies(again).filter((c) => !/max-age=0/i.test(c))).toEqual([]);
    const post = await confirm(server.baseUrl, link);
    expect(post.status).toBe(401);
    expect(setCookies(post).filter((c) => !/max-age=0/i.test(c))).toEqual([]);
  });

  it('a browser opening a used link is sent to the sign-in page, which says so; API clients keep the 401', async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const res = await call(link, 'GET', { accept: browser });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/sign-in?link=expired');
    expect(setCookies(res).filter((c) => !/max-age=0/i.test(c))).toEqual([]);
    const page = await call(`${server.url}${res.headers.location}`, 'GET', { accept: browser });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    for (const accept of ['application/json', 'application/json, text/html', '*/*']) {
      const api = await call(link, 'GET', { accept });
      expect(api.status, accept).toBe(401);
      expect(api.json.error.code, accept).toBe('unauthenticated');
    }
  });

  it('the session reads the account and, from our own origin, writes with every scope', async () => {
    const me = await call(`${server.url}/me`, 'GET', { cookie });
    expect(me.status).toBe(200);
    expect(me.json.email.toLowerCase()).toBe('new.person@example.com');
    const origin = new URL(server.baseUrl).origin;
    const handle = await call(
      `${server.url}/me/handle`,
      'POST',
      { cookie, origin, 'content-type': 'application/json' },
      JSON.stringify({ handle: 'newbie' }),
    );
    expect(handle.status).toBe(200);
    expect(handle.json.name).toBe('newbie');
    const key = await call(
      `${server.url}/keys`,
      'POST',
      { cookie, 'sec-fetch-site': 'same-origin', origin, 'content-type': 'application/json' },
      JSON.stringify({
        name: 'from the dashboard',
        publicKey: formatPublicKey(generateKeyPair().privateKey, 'ssh'),
        scopes: ['keys.read', 'keys.write'],
      }),
    );
    expect(key.status).toBe(201);
  });

  it('a cross-site cookie write is 403 forbidden and changes nothing', async () => {
    const before = await snapshot();
    const form = { cookie, 'content-type': 'application/x-www-form-urlencoded' };
    const cases: Array<[string, Record<string, string>]> = [
      ['form post from another origin', { ...form, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
      ['Origin of another site only', { ...form, origin: 'https://evil.example' }],
      ['Sec-Fetch-Site cross-site only', { ...form, 'sec-fetch-site': 'cross-site' }],
      ['a sibling subdomain', { ...form, 'sec-fetch-site': 'same-site', origin: 'https://x.127.0.0.1.example' }],
      ['an opaque origin', { ...form, origin: 'null' }],
      ['no origin information at all', { cookie, 'content-type': 'application/json' }],
    ];
    for (const [label, headers] of cases) {
      const res = await call(
        `${server.url}/me/handle`,
        'POST',
        headers,
        label.startsWith('no origin') ? JSON.stringify({ handle: 'pwned' }) : 'handle=pwned',
      );
      expect(res.status, label).toBe(403);
      expect(res.json.error.code, label).toBe('forbidden');
    }
    const key = await call(
      `${server.url}/keys`,
      'POST',
      { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      JSON.stringify({
        name: 'evil',
        publicKey: formatPublicKey(generateKeyPair().privateKey, 'raw'),
        scopes: ['account.write'],
      }),
    );
    expect(key.status).toBe(403);
    expect(await snapshot()).toEqual(before);
    // Reads need no origin check: a cross-site GET cannot read the answer anyway.
    expect((await call(`${server.url}/me`, 'GET', { cookie })).status).toBe(200);
  });

  it('logout from another site does nothing; from our origin it ends the session', async () => {
    const evil = await call(`${server.url}/auth/logout`, 'POST', {
      cookie,
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(evil.status).toBe(403);
    expect((await call(`${server.url}/me`, 'GET', { cookie })).status).toBe(200);
    const out = await call(`${server.url}/auth/logout`, 'POST', { cookie, origin: new URL(server.baseUrl).origin });
    expect(out.status).toBe(204);
    expect(setCookies(out).some((c) => /max-age=0/i.test(c) || /expires=Thu, 01 Jan 1970/i.test(c))).toBe(true);
    const after = await call(`${server.url}/me`, 'GET', { cookie });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('unauthenticated');
  });

  it('a made-up link is 401', async () => {
    const res = await call(`${server.url}/auth/callback?token=${'A'.repeat(43)}`, 'GET');
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('unauthenticated');
  });

  it('a second sign-in of the same address finds the same user', async () => {
    const first = await store.getUserByEmail('new.person@example.com');
    await call(
      `${server.url}/auth/email`,
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: 'new.person@example.com' }),
    );
    const res = await confirm(server.baseUrl, linkIn(await mail.next('new.person@example.com')));
    expect(res.status).toBe(303);
    const me = await call(`${server.url}/me`, 'GET', { cookie: sessionCookie(res) });
    expect(me.json.id).toBe(first!.id);
    expect((await store.listUsers()).length).toBe(1);
  });

  it("login CSRF: someone else's link opened while signed in never replaces the session silently", async () => {
    // The victim is signed in.
    await call(
      `${server.url}/auth/email`,
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: 'victim@example.com' }),
    );
    const victim = sessionCookie(await confirm(server.baseUrl, linkIn(await mail.next('victim@example.com'))));
    // The attacker asks for a link to their own account and gets the victim to open it.
    await call(
      `${server.url}/auth/email`,
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: 'attacker@example.com' }),
    );
    const planted = linkIn(await mail.next('attacker@example.com'));
    const opened = await call(planted, 'GET', { cookie: victim, accept: 'text/html' });
    expect(opened.status).toBe(200);
    expect(setCookies(opened)).toEqual([]);
    expect(opened.text).toMatch(/signed in now as <strong>victim@example\.com<\/strong>/);
    expect(opened.text).toMatch(
      /Confirming signs you out of that account and in as <strong>attacker@example\.com<\/strong>/,
    );
    // An auto-submitting form on the attacker's site is refused.
    const forged = await call(
      `${server.url}/auth/callback`,
      'POST',
      {
        cookie: victim,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      form(planted),
    );
    expect(forged.status).toBe(403);
    expect(setCookies(forged)).toEqual([]);
    expect((await call(`${server.url}/me`, 'GET', { cookie: victim })).json.email).toBe('victim@example.com');
    // Confirming on our own page switches accounts and ends the old session.
    const switched = await confirm(server.baseUrl, planted, { cookie: victim });
    expect(switched.status).toBe(303);
    expect((await call(`${server.url}/me`, 'GET', { cookie: sessionCookie(switched) })).json.email).toBe(
      'attacker@example.com',
    );
    expect((await call(`${server.url}/me`, 'GET', { cookie: victim })).status).toBe(401);
  });

  it('the confirm page escapes what it shows', async () => {
    const { confirmPage } = await import('../../../src/service/http/routes/signin');
    const page = confirmPage('t"><script>', 'a<b>@example.com', { email: 'x@example.com', name: '<img src=x>' });
    expect(page).not.toMatch(/<script>|<img|<b>/);
    expect(page).toContain('a&#60;b&#62;@example.com');
  });
});

describe('e-mail sign-in without SMTP (dev): the link is in the server log', () => {
  let h: Harness;
  let now = Date.now();
  beforeAll(async () => {
    h = await startHarness({ dev: true, now: () => now });
  });
  afterAll(() => h?.close());

  const requestLink = async (email: string) => {
    const res = await h.send('POST', '/auth/email', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(202);
    const line = [...h.logs].reverse().find((l) => typeof l.link === 'string');
    expect(line).toBeDefined();
    return String(line!.link);
  };

  it('following the logged link signs in; the cookie is not Secure in dev', async () => {
    const link = await requestLink('dev@example.com');
    expect((await h.send('GET', new URL(link).pathname + new URL(link).search)).status).toBe(200);
    const res = await h.send('POST', '/auth/callback', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(h.baseUrl).origin },
      body: form(link),
    });
    expect(res.status).toBe(303);
    const line = setCookies(res)[0];
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).not.toMatch(/;\s*Secure/i);
    const me = await h.send('GET', '/me', { headers: { cookie: line.split(';')[0] } });
    expect(me.status).toBe(200);
    expect(me.json.email).toBe('dev@example.com');
  });

  it('a link older than 15 minutes is refused and creates no user', async () => {
    const link = await requestLink('late@example.com');
    now += 15 * 60_000 + 1000;
    const res = await h.send('GET', new URL(link).pathname + new URL(link).search);
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('unauthenticated');
    expect(await h.store.getUserByEmail('late@example.com')).toBeNull();
  });

  it('a malformed address is 400 naming email', async () => {
    const res = await h.send('POST', '/auth/email', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'not-an-address' }),
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect(res.json.error.message).toMatch(/email/);
  });
});

describe('an SMTP server that never answers', () => {
  let silent: Server;
  let h: Harness;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    // Accepts the connection and says nothing: no greeting, ever.
    silent = createServer((s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    h = await startHarness({ dev: true, mailer: await smtpMailer(url, 'Arena <arena@localhost>', { timeoutMs: 300 }) });
  });
  afterAll(async () => {
    await h?.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('POST /auth/email answers 500 once the mailer gives up, logs why, and creates no user', async () => {
    const res = await h.send('POST', '/auth/email', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'stuck@example.com' }),
    });
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe('internal');
    expect(res.json.error.message).toMatch(/could not be sent/);
    expect(h.logs.some((l) => l.event === 'auth.mail_failed' && /timeout/i.test(String(l.error)))).toBe(true);
    expect(await h.store.getUserByEmail('stuck@example.com')).toBeNull();
    expect((await h.send('GET', '/health')).status).toBe(200);
  });

  it('mail attempts to one address count against its mail rate, sent or not: the fourth in a row is 429', async () => {
    for (let i = 0; i < 3; i++)
      expect(
        (
          await h.send('POST', '/auth/email', {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'retry@example.com' }),
          })
        ).status,
      ).toBe(500);
    const fourth = await h.send('POST', '/auth/email', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'retry@example.com' }),
    });
    expect(fourth.status).toBe(429);
    expect(fourth.json.error.message).toMatch(/this e-mail address/);
  });

  it("the URL's own timeouts are kept", async () => {
    const port = (silent.address() as AddressInfo).port;
    const mailer = await smtpMailer(`smtp://127.0.0.1:${port}?greetingTimeout=200`, 'Arena <arena@localhost>', {
      timeoutMs: 60_000,
    });
    await expect(mailer.sendSignIn('x@example.com', 'http://127.0.0.1/')).rejects.toThrow(/greeting/i);
  });
});

describe("sign-in mails are limited: nobody can fill a stranger's inbox or the store", () => {
  let h: Harness;
  let now = Date.now();
  beforeAll(async () => {
    h = await startHarness({
      dev: true,
      now: () => now,
      rateLimits: {
        key: { perSecond: 50, burst: 200 },
        address: { perSecond: 100, burst: 100 },
        signInMails: { perSecond: 1 / 60, burst: 6 },
      },
    });
  });
  afterAll(() => h?.close());

  const ask = (email: string) =>
    h.send('POST', '/auth/email', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  const linksTo = (email: string) => h.logs.filter((l) => l.event === 'auth.email' && l.email === email).length;

  const lastLink = () => String([...h.logs].reverse().find((l) => typeof l.link === 'string')!.link);
  const open = (link: string) => h.send('GET', new URL(link).pathname + new URL(link).search);

  it('a new link replaces the oldest unused one: three asks by a stranger do not lock the owner out', async () => {
    const stranger: string[] = [];
    for (let i = 0; i < 3; i++) {
      expect((await ask('inbox@example.com')).status).toBe(202);
      stranger.push(lastLink());
    }
    now += 60_000; // the address's mail rate allows one more
    const own = await ask('Inbox@Example.com');
    expect(own.status).toBe(202);
    const mine = lastLink();
    expect((await open(mine)).status).toBe(200);
    // The oldest open link gave way; the others still work; never more than 3 open.
    expect((await open(stranger[0])).status).toBe(401);
    expect((await open(stranger[1])).status).toBe(200);
    expect((await open(stranger[2])).status).toBe(200);
    expect(linksTo('inbox@example.com')).toBe(4);
    expect(h.logs.filter((l) => l.event === 'auth.email' && l.email === 'inbox@example.com').at(-1)!.replaced).toBe(1);
  });

  it('one e-mail address is mailed 3 links in a row, then one a minute, whoever asks', async () => {
    now += 3600_000;
    for (let i = 0; i < 3; i++) expect((await ask('busy@example.com')).status).toBe(202);
    const over = await ask('BUSY@example.com');
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe('rate_limited');
    expect(over.json.error.message).toMatch(/mailed to this e-mail address moments ago/);
    expect(over.headers['retry-after']).toBe('60');
    expect(linksTo('busy@example.com')).toBe(3);
    now += 60_000;
    expect((await ask('busy@example.com')).status).toBe(202);
    expect(linksTo('busy@example.com')).toBe(4);
  });

  it('one client address gets a few links in a row, then one a minute, whatever the addresses', async () => {
    now += 3600_000; // a full bucket
    for (let i = 0; i < 6; i++) expect((await ask(`someone${i}@example.com`)).status).toBe(202);
    const over = await ask('someone-else@example.com');
    expect(over.status).toBe(429);
    expect(over.json.error.message).toMatch(/too many sign-in links asked for from this address; retry in 60 s/);
    expect(over.headers['retry-after']).toBe('60');
    expect(linksTo('someone-else@example.com')).toBe(0);
    now += 60_000;
    expect((await ask('someone-else@example.com')).status).toBe(202);
  });
});
