// Nothing of one user reaches another: a signed-out visitor and a second
// user, in their own browsers and then in the first user's browser after it
// signs out, see none of the first user's bots, bot URLs, keys or e-mail,
// neither in the pages nor in any response the pages fetched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { request } from 'undici';
import type { RunningBot } from '../../examples/starter-bot/server';
import type { Bot, MatchSummary } from '../../src/protocol/index';
import { listBots, listKeys } from '../../src/client/owner';
import { DecisionGate, gatedStarterBot, makeOwner, pauseAll, registerBots, type Owner } from './support/arena-setup';
import { openBrowser, screenshot } from './support/browser';
import { signIn, startService, type Service } from './support/service';

let svc: Service;
let alice: Owner;
let aliceBots: Bot[];
const botServers: RunningBot[] = [];
let matchId: string;
const secrets: string[] = [];

/** Every response body the page receives, as text (the event stream of a running match is not waited for). */
function recordResponses(
  page: Page,
): Array<{ url: string; status: number; headers: Record<string, string>; body: string }> {
  const seen: Array<{ url: string; status: number; headers: Record<string, string>; body: string }> = [];
  page.on('response', (res: Response) => {
    if (res.headers()['content-type']?.startsWith('text/event-stream')) return;
    void res.text().then(
      (body) => seen.push({ url: res.url(), status: res.status(), headers: res.headers(), body }),
      () => {},
    );
  });
  return seen;
}

function expectNoSecrets(text: string, where: string): void {
  for (const s of secrets) expect(text.includes(s), `${where} contains ${s}`).toBe(false);
}

/** Visits each page, waits for it to settle, and checks its text and every response. */
async function visitAll(page: Page, who: string, paths: string[]): Promise<void> {
  const responses = recordResponses(page);
  for (const path of paths) {
    await page.goto(svc.url + path);
    await page.locator('main h1').waitFor();
    await page.waitForLoadState('networkidle');
    expectNoSecrets(await page.content(), `${who}'s page ${path}`);
    await screenshot(
      page,
      `privacy-${who}-${path.split('/')[1] || 'home'}${path.split('/')[2] && !path.startsWith('/account') ? '' : path.split('/')[2] ? `-${path.split('/')[2]}` : ''}`,
    );
  }
  expect(responses.length).toBeGreaterThan(paths.length);
  for (const r of responses) expectNoSecrets(r.body, `${who}'s response from ${r.url}`);
}

beforeAll(async () => {
  svc = await startService({ tickSeconds: 1 });
  alice = await makeOwner(svc, 'alice@example.com', 'alice');
  const gate = new DecisionGate();
  for (let i = 0; i < 3; i++) botServers.push(await gatedStarterBot(gate));
  aliceBots = await registerBots(
    alice,
    botServers.map((b, i) => ({ name: `alice-${i + 1}`, url: b.url })),
  );
  // One finished match, so the bots have public pages.
  const end = Date.now() + 60_000;
  for (;;) {
    const res = await request(`${svc.url}/matches?status=completed`);
    const { matches } = (await res.body.json()) as { matches: MatchSummary[] };
    if (matches.length) {
      matchId = matches[0].id;
      break;
    }
    if (Date.now() > end) throw new Error('no completed match');
    await new Promise((r) => setTimeout(r, 100));
  }
  await pauseAll(alice, aliceBots);
  // Her own key list, read with her signed key through the CLI's client.
  for (const k of await listKeys(alice.target)) secrets.push(k.id, k.publicKey);
  for (const b of botServers) secrets.push(b.url, `127.0.0.1:${b.port}`);
  secrets.push('alice@example.com');
}, 120_000);

afterAll(async () => {
  await svc?.close();
  await Promise.all(botServers.map((b) => b.close()));
});

