// Matches in a real browser against a real `serve --dev` whose scheduler
// seats three example bots every second: watch a running match update live
// (checked against the live stream the server sends), follow it into its
// replay when it ends, scrub the replay (checked against the engine stepping
// the same record), the bot page's rating chart (checked against the match
// records), the home page, and the match page's cold load time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { request } from 'undici';
import { availableParallelism, loadavg } from 'node:os';
import type { RunningBot } from '../../examples/starter-bot/server';
import type { Bot, LeaderboardRow, Match, MatchSummary, OpponentPage } from '../../src/protocol/index';
import { formatDelta, formatRating } from '../../src/web/lib/format';
import { describeEvent, type EventLike } from '../../src/web/lib/describe';
import { eventOfTurn, ReplayCursor } from '../../src/web/lib/replay';
import type { PublicView, RecordedEvent } from '../../engine/index';
import { DecisionGate, gatedStarterBot, makeOwner, pauseAll, registerBots, type Owner } from './support/arena-setup';
import { openBrowser, screenshot, tabThrough, unnamedControls, type BrowserSession } from './support/browser';
import { startService, type Service } from './support/service';

let svc: Service;
let browser: BrowserSession;
let page: Page;
let owner: Owner;
let bots: Bot[];
const gate = new DecisionGate(0);
const botServers: RunningBot[] = [];
let matchId: string;

