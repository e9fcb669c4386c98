// The signed-in dashboard in a real browser (Debian's Chromium) against a
// real `serve --dev`: sign in through the SMTP capture, pick a handle,
// register a bot and watch its checks (passing and failing), manage it, and
// add and revoke API keys, at a phone's width (375 px). Every page is
// checked for controls without an accessible name; each step leaves a
// screenshot under test-results/web/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { startBot } from '../../examples/starter-bot/bot';
import type { RunningBot } from '../../examples/starter-bot/server';
import { formatPublicKey } from '../../src/keys/public-key';
import { generateKeyPair } from '../../src/keys/keypair';
import { startTestBot } from '../support/test-bot';
import { openBrowser, screenshot, unnamedControls, type BrowserSession } from './support/browser';
import { linkIn } from './support/mail';
import { signIn, startService, type Service } from './support/service';

let svc: Service;
let browser: BrowserSession;
let page: Page;
let bot: RunningBot;

/** A loopback port with nothing listening on it (bound, then released). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** What the page's own fetch gets from the API with the session cookie. */
function apiFromPage<T>(p: Page, path: string): Promise<{ status: number; cacheControl: string | null; body: T }> {
  return p.evaluate(
    `fetch(${JSON.stringify(path)}, { cache: 'no-store' }).then(async (r) => ({ status: r.status, cacheControl: r.headers.get('cache-control'), body: await r.json() }))`,
  );
}

const nav = (p: Page, name: string) => p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

async function expectAccessible(p: Page, what: string): Promise<void> {
  expect(await unnamedControls(p), `${what}: controls without an accessible name`).toEqual([]);
  // The document must not scroll sideways (a wide table may scroll inside its own box); on failure, name what sticks
  // out.
  const wide = await p.evaluate<string[]>(`(() => {
    const w = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= w) return [];
    const out = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > w + 0.5)
      .map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '') + ' ' + Math.round(el.getBoundingClientRect().right));
    return out.length ? out : ['document ' + document.documentElement.scrollWidth];
  })()`);
  expect(wide, `${what}: the page is wider than the screen`).toEqual([]);
}

beforeAll(async () => {
  [svc, bot] = await Promise.all([startService(), startBot()]);
  browser = await openBrowser({ width: 375, height: 800 });
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bot?.close();
  await svc?.close();
});

