// `arena serve --smtp URL` end to end: a real SMTP server in this process
// (smtp-server) receives the sign-in mail the serve process sends; following
// its link gives a session cookie that GET /me accepts. And without --smtp but
// with $ARENA_SMTP_URL, the environment is used.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { UserSchema } from '../../src/protocol/api';
import { smtpGreeting } from '../../src/service/ops/mail';
import { linkIn, startMailCapture, type MailCapture } from '../web/support/mail';
import { startServe, stopServe, type ServeProcess } from '../support/serve-process';

let dir: string;
let mail: MailCapture;
let serve: ServeProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-serve-smtp-'));
  mail = await startMailCapture();
});
afterEach(async () => {
  if (serve) await stopServe(serve);
  serve = undefined;
});
afterAll(async () => {
  await mail?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function signIn(s: ServeProcess, email: string): Promise<{ cookie: string; link: string; setCookie: string }> {
  const asked = await fetch(`${s.url}/auth/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(asked.status).toBe(202);
  const link = linkIn(await mail.next(email));
  // The link points at this server (its base URL), nowhere else.
  expect(link.startsWith(`${s.url}/auth/callback?`)).toBe(true);
  // The link opens a confirm page; its button posts the token from this origin.
  const page = await fetch(link, { redirect: 'manual' });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(email);
  const opened = await fetch(`${s.url}/auth/callback`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(link).origin },
    body: `token=${encodeURIComponent(new URL(link).searchParams.get('token')!)}`,
  });
  expect(opened.status).toBe(303);
  const setCookie = opened.headers.get('set-cookie') ?? '';
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  return { cookie: setCookie.split(';')[0], link, setCookie };
}

describe('arena serve --smtp', () => {
  it('mails a sign-in link; following it sets a session cookie that GET /me accepts', async () => {
    const env = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config') };
    serve = await startServe(['--dev', '--port', '0', '--data', join(dir, 'a'), '--smtp', mail.url], env);
    expect(serve.stderr()).toContain(`sign-in mail by SMTP via ${mail.url}`);

    const { cookie, link } = await signIn(serve, 'new.user@example.com');
    const me = await fetch(`${serve.url}/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    const user = UserSchema.parse(await me.json());
    expect(user.email).toBe('new.user@example.com');
    expect(user.name).toBe('');
    // The link is single use; without the cookie there is no session.
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(401);
    expect((await fetch(`${serve.url}/me`)).status).toBe(401);
    // No link in the log when it went by mail.
    expect(serve.stderr()).not.toMatch(/auth\/callback\?token=/);
  });

  it('takes the SMTP URL from $ARENA_SMTP_URL, never printing its credentials', async () => {
    const withCreds = mail.url.replace('smtp://', 'smtp://arena:s3cret@');
    const env = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config'), ARENA_SMTP_URL: withCreds };
    serve = await startServe(['--dev', '--port', '0', '--data', join(dir, 'b')], env);
    expect(serve.stderr()).toContain(`sign-in mail by SMTP via ${mail.url}`);
    expect(serve.stderr()).not.toContain('s3cret');
    const { cookie } = await signIn(serve, 'env.user@example.com');
    expect((await fetch(`${serve.url}/me`, { headers: { cookie } })).status).toBe(200);
  });

  it('in production mode (no --dev) says so, warns about an http base URL, and the cookie is Secure', async () => {
    const env = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config') };
    serve = await startServe(['--port', '0', '--data', join(dir, 'c'), '--smtp', mail.url], env);
    expect(serve.stderr()).toMatch(/mode production: bot URLs must be https/);
    expect(serve.stderr()).not.toMatch(/DEVELOPMENT/);
    expect(serve.stderr()).toMatch(/warning: the base URL http:\/\/127\.0\.0\.1:\d+ is not https/);
    const { setCookie } = await signIn(serve, 'prod.user@example.com');
    expect(setCookie).toMatch(/;\s*Secure/i);
  });
});

describe('the SMTP server checked at start', () => {
  it('one that answers passes quietly; one that does not is logged at once (mail.check_failed), and the server runs and stops on time', async () => {
    const env = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config') };
    serve = await startServe(['--dev', '--port', '0', '--data', join(dir, 'd'), '--smtp', mail.url], env);
    // Served requests are logged after the check's answer would have been.
    await fetch(`${serve.url}/health`);
    await serve.waitFor(/"route":"\/health"/);
    expect(serve.stderr()).not.toContain('mail.check_failed');
    await stopServe(serve);

    // A port where nothing listens: a server bound and closed again.
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    serve = await startServe(
      ['--dev', '--port', '0', '--data', join(dir, 'e'), '--smtp', `smtp://127.0.0.1:${port}`],
      env,
    );
    await serve.waitFor(/"event":"mail\.check_failed","error":"127\.0\.0\.1:\d+: ECONNREFUSED"/);
    expect((await fetch(`${serve.url}/health`)).status).toBe(200);
  });
});

describe('smtpGreeting', () => {
  const sockets = new Set<Socket>();
  afterEach(() => {
    for (const s of sockets) s.destroy();
  });
  async function smtpLike(greet: ((s: Socket) => void) | null): Promise<{ url: URL; close: () => Promise<void> }> {
    const server = createServer((s) => {
      sockets.add(s);
      greet?.(s);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      url: new URL(`smtp://127.0.0.1:${(server.address() as AddressInfo).port}`),
      close: () => new Promise<void>((r) => server.close(() => r())),
    };
  }

  it('is null for a 220 greeting, and says why for another code, silence or a close', async () => {
    const cases: Array<[((s: Socket) => void) | null, RegExp | null]> = [
      [(s) => s.write('220 mail.example ESMTP ready\r\n'), null],
      // The greeting may come in pieces.
      [
        (s) => {
          s.write('22');
          setTimeout(() => s.write('0 ok\r\n'), 20);
        },
        null,
      ],
      [(s) => s.write('554 go away\r\n'), /greeted with "554 go away", not 220/],
      [null, /no greeting from 127\.0\.0\.1:\d+ within 200 ms/],
      [(s) => s.end(), /closed the connection before its greeting/],
    ];
    for (const [greet, why] of cases) {
      const server = await smtpLike(greet);
      try {
        const answer = await smtpGreeting(server.url, 200);
        if (why === null) expect(answer).toBeNull();
        else expect(answer).toMatch(why);
      } finally {
        for (const s of sockets) s.destroy();
        await server.close();
      }
    }
  });
});