async function getJson<T>(path: string): Promise<T> {
  const res = await request(svc.url + path);
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${text}`);
  return JSON.parse(text) as T;
}

/** Polls a public API condition; the scheduler's ticks are what we wait for. */
async function until<T>(
  what: string,
  read: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first message of /matches/{id}/live: the server's own snapshot of the public state. */
async function liveSnapshot(id: string): Promise<{ seq: number; view: PublicView }> {
  const res = await request(`${svc.url}/matches/${id}/live`);
  let buf = '';
  for await (const chunk of res.body) {
    buf += chunk.toString();
    const end = buf.indexOf('\n\n');
    if (end >= 0) {
      res.body.destroy();
      const block = buf.slice(0, end);
      expect(block).toMatch(/^event: snapshot\n/);
      return JSON.parse(block.slice(block.indexOf('data: ') + 6));
    }
  }
  throw new Error('the live stream ended before its snapshot');
}

/** Opens the live stream and keeps it open (its first bytes read) until aborted. */
async function holdStream(id: string): Promise<AbortController> {
  const abort = new AbortController();
  const res = await request(`${svc.url}/matches/${id}/live`, { signal: abort.signal });
  expect(res.statusCode).toBe(200);
  const it = res.body[Symbol.asyncIterator]();
  await it.next();
  res.body.on('error', () => {});
  return abort;
}

/**
 * Until the live page shows event `seq`, pressing Jump to live whenever it is behind (it shows a few events a second).
 */
async function catchUp(p: Page, seq: number): Promise<void> {
  const end = Date.now() + 30_000;
  const at = p.locator(`[role="log"][data-last-seq="${seq}"]`);
  while ((await at.count()) === 0) {
    if (Date.now() > end) throw new Error(`the live page never showed event ${seq}`);
    const jump = p.getByRole('button', { name: 'Jump to live' });
    if (await jump.count()) await jump.click().catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(await p.getByTestId('behind').count()).toBe(0);
}

const boardCounts = (p: Page) =>
  p.evaluate<{ towns: number; cities: number; roads: number; bandit: string | null; turn: string | null }>(`(() => ({
    towns: document.querySelectorAll('svg.board [data-town]').length,
    cities: document.querySelectorAll('svg.board [data-city="true"]').length,
    roads: document.querySelectorAll('svg.board [data-road]').length,
    bandit: document.querySelector('svg.board [data-bandit]')?.getAttribute('data-bandit') ?? null,
    turn: document.querySelector('svg.board')?.getAttribute('data-turn') ?? null,
  }))()`);

function expectBoardIs(got: Awaited<ReturnType<typeof boardCounts>>, view: PublicView, what: string): void {
  expect(got, what).toEqual({
    towns: view.towns.length,
    cities: view.towns.filter((t) => t.city).length,
    roads: view.roads.length,
    bandit: String(view.board.bandit),
    turn: String(view.turn),
  });
}

/** The text of each cell of each row (the test program is typed without the DOM). */
type Row = { querySelectorAll(s: 'td'): ArrayLike<{ textContent: string | null }> };
const cellTexts = (rows: Locator) =>
  rows.evaluateAll((trs) =>
    trs.map((tr) => Array.from((tr as unknown as Row).querySelectorAll('td'), (td) => td.textContent)),
  );

const position = async (p: Page) =>
  Number(/Event (\d+) of/.exec((await p.getByTestId('position').textContent()) ?? '')?.[1]);

beforeAll(async () => {
  // Two live streams per address: the page's and liveSnapshot's (and, once, two the test holds).
  svc = await startService({ tickSeconds: 1, deadlineMs: 60_000, liveStreamsPerAddress: 2 });
  owner = await makeOwner(svc, 'op@example.com', 'op');
  for (let i = 0; i < 3; i++) botServers.push(await gatedStarterBot(gate));
  bots = await registerBots(
    owner,
    botServers.map((b, i) => ({ name: `starter-${i + 1}`, url: b.url })),
  );
  browser = await openBrowser({ width: 1200, height: 1000 });
  page = browser.page;
}, 120_000);

afterAll(async () => {
  gate.open();
  await browser?.close();
  await svc?.close();
  await Promise.all(botServers.map((b) => b.close()));
});

// A real browser and a real scheduler on a shared machine: each step gets room.
describe('matches in the browser', { timeout: 120_000 }, () => {
  it('follows a running match live, in step with the server, into its replay when it ends', async () => {
    await gate.first; // the scheduler seated the three bots and the first decision is waiting
    const running = await until(
      'a running match',
      async () => (await getJson<{ matches: MatchSummary[] }>('/matches?status=running')).matches[0],
    );
    matchId = running.id;
    expect(running.players.map((p) => p.botName).sort()).toEqual(['starter-1', 'starter-2', 'starter-3']);

    // The server first refuses the page's stream (429: this address holds all its slots); the page
    // says so and tries again until it is let in, as after a proxy's 502 while the server restarts.
    const held = await Promise.all([holdStream(matchId), holdStream(matchId)]);
    await page.goto(`${svc.url}/match/${matchId}`);
    await page.getByTestId('live-state').filter({ hasText: 'reconnecting' }).waitFor();
    for (const h of held) h.abort();
    await page.getByTestId('live-state').filter({ hasText: 'Live' }).waitFor({ timeout: 20_000 });
    const log = page.getByRole('log');
    const before = Number(await log.getAttribute('data-count'));

    // Let the setup (6 placements) and some turns through, then hold: the page must follow and settle.
    // They come faster than the page shows them (a few a second): it says how far behind live it is,
    // and Jump to live catches up.
    gate.allow(60);
    await page
      .getByTestId('behind')
      .filter({ hasText: /^\d+ events? behind live$/ })
      .waitFor();
    await until('60 decisions', async () => gate.count >= 60);
    const snap = await liveSnapshot(matchId);
    await catchUp(page, snap.seq);
    await page.locator('svg.board [data-town]').nth(5).waitFor();
    expect(Number(await log.getAttribute('data-count'))).toBeGreaterThan(before + 20);
    expectBoardIs(await boardCounts(page), snap.view, "the live board equals the server's public view");
    for (let s = 0; s < snap.view.seatCount; s++) {
      const panel = page.locator(`.seat[data-seat="${s}"]`);
      expect(await panel.locator('[data-field="vp"]').textContent()).toBe(String(snap.view.scores[s]));
      expect(await panel.locator('[data-field="cards"]').textContent()).toBe(String(snap.view.handCounts[s]));
    }
    // Nothing private in the live page: no seed, and a bought card never named.
    expect(await page.getByTestId('seed').count()).toBe(0);
    expect(await unnamedControls(page)).toEqual([]);
    await screenshot(page, 'match-live');

    gate.open();
    await until('the match to end', async () => (await getJson<Match>(`/matches/${matchId}`)).status !== 'running');
    const jump = page.getByRole('button', { name: 'Jump to live' });
    if (await jump.count()) await jump.click();
    await page.getByRole('group', { name: 'Replay controls' }).waitFor({ timeout: 60_000 });
    const match = await getJson<Match>(`/matches/${matchId}`);
    expect(match.status).toBe('completed');
    expect(await page.getByTestId('seed').textContent()).toBe(match.seed);
    expect(browser.errors).toEqual([]);
  });

  it('scrubs the finished replay: step, slider keys, jump to turn, play/pause, speed, and a link to an event', async () => {
    const match = await getJson<Match & { seed: string }>(`/matches/${matchId}`);
    const cursor = new ReplayCursor(
      match.seed,
      match.players.length as 3 | 4,
      match.replay as unknown as RecordedEvent[],
    );
    expect(cursor.error).toBeNull();
    const frames = { views: match.replay.map((_, i) => cursor.view(i)), turns: cursor.turns };
    const last = frames.views.length - 1;

    await page.goto(`${svc.url}/match/${matchId}`);
    await page.getByRole('group', { name: 'Replay controls' }).waitFor();
    expect(await position(page)).toBe(last);
    expectBoardIs(await boardCounts(page), frames.views[last], 'final position');
    // Placements and rating deltas, as the record has them.
    for (const p of match.players) {
      const row = page.locator(`tr[data-bot="${p.botId}"]`);
      expect(await row.textContent()).toContain(formatDelta(p.ratingDelta!));
      expect(await page.locator(`.seat[data-seat="${p.seat}"] [data-field="placement"]`).textContent()).toMatch(
        new RegExp(`^${p.placement}(st|nd|rd|th)$`),
      );
    }

    await page.getByRole('button', { name: 'Step back' }).click();
    expect(await position(page)).toBe(last - 1);
    expectBoardIs(await boardCounts(page), frames.views[last - 1], 'one step back');

    // The slider, by keyboard alone.
    await page.getByRole('slider', { name: 'Event' }).focus();
    await page.keyboard.press('Home');
    expect(await position(page)).toBe(0);
    expectBoardIs(await boardCounts(page), frames.views[0], 'the start');
    for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight');
    expect(await position(page)).toBe(9);
    expectBoardIs(await boardCounts(page), frames.views[9], 'event 9');

    await page.getByRole('spinbutton', { name: 'Turn' }).fill('3');
    await page.getByRole('button', { name: 'Go to turn' }).click();
    const t3 = eventOfTurn(frames.turns, 3);
    expect(await position(page)).toBe(t3);
    expectBoardIs(await boardCounts(page), frames.views[t3], 'turn 3');
    expect(await page.locator('[role="log"] li.current').getAttribute('data-seq')).toBe(String(t3));
    // The current line in the shared words (src/protocol/describe.ts), its seats drawn as spans: the bot's name and
    // seat.
    const current = page.locator('[role="log"] li.current');
    const words = describeEvent(match.replay[t3] as EventLike, {
      names: match.players.map((p) => p.botName),
      board: frames.views[t3].board,
    });
    expect((await current.locator('span').nth(1).textContent())?.replace(/\s+/g, ' ').trim()).toBe(words);
    const seatSpans = current.locator('.who[data-seat]');
    expect(await seatSpans.count()).toBeGreaterThan(0);
    for (let i = 0; i < (await seatSpans.count()); i++) {
      const seat = Number(await seatSpans.nth(i).getAttribute('data-seat'));
      expect((await seatSpans.nth(i).textContent())?.trim()).toBe(
        `${match.players.find((p) => p.seat === seat)!.botName} (seat ${seat})`,
      );
    }

    await page.getByRole('combobox', { name: 'Speed' }).selectOption('16');
    await page.getByRole('button', { name: 'Play' }).click();
    await until('5 events played', async () => (await position(page)) >= t3 + 5, 20_000);
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = await position(page);
    expect(paused).toBeGreaterThanOrEqual(t3 + 5);
    expect(await page.getByRole('button', { name: 'Play' }).getAttribute('aria-pressed')).toBe('false');
    expectBoardIs(await boardCounts(page), frames.views[paused], 'after playing');

    const href = await page.getByTestId('event-link').getAttribute('href');
    expect(href).toBe(`/match/${matchId}?event=${paused}`);
    const other = await browser.context.newPage();
    await other.goto(svc.url + href!);
    await other.getByRole('group', { name: 'Replay controls' }).waitFor();
    expect(await position(other)).toBe(paused);
    expectBoardIs(await boardCounts(other), frames.views[paused], 'opened at the linked event');
    expect(await other.locator('[role="log"] li.current').getAttribute('data-seq')).toBe(String(paused));
    await other.close();

    expect(await unnamedControls(page)).toEqual([]);
    const tabbed = await tabThrough(page);
    for (const name of ['First event', 'Step back', 'Play', 'Step forward', 'Last event', 'Go to turn']) {
      expect(
        tabbed.some((t) => t.endsWith(`:${name}`) || t.includes(name)),
        `Tab reaches ${name}: ${tabbed.join(' | ')}`,
      ).toBe(true);
    }
    await screenshot(page, 'match-replay');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(
      await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
    ).toBeLessThanOrEqual(0);
    await screenshot(page, 'match-replay-375');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'match-replay-375-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 1000 });
  });

  it('the bot page charts the rating after each completed match, and never shows the URL', async () => {
    const bot = bots[0];
    // The scheduler keeps seating the three bots; wait for a few completed matches, then stop it.
    await until(
      '3 completed matches',
      async () => {
        const { rows } = await getJson<{ rows: LeaderboardRow[] }>('/leaderboard?game=pioneers');
        return rows.find((r) => r.botId === bot.id && r.gamesPlayed >= 3);
      },
      120_000,
    );
    await pauseAll(owner, bots);
    await until(
      'no running match',
      async () => (await getJson<{ matches: MatchSummary[] }>('/matches?status=running')).matches.length === 0,
    );
    // The last match's record and its ratings settle; then the leaderboard and the records agree.
    const { row, completed } = await until(
      'the leaderboard to count every completed match',
      async () => {
        const { rows } = await getJson<{ rows: LeaderboardRow[] }>('/leaderboard?game=pioneers');
        const { matches } = await getJson<{ matches: MatchSummary[] }>(`/matches?botId=${bot.id}&limit=100`);
        const row = rows.find((r) => r.botId === bot.id)!;
        const completed = matches.filter((m) => m.status === 'completed');
        return completed.length === row.gamesPlayed && { row, completed };
      },
      10_000,
    );

    await page.goto(`${svc.url}/bot/${bot.id}`);
    const chart = page.getByRole('img', { name: /Rating history over/ });
    await chart.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(bot.name);
    expect(await page.getByTestId('owner').textContent()).toBe('@op');
    expect(await page.getByTestId('rating').textContent()).toBe(formatRating(row.rating));
    expect(await page.locator('svg.chart').getAttribute('data-points')).toBe(String(completed.length));
    expect(await page.locator('svg.chart circle').count()).toBe(completed.length + 1); // the start, then one per match
    // The chart's numbers: the running sum of the deltas, oldest first, ending at the leaderboard rating.
    await page.getByText('Rating history as a table').click();
    const cells = await cellTexts(page.locator('figure table tbody tr'));
    let sum = 0;
    const oldestFirst = [...completed].reverse();
    cells.forEach((c, i) => {
      const p = oldestFirst[i].players.find((x) => x.botId === bot.id)!;
      sum += p.ratingDelta!;
      expect(c).toEqual([oldestFirst[i].id, formatDelta(p.ratingDelta!), formatRating(sum)]);
    });
    expect(formatRating(sum)).toBe(formatRating(row.rating));
    // Head-to-head from the real matches: all three bots sat at every table, so each opponent has every game.
    const h2h = await getJson<OpponentPage>(`/bots/${bot.id}/opponents`);
    expect(h2h.opponents.map((o) => o.games)).toEqual([completed.length, completed.length]);
    const opponentRows = (list: OpponentPage['opponents']) =>
      list.map((o) => [
        o.name,
        `@${o.owner}`,
        String(o.games),
        `${o.above} (${Math.round(o.aboveShare * 100)}%)`,
        o.meanPlacement.toFixed(2),
        o.opponentMeanPlacement.toFixed(2),
      ]);
    const h2hTable = page.getByTestId('opponents');
    await h2hTable.waitFor();
    expect(await cellTexts(h2hTable.locator('tbody tr'))).toEqual(opponentRows(h2h.opponents));
    // A column's button sorts by it (the server sorts), a second click reverses.
    const byName = await getJson<OpponentPage>(`/bots/${bot.id}/opponents?sort=name&order=desc`);
    await h2hTable.getByRole('button', { name: /Opponent/ }).click();
    await h2hTable.getByRole('button', { name: /Opponent/ }).click();
    await expect.poll(() => h2hTable.locator('th[aria-sort="descending"]').count()).toBe(1);
    await expect.poll(() => cellTexts(h2hTable.locator('tbody tr'))).toEqual(opponentRows(byName.opponents));
    expect(await page.content()).not.toContain(botServers[0].url);
    expect(await page.content()).not.toContain(String(botServers[0].port));
    expect(await unnamedControls(page)).toEqual([]);
    await screenshot(page, 'bot-page');
  });

  it('the home page shows the leaderboard (@owner, 1-decimal ratings, games) and recent matches', async () => {
    await page.goto(`${svc.url}/`);
    const table = page.getByTestId('leaderboard');
    await table.waitFor();
    const { rows } = await getJson<{ rows: LeaderboardRow[] }>('/leaderboard?game=pioneers');
    const shown = await cellTexts(table.locator('tbody tr'));
    expect(shown).toEqual(
      rows.map((r) => [String(r.rank), r.name, `@${r.owner}`, formatRating(r.rating), String(r.gamesPlayed)]),
    );
    await page.locator(`li[data-match="${matchId}"]`).or(page.locator('li[data-match]').first()).first().waitFor();
    // Each name in a match's line of players is isolated (<bdi>): a right-to-left name cannot reorder the others.
    const line = page.locator('li[data-match]').first().locator('div.muted');
    const names = await line.locator('bdi').allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const n of names) expect(await line.textContent()).toContain(n);
    expect(await page.getByText('No match is running.').count()).toBe(1);
    expect(await unnamedControls(page)).toEqual([]);
    await screenshot(page, 'home');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(
      await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
    ).toBeLessThanOrEqual(0);
    await screenshot(page, 'home-375');
    await page.setViewportSize({ width: 1200, height: 1000 });
    expect(browser.errors).toEqual([]);
  });

  it('loads the match page in under 1 s from a cold cache on loopback', async () => {
    // Each try is a new browser profile: nothing cached. The browser process is started first
    // (about:blank) so the time is the page's, not the browser's start-up. The time is the
    // browser's own navigation timeline: from navigation start to the board on screen (the page
    // marks 'arena:board' once the board is committed). On a machine shared with other work the
    // wall clock stretches, so up to five tries, each in a fresh profile, and the best counts; the
    // main thread's CPU time for the same load is checked too, as it does not stretch.
    const walls: number[] = [];
    const cpus: number[] = [];
    const cores = availableParallelism();
    for (let i = 0; i < 5 && !walls.some((w) => w < 1000); i++) {
      const cold = await openBrowser({ width: 1200, height: 1000 });
      try {
        await cold.page.goto('about:blank');
        const cdp = await cold.context.newCDPSession(cold.page);
        await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
        const threadTime = async () =>
          (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')!.value * 1000;
        const cpu0 = await threadTime();
        await cold.page.goto(`${svc.url}/match/${matchId}`);
        await cold.page.locator('svg.board').waitFor();
        const cpu = (await threadTime()) - cpu0;
        const t = await cold.page.evaluate<{ board: number; transferred: number[]; timeline: string }>(`(() => {
          const nav = performance.getEntriesByType('navigation')[0];
          const marks = performance.getEntriesByType('mark').map((m) => m.name + ' ' + m.startTime.toFixed(0));
          const res = performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname.slice(0, 24) + ' ' + r.startTime.toFixed(0) + '-' + r.responseEnd.toFixed(0));
          return {
            board: performance.getEntriesByName('arena:board')[0].startTime,
            transferred: performance.getEntriesByType('resource').filter((r) => r.name.includes('/assets/')).map((r) => r.transferSize),
            timeline: 'html ' + nav.responseEnd.toFixed(0) + ', ' + res.join(', ') + ', DOMContentLoaded ' + nav.domContentLoadedEventEnd.toFixed(0) + ', ' + marks.join(', '),
          };
        })()`);
        // Cold: both assets came over the network, not from a cache.
        expect(t.transferred).toHaveLength(2);
        for (const size of t.transferred) expect(size).toBeGreaterThan(0);
        console.log(
          `match page, cold cache, try ${i + 1}: board on screen at ${t.board.toFixed(0)} ms, main thread busy ${cpu.toFixed(0)} ms (${t.timeline})`,
        );
        walls.push(t.board);
        cpus.push(cpu);
      } finally {
        await cold.close();
      }
    }
    // The page's own cost: under a second of the main thread, whatever else the machine runs.
    expect(Math.min(...cpus)).toBeLessThan(1000);
    // The wall clock as a user sees it, asserted when this machine is not oversubscribed: with more
    // runnable work than cores, every process's clock stretches and measures the machine, not the page.
    const [load] = loadavg();
    if (load <= cores) expect(Math.min(...walls)).toBeLessThan(1000);
    else
      console.log(
        `load average ${load.toFixed(1)} on ${cores} cores: wall clock (best ${Math.min(...walls).toFixed(0)} ms) reported, not asserted`,
      );
  }, 180_000);

  it('an unrated match (two bots of one owner at the table) says "unrated" beside its status', async () => {
    // A copy of the finished match, stored as the scheduler stores an unrated one.
    const played = (await svc.store.getMatch(matchId))!;
    const id = `${matchId}_unrated`;
    await svc.store.completeMatch(
      { ...played, id, rated: false, players: played.players.map((p) => ({ ...p, ratingDelta: null })) },
      [],
    );
    await page.goto(`${svc.url}/match/${id}`);
    await page.getByTestId('unrated').waitFor();
    expect(await page.getByTestId('unrated').textContent()).toBe('unrated');
    await page.goto(`${svc.url}/match/${matchId}`);
    await page.locator('svg.board').waitFor();
    expect(await page.getByTestId('unrated').count()).toBe(0);
    expect(browser.errors).toEqual([]);
  });
});
