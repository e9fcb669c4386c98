// A real `serve --dev` for browser tests: startServer in-process on a file
// store in a temp data directory, port 0 on 127.0.0.1, sign-in mail through a
// real SMTP capture, and the dashboard freshly built into dist/web.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildWeb } from '../../../scripts/build-web.mjs';
import { startServer, type RunningServer, type ServerOptions } from '../../../src/service/server';
import { openFileStore, type FileStore } from '../../../src/service/store/index';
import { linkIn, startMailCapture, type MailCapture } from './mail';

export interface Service {
  url: string;
  server: RunningServer;
  store: FileStore;
  mail: MailCapture;
  dataDir: string;
  /** Everything the server logged (JSON lines). */
  log: string[];
  close(): Promise<void>;
}

let built: Promise<unknown> | null = null;
/** Builds dist/web once per test file. */
export function ensureWebBuilt(): Promise<unknown> {
  return (built ??= buildWeb({ quiet: true }));
}

export async function startService(
  opts: Partial<
    Pick<ServerOptions, 'tickSeconds' | 'matchTimeoutMs' | 'deadlineMs' | 'liveStreamsPerAddress' | 'qualify'>
  > = {},
): Promise<Service> {
  await ensureWebBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'arena-web-serve-'));
  const mail = await startMailCapture();
  const store = await openFileStore(dataDir);
  const log: string[] = [];
  const server = await startServer({
    // Browser tests register one owner's bots: rated together, as --same-owner allow.
    store,
    dataDir,
    host: '127.0.0.1',
    port: 0,
    dev: true,
    smtpUrl: mail.url,
    sameOwner: 'allow',
    tickSeconds: opts.tickSeconds ?? 0,
    matchTimeoutMs: opts.matchTimeoutMs,
    deadlineMs: opts.deadlineMs,
    liveStreamsPerAddress: opts.liveStreamsPerAddress,
    // Registered bots are seated at once unless a test is about qualification.
    qualify: opts.qualify ?? 'off',
    logOut: { write: (s: string) => log.push(s) },
  });
  return {
    url: server.url,
    server,
    store,
    mail,
    dataDir,
    log,
    async close() {
      await server.close();
      await store.close();
      await mail.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the dashboard: the form, the mail, the link. Leaves the page on the dashboard, signed in. */
export async function signIn(page: Page, svc: Service, email: string): Promise<void> {
  await page.goto(`${svc.url}/sign-in`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
  await page.getByTestId('sent').waitFor();
  const link = linkIn(await svc.mail.next(email));
  if (!link.startsWith(`${svc.url}/`)) throw new Error(`the sign-in link ${link} does not point at ${svc.url}`);
  await page.goto(link);
  // The link opens a page naming the address; signing in takes a click (login CSRF).
  await page.getByTestId('sign-in-email').filter({ hasText: email.toLowerCase() }).waitFor();
  await page.getByRole('button', { name: /^(Sign in|Switch to) / }).click();
  await page.getByTestId('me').waitFor();
}
