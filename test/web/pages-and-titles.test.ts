// The dashboard at the API's own addresses, and what each page calls itself.
// A browser that opens /leaderboard or /matches/ID (its Accept prefers HTML)
// gets the dashboard's page for that path, so a shared link works either
// way; API clients (JSON, */*, no Accept) get JSON as before. Page titles
// name the page (bots, not a raw match id), and the leaderboard says what
// its rating is. A real serve --dev, a real match record, real Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { request } from 'undici';
import { generateKeyPair } from '../../src/keys';
import { runMatch } from '../../src/runner';
import { prefersHtml } from '../../src/service/dashboard';
import { openBrowser, type BrowserSession } from './support/browser';
import { startService, type Service } from './support/service';

const CHROME_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let svc: Service;
let browser: BrowserSession;
let page: Page;
let matchId: string;
const names = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'];

beforeAll(async () => {
  svc = await startService();
  // A finished match in the store, played by built-in bots with people's names.
  const { privateKey } = generateKeyPair();
  const result = await runMatch({
    matchId: 'm_titles1',
    seed: 'titles-seed',
    platformKey: privateKey,
    entrants: names.map((n, i) => ({ botId: `b_t${i}`, botName: n, source: { type: 'builtin', bot: 'greedy' } })),
  });
  expect(result.match.status).toBe('completed');
  await svc.store.completeMatch(result.match, []);
  matchId = result.match.id;
  browser = await openBrowser();
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await svc?.close();
});

async function get(path: string, accept?: string) {
  const res = await request(svc.url + path, { headers: accept === undefined ? {} : { accept } });
  return {
    status: res.statusCode,
    type: String(res.headers['content-type']),
    vary: String(res.headers.vary ?? ''),
    body: await res.body.text(),
  };
}

describe('content negotiation at the API paths', () => {
  it('prefersHtml: a browser navigation yes; JSON, */*, no Accept or a tie no', () => {
    expect(prefersHtml(CHROME_ACCEPT)).toBe(true);
    expect(prefersHtml(FIREFOX_ACCEPT)).toBe(true);
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml(undefined)).toBe(false);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml('application/json')).toBe(false);
    expect(prefersHtml('application/json, text/html;q=0.9')).toBe(false);
    expect(prefersHtml('text/html, application/json')).toBe(false);
    expect(prefersHtml('text/html;q=0, */*')).toBe(false);
    expect(prefersHtml('text/*, application/json;q=0.5')).toBe(true);
  });

  it('a browser gets the dashboard at /leaderboard, /matches and /matches/ID; the API is unchanged for everyone else', async () => {
    const html = await get('/', CHROME_ACCEPT);
    expect(html.type).toContain('text/html');
    for (const path of ['/leaderboard', '/matches', `/matches/${matchId}`, '/bots', '/keys', '/me']) {
      const page = await get(path, CHROME_ACCEPT);
      expect(page.status, path).toBe(200);
      expect(page.type, path).toBe('text/html; charset=utf-8');
      expect(page.body, path).toBe(html.body);
      expect(page.vary, path).toContain('accept');
    }
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
      const lb = await get('/leaderboard', accept);
      expect(lb.status).toBe(200);
      expect(lb.type).toContain('application/json');
      expect(JSON.parse(lb.body)).toHaveProperty('rows');
      expect(lb.vary).toContain('accept');
      const m = await get(`/matches/${matchId}`, accept);
      expect(m.type).toContain('application/json');
      expect(JSON.parse(m.body).id).toBe(matchId);
      const none = await get('/matches/m_nosuch', accept);
      expect(none.status).toBe(404);
      expect(JSON.parse(none.body).error.code).toBe('not_found');
    }
    // Signed-in API paths still answer 401 in JSON to an API client.
    expect((await get('/me', 'application/json')).status).toBe(401);
    // The live stream is never a page.
    const live = await request(`${svc.url}/matches/${matchId}/live`, { headers: { accept: CHROME_ACCEPT } });
    expect(String(live.headers['content-type'])).toContain('text/event-stream');
    await live.body.text();
  });

  it('in a browser, /matches/ID is the match page and /leaderboard the leaderboard', async () => {
    await page.goto(`${svc.url}/matches/${matchId}`);
    await page.getByRole('heading', { level: 1, name: /Ada Lovelace/ }).waitFor();
    expect(await page.getByTestId('seed').textContent()).toBe('titles-seed');
    await page.goto(`${svc.url}/leaderboard`);
    await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
    expect(browser.errors).toEqual([]);
  });
});

describe('page titles and the rating line', () => {
  it('the match page is titled by its bots, not its id, and its times have seconds', async () => {
    await page.goto(`${svc.url}/match/${matchId}`);
    const h1 = page.getByRole('heading', { level: 1 });
    await h1.filter({ hasText: 'Grace Hopper' }).waitFor();
    const heading = (await h1.textContent())!;
    for (const n of names) expect(heading).toContain(n);
    expect(heading).not.toContain(matchId);
    const title = await page.title();
    expect(title).toMatch(/ — Bot Arena$/);
    for (const n of names) expect(title).toContain(n);
    expect(title).not.toContain(matchId);
    // started 23:31:05: hours, minutes and seconds.
    expect(await page.getByTestId('match-times').textContent()).toMatch(/started .*\d{1,2}:\d{2}:\d{2}/);
  });

  it('the leaderboard page says what its rating is', async () => {
    await page.goto(`${svc.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
    expect(await page.title()).toBe('Leaderboard — Bot Arena');
    const line = (await page.getByTestId('rating-explained').textContent())!;
    expect(line).toMatch(/mu − 3 ?σ|mu − 3 sigma|μ − 3σ/);
    expect(line).toMatch(/conservative/i);
  });

  it('the header names the arena, and the page has a favicon', async () => {
    await page.goto(`${svc.url}/`);
    expect(await page.locator('header').getByText('Bot Arena').count()).toBeGreaterThan(0);
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toMatch(/^\/assets\/|^data:image\/svg/);
    if (icon!.startsWith('/assets/')) {
      const r = await request(svc.url + icon);
      expect(r.statusCode).toBe(200);
      expect(String(r.headers['content-type'])).toContain('image/svg');
      await r.body.text();
    }
    expect(browser.errors).toEqual([]);
  });
});
