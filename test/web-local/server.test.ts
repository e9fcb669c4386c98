// `arena play --web`'s server (src/web-local) in Debian's Chromium: a local
// tournament with a real WebSocket bot, no account and no data directory. The
// home page lists the games, a running game's board moves live, a finished
// game scrubs, and the bot's own note shows on its decision.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTournament } from '../../src/arena/tournament';
import { runMatch } from '../../src/runner/index';
import { LocalGames, startLocalWeb, type LocalWeb } from '../../src/web-local/server';
import { legalPlayer } from '../support/policies';
import { startTestBot, type TestBot } from '../support/test-bot';
import { openBrowser, type BrowserSession } from '../web/support/browser';
import { ensureWebBuilt } from '../web/support/service';

let bot: TestBot;
let web: LocalWeb;
let browser: BrowserSession;
const games = new LocalGames();
/** While true the bot takes its time, so the test can watch a game in play. */
let slow = true;
let tournament: Promise<unknown>;

beforeAll(async () => {
  await ensureWebBuilt();
  const play = legalPlayer();
  bot = await startTestBot({
    behaviour: async (ctx) => {
      if (slow) await new Promise((r) => setTimeout(r, 40));
      ctx.socket.send(
        JSON.stringify({
          id: ctx.request.id,
          action: play(ctx.request.view, ctx.request.kind, ctx.request.matchId),
          debug: { thought: `plan ${ctx.request.id}` },
        }),
      );
    },
  });
  web = await startLocalWeb(games);
  browser = await openBrowser();
  tournament = runTournament({
    bots: [
      { id: 'noter', name: 'noter', source: { type: 'ws', url: bot.url } },
      { id: 'r1', name: 'r1', source: { type: 'builtin', bot: 'random' } },
      { id: 'r2', name: 'r2', source: { type: 'builtin', bot: 'random' } },
    ],
    games: 2,
    seats: 3,
    seed: 'local-web',
    platformKey: generateKeyPairSync('ed25519').privateKey,
    deadlineMs: 5000,
    playMatch: games.wrap(runMatch),
  });
}, 120_000);

afterAll(async () => {
  slow = false;
  await tournament.catch(() => {});
  await browser?.close();
  await web?.close();
  await bot?.close();
});

describe('arena play --web', () => {
  it('lists the games and shows a running one live: the board moves', async () => {
    while (!games.list().some((m) => m.status === 'running')) await new Promise((r) => setTimeout(r, 20));
    const running = games.list().find((m) => m.status === 'running')!;
    const { page } = browser;
    await page.goto(`${web.url}/`);
    await page.locator(`a[href="/match/${running.id}"]`).first().waitFor();
    await page.goto(`${web.url}/match/${running.id}`);
    const state = page.getByTestId('live-state');
    await state.filter({ hasText: 'Live' }).filter({ hasText: 'turn' }).waitFor({ timeout: 20_000 });
    const first = await state.textContent();
    // The turn moves on while we watch (the bot answers every 40 ms).
    await expect.poll(() => state.textContent(), { timeout: 20_000, interval: 100 }).not.toBe(first);
    expect(await page.locator('svg').count()).toBeGreaterThan(0);
    slow = false;
  }, 60_000);

  it("a finished game scrubs, and the bot's note shows on its decision", async () => {
    slow = false;
    await tournament;
    const done = games.list().find((m) => m.status === 'completed' && m.decisions?.some((d) => d.debug !== undefined))!;
    const noted = done.decisions!.find(
      (d) => d.debug !== undefined && done.replay[d.seq]?.seat === d.seat && d.kind === 'turn',
    )!;
    const { page, errors } = browser;
    await page.goto(`${web.url}/match/${done.id}?event=${noted.seq}`);
    const note = page.getByTestId('decision-note');
    await note.waitFor();
    expect(await note.textContent()).toBe(JSON.stringify({ thought: `plan ${noted.id}` }));
    expect(await page.getByTestId('decision-ms').textContent()).toBe(`${noted.ms} ms`);
    // Scrub: a step forward moves the slider, and the decision shown follows the event.
    const slider = page.getByRole('slider', { name: 'Event' });
    const before = await slider.getAttribute('aria-valuetext');
    await page.getByRole('button', { name: 'Step forward' }).click();
    await expect.poll(() => slider.getAttribute('aria-valuetext')).not.toBe(before);
    await page.getByRole('button', { name: 'First event' }).click();
    expect(await slider.getAttribute('aria-valuetext')).toMatch(/^Event 0 of/);
    expect(errors).toEqual([]);
  }, 60_000);
});