// A real browser on a shared machine: each step gets room.
describe('signed in, at 375 px', { timeout: 90_000 }, () => {
  it('signs in by the mailed link and picks a handle; a bad handle shows the API error', async () => {
    await signIn(page, svc, 'ada@example.com');
    await expect(page.getByTestId('me').textContent()).resolves.toBe('Pick a handle');
    await page.getByTestId('me').click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect(await page.getByTestId('email').textContent()).toBe('ada@example.com');
    await page.getByLabel('Handle').fill('Ada Lovelace!');
    await page.getByRole('button', { name: 'Save handle' }).click();
    const err = page.getByRole('alert');
    await err.waitFor();
    expect(await err.textContent()).toMatch(/handle/);
    await expectAccessible(page, 'account page with an error');
    await page.getByLabel('Handle').fill('ada');
    await page.getByRole('button', { name: 'Save handle' }).click();
    await page.getByText('Your handle is now @ada.').waitFor();
    expect(await page.getByTestId('me').textContent()).toBe('@ada');
    const me = await apiFromPage<{ name: string }>(page, '/me');
    expect(me.body.name).toBe('ada');
    expect(me.cacheControl).toBe('no-store');
    await screenshot(page, 'account-handle');
  });

  it('registers a bot: every check passes, and the bot is listed with its URL for its owner', async () => {
    await nav(page, 'My bots').click();
    await page.getByRole('heading', { name: 'My bots' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('ada-starter');
    await page.getByLabel('URL', { exact: true }).fill(bot.url);
    await page.getByRole('button', { name: 'Register and check' }).click();
    const checks = page.getByTestId('checks');
    await page.locator('[data-testid="checks"][data-phase="passed"]').waitFor();
    expect(await checks.locator('li[data-status="pass"]').count()).toBe(3);
    await page.getByText('ada-starter is registered and active').waitFor();
    const card = page.locator('article[data-bot]').filter({ hasText: 'ada-starter' });
    expect(await card.getByTestId('bot-url').textContent()).toBe(bot.url);
    await expectAccessible(page, 'my bots after registering');
    await screenshot(page, 'bots-registered');
    const listed = await apiFromPage<{ bots: Array<{ name: string; url: string; status: string }> }>(
      page,
      '/bots?game=pioneers',
    );
    expect(listed.body.bots.map((b) => [b.name, b.url, b.status])).toEqual([['ada-starter', bot.url, 'active']]);
    expect(listed.cacheControl).toBe('no-store');
  });

  it('shows which check failed and why, and saves nothing', async () => {
    const refusing = await startTestBot({ behaviour: () => {}, refuseUpgrade: 403 });
    try {
      const cases = [
        { url: 'ftp://127.0.0.1/bot', failed: 0, says: /https or wss/ },
        { url: `http://127.0.0.1:${await deadPort()}`, failed: 1, says: /ping.*refused/i },
        { url: refusing.url, failed: 2, says: /upgrade.*403/i },
      ];
      for (const c of cases) {
        await page.getByLabel('Name', { exact: true }).fill('ghost');
        await page.getByLabel('URL', { exact: true }).fill(c.url);
        await page.getByRole('button', { name: 'Register and check' }).click();
        const checks = page.locator(`[data-testid="checks"][data-phase="failed"]:has(.mono:text-is("${c.url}"))`);
        await checks.waitFor();
        for (let step = 0; step < 3; step++) {
          const want = step < c.failed ? 'pass' : step === c.failed ? 'fail' : 'skipped';
          expect(
            await checks.locator(`li[data-step="${step}"]`).getAttribute('data-status'),
            `${c.url} step ${step}`,
          ).toBe(want);
        }
        expect(await checks.getByTestId('check-error').textContent()).toMatch(c.says);
        await expectAccessible(page, `my bots with check ${c.failed + 1} failed`);
        await screenshot(page, `bots-check-${c.failed + 1}-failed`);
      }
    } finally {
      await refusing.close();
    }
    const listed = await apiFromPage<{ bots: Array<{ name: string }> }>(page, '/bots?game=pioneers');
    expect(listed.body.bots.map((b) => b.name)).toEqual(['ada-starter']);
  });

  it('shows each check as it happens: the URL passed and /ping running while the bot has not answered yet', async () => {
    // A bot whose /ping answers only when the test says so, and whose upgrade is refused.
    let release!: () => void;
    const pinged = new Promise<void>((resolve) => {
      release = resolve;
    });
    let pingArrived!: () => void;
    const arrived = new Promise<void>((resolve) => {
      pingArrived = resolve;
    });
    const slow = createHttpServer((req, res) => {
      if (req.url !== '/ping') return void res.writeHead(404).end();
      pingArrived();
      void pinged.then(() => res.end('pong'));
    });
    slow.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      await page.getByLabel('Name', { exact: true }).fill('slowpoke');
      await page.getByLabel('URL', { exact: true }).fill(url);
      await page.getByRole('button', { name: 'Register and check' }).click();
      await arrived;
      const running = page.locator(`[data-testid="checks"][data-phase="running"]:has(.mono:text-is("${url}"))`);
      await running.locator('li[data-step="1"][data-status="running"]').waitFor();
      expect(await running.locator('li[data-step="0"]').getAttribute('data-status')).toBe('pass');
      expect(await running.locator('li[data-step="2"]').getAttribute('data-status')).toBe('waiting');
      await screenshot(page, 'bots-check-live-ping-running');
      release();
      const failed = page.locator(`[data-testid="checks"][data-phase="failed"]:has(.mono:text-is("${url}"))`);
      await failed.waitFor();
      expect(await failed.locator('li[data-step="1"]').getAttribute('data-status')).toBe('pass');
      expect(await failed.locator('li[data-step="2"]').getAttribute('data-status')).toBe('fail');
      expect(await failed.getByTestId('check-error').textContent()).toMatch(/upgrade.*401/i);
    } finally {
      release();
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
    const listed = await apiFromPage<{ bots: Array<{ name: string }> }>(page, '/bots?game=pioneers');
    expect(listed.body.bots.map((b) => b.name)).toEqual(['ada-starter']);
  });

  it('renames, pauses, resumes, refuses a broken new URL, and removes after a confirmation', async () => {
    const card = () => page.locator('article[data-bot]').first();
    await card().getByRole('button', { name: 'Rename ada-starter' }).click();
    await card().getByLabel('New name').fill('ada-one');
    await card().getByRole('button', { name: 'Save name' }).click();
    await card()
      .getByRole('heading', { name: /ada-one/ })
      .waitFor();

    await card().getByRole('button', { name: 'Pause ada-one' }).click();
    await card().getByRole('button', { name: 'Resume ada-one' }).waitFor();
    expect(await card().locator('.status').textContent()).toBe('paused');
    await card().getByRole('button', { name: 'Resume ada-one' }).click();
    await card().getByRole('button', { name: 'Pause ada-one' }).waitFor();
    expect(await card().locator('.status').textContent()).toBe('active');

    await card().getByRole('button', { name: 'Change the URL of ada-one' }).click();
    const dead = `http://127.0.0.1:${await deadPort()}`;
    await card().getByLabel('New URL').fill(dead);
    await card().getByRole('button', { name: 'Check and save URL' }).click();
    await card().locator('[data-testid="checks"][data-phase="failed"]').waitFor();
    await screenshot(page, 'bots-url-change-failed');
    await card().getByRole('button', { name: 'Cancel' }).click();
    expect(await card().getByTestId('bot-url').textContent()).toBe(bot.url);

    await card().getByRole('button', { name: 'Remove ada-one' }).click();
    const confirm = card().getByRole('alertdialog');
    expect(await confirm.textContent()).toMatch(/cannot be undone/);
    await expectAccessible(page, 'remove confirmation');
    await confirm.getByRole('button', { name: 'Yes, remove ada-one' }).click();
    await page.getByText('You have no bots yet.').waitFor();
    const listed = await apiFromPage<{ bots: unknown[] }>(page, '/bots?game=pioneers');
    expect(listed.body.bots).toEqual([]);
  });

  it('adds a key with chosen scopes, shows the login line, refuses a bad key, and revokes with the keyboard', async () => {
    await nav(page, 'API keys').click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'Add key' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('broken');
    await page.getByLabel('Public key').fill('ssh-ed25519 not-base64!');
    await page.getByRole('button', { name: 'Add key' }).click();
    const err = page.getByRole('alert');
    await err.waitFor();
    expect((await err.textContent())?.length).toBeGreaterThan(10);

    const { publicKey } = generateKeyPair();
    const line = formatPublicKey(publicKey, 'ssh', 'ada@laptop');
    await page.getByLabel('Name', { exact: true }).fill('laptop');
    await page.getByLabel('Public key').fill(line);
    await page.getByRole('checkbox', { name: /bots\.write/ }).uncheck();
    await page.getByRole('checkbox', { name: /keys\.read/ }).check();
    await page.getByRole('button', { name: 'Add key' }).click();
    const snippet = page.getByTestId('login-snippet');
    await snippet.waitFor();
    const keys = await apiFromPage<{
      keys: Array<{ id: string; name: string; scopes: string[]; publicKey: string; revokedAt: string | null }>;
    }>(page, '/keys');
    expect(keys.cacheControl).toBe('no-store');
    expect(keys.body.keys).toHaveLength(1);
    const key = keys.body.keys[0];
    expect(key).toMatchObject({
      name: 'laptop',
      scopes: ['bots.read', 'keys.read'],
      publicKey: formatPublicKey(publicKey, 'raw'),
      revokedAt: null,
    });
    expect(await snippet.textContent()).toBe(`arena login --url ${svc.url} --key-id ${key.id} --key ~/.ssh/id_ed25519`);
    const row = page.locator(`tr[data-key="${key.id}"]`);
    expect(await row.textContent()).toContain('bots.read, keys.read');
    expect(await row.getByTestId('revoked').textContent()).toBe('–');
    await expectAccessible(page, 'keys page');
    await screenshot(page, 'keys-added');

    // Keyboard only: Tab to the revoke button, Enter, and Enter again on the confirmation.
    await page.getByRole('heading', { name: 'API keys' }).focus();
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached =
        (await page.evaluate<string | null>(
          "document.activeElement && document.activeElement.getAttribute('aria-label')",
        )) === 'Revoke key laptop';
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = row.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/cannot be undone/);
    expect(await page.evaluate<string | null>('document.activeElement && document.activeElement.textContent')).toBe(
      'Yes, revoke',
    );
    await screenshot(page, 'keys-revoke-confirm');
    await page.keyboard.press('Enter');
    await row.getByTestId('revoked').filter({ hasNotText: '–' }).waitFor();
    const after = await apiFromPage<{ keys: Array<{ revokedAt: string | null }> }>(page, '/keys');
    expect(after.body.keys[0].revokedAt).not.toBeNull();
    expect(await row.getByRole('button', { name: 'Revoke key laptop' }).count()).toBe(0);
    await screenshot(page, 'keys-revoked');
  });

  it("someone else's sign-in link opened while signed in says who is signed in, and switches accounts only on a click", async () => {
    // Login CSRF: mallory asks for a link to her own account and gets ada to open it.
    const asked = await fetch(`${svc.url}/auth/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'mallory@example.com' }),
    });
    expect(asked.status).toBe(202);
    const link = linkIn(await svc.mail.next('mallory@example.com'));
    await page.goto(link);
    await page.getByTestId('sign-in-email').filter({ hasText: 'mallory@example.com' }).waitFor();
    expect(await page.getByTestId('signed-in-as').textContent()).toMatch(
      /signed in now as ada \(ada@example\.com\)\. Confirming signs you out of that account and in as mallory@example\.com/,
    );
    await screenshot(page, 'sign-in-confirm-switch');
    // Opening the link changed nothing: still ada.
    await page.goto(`${svc.url}/`);
    await page.getByTestId('me').filter({ hasText: '@ada' }).waitFor();
    // Confirming on the page switches.
    await page.goto(link);
    await page.getByRole('button', { name: 'Switch to mallory@example.com' }).click();
    await page.getByTestId('me').filter({ hasText: 'Pick a handle' }).waitFor();
    expect((await apiFromPage<{ email: string }>(page, '/me')).body.email).toBe('mallory@example.com');
    expect(browser.errors).toEqual([]);
  });

  it('signs out: the private pages ask to sign in and the API answers 401', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await page.goto(`${svc.url}/account/keys`);
    await page.getByText('This page is for signed-in users.').waitFor();
    expect((await apiFromPage(page, '/keys')).status).toBe(401);
    expect(browser.errors).toEqual([]);
  });

  it('an old or used sign-in link opens the sign-in page, which says to send a new one', async () => {
    await page.goto(`${svc.url}/auth/callback?token=${'A'.repeat(43)}`);
    await page.getByTestId('link-expired').waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(await page.getByTestId('link-expired').textContent()).toMatch(/expired or was already used/);
    await page.getByLabel('E-mail address').waitFor();
    await screenshot(page, 'sign-in-link-expired');
  });
});