describe('privacy between users', () => {
  it("a signed-out visitor sees public pages and none of alice's bots, URLs, keys or e-mail", async () => {
    const b = await openBrowser();
    try {
      await visitAll(b.page, 'visitor', [
        '/',
        `/bot/${aliceBots[0].id}`,
        `/match/${matchId}`,
        '/account/bots',
        '/account/keys',
        '/account',
      ]);
      // Her bots are public by name; their pages exist.
      await b.page.goto(`${svc.url}/bot/${aliceBots[0].id}`);
      await b.page.getByTestId('owner').filter({ hasText: '@alice' }).waitFor();
      for (const path of ['/bots?game=pioneers', '/keys', `/bots/${aliceBots[0].id}`, '/me']) {
        const r = await b.page.evaluate<{ status: number; body: string }>(
          `fetch(${JSON.stringify(path)}).then(async (r) => ({ status: r.status, body: await r.text() }))`,
        );
        expect(r.status, path).toBe(401);
        expectNoSecrets(r.body, `the visitor's ${path}`);
      }
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 120_000);

  it("a second user sees only their own (empty) lists and cannot read or touch alice's bot or key", async () => {
    const b = await openBrowser();
    try {
      await signIn(b.page, svc, 'bob@example.com');
      await visitAll(b.page, 'bob', [
        '/',
        `/bot/${aliceBots[0].id}`,
        `/match/${matchId}`,
        '/account/bots',
        '/account/keys',
        '/account',
      ]);
      await b.page.goto(`${svc.url}/account/bots`);
      await b.page.getByText('You have no bots yet.').waitFor();
      await b.page.goto(`${svc.url}/account/keys`);
      await b.page.getByText('No keys yet.').waitFor();
      const call = (method: string, path: string) =>
        b.page.evaluate<{ status: number; body: string }>(
          `fetch(${JSON.stringify(path)}, { method: ${JSON.stringify(method)}, cache: 'no-store' }).then(async (r) => ({ status: r.status, body: await r.text() }))`,
        );
      expect(JSON.parse((await call('GET', '/bots?game=pioneers')).body)).toEqual({ bots: [] });
      expect(JSON.parse((await call('GET', '/keys')).body)).toEqual({ keys: [] });
      for (const [method, path] of [
        ['GET', `/bots/${aliceBots[0].id}`],
        ['POST', `/bots/${aliceBots[0].id}/resume`],
        ['DELETE', `/bots/${aliceBots[1].id}`],
        ['POST', `/keys/${secrets[0]}/revoke`],
      ]) {
        const r = await call(method, path);
        expect([403, 404], `${method} ${path}`).toContain(r.status);
        // An error may repeat the id bob sent; nothing else of alice's.
        expectNoSecrets(r.body.split(path.split('/')[2]).join(''), `bob's ${method} ${path}`);
      }
      // Nothing changed for alice.
      expect((await listBots(alice.target)).map((x) => [x.name, x.status])).toEqual([
        ['alice-1', 'paused'],
        ['alice-2', 'paused'],
        ['alice-3', 'paused'],
      ]);
      expect((await listKeys(alice.target)).every((k) => k.revokedAt === null)).toBe(true);
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 120_000);

  it('in one browser, after alice signs out and bob signs in, nothing of hers is shown or served from a cache', async () => {
    const b = await openBrowser();
    try {
      // Alice signs in to the dashboard with her e-mail and looks at her bots and keys.
      await signIn(b.page, svc, 'alice@example.com');
      const own = recordResponses(b.page);
      await b.page.goto(`${svc.url}/account/bots`);
      await b.page.getByTestId('bot-url').first().waitFor();
      expect(await b.page.content()).toContain(botServers[0].url);
      await b.page.goto(`${svc.url}/account/keys`);
      await b.page.locator('tr[data-key]').first().waitFor();
      await b.page.waitForLoadState('networkidle');
      // Her private responses are marked so no cache keeps them.
      const privateOnes = own.filter((r) => ['/me', '/bots', '/keys'].includes(new URL(r.url).pathname));
      expect(privateOnes.length).toBeGreaterThanOrEqual(2);
      for (const r of privateOnes) expect(r.headers['cache-control'], r.url).toBe('no-store');

      await b.page.getByRole('button', { name: 'Sign out' }).click();
      await b.page.getByRole('link', { name: 'Sign in' }).waitFor();
      await b.page.goBack();
      await b.page.locator('main h1').waitFor();
      expectNoSecrets(await b.page.content(), 'the page after signing out and going back');

      await signIn(b.page, svc, 'carol@example.com');
      await visitAll(b.page, 'carol-after-alice', ['/account/bots', '/account/keys', '/account']);
      await b.page.goto(`${svc.url}/account/bots`);
      await b.page.getByText('You have no bots yet.').waitFor();
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 120_000);
});
