// The bot page's status, qualification and versions, in a real browser
// against a real service: the owner, signed in, sees the failed qualifier
// (its reason and each strike's) and requalifies with the button; another
// signed-in owner sees no such section and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOwner } from './support/arena-setup';
import { openBrowser, type BrowserSession } from './support/browser';
import { signIn, startService, type Service } from './support/service';

let svc: Service;
let botId: string;
const sessions: BrowserSession[] = [];

beforeAll(async () => {
  svc = await startService({ qualify: 'on' });
  await makeOwner(svc, 'alice@example.com', 'alice');
  await makeOwner(svc, 'bob@example.com', 'bob');
  const alice = (await svc.store.getUserByEmail('alice@example.com'))!;
  // Stored directly, its qualifier's end written as the qualifier would: the service never ticks (tickSeconds 0).
  botId = (
    await svc.store.addBot({
      ownerId: alice.id,
      name: 'alice-q',
      game: 'pioneers',
      url: 'wss://alice-q.example/',
      qualify: true,
    })
  ).id;
  await svc.store.finishQualification(botId, 1, {
    state: 'failed',
    matchId: 'm_qualifier',
    resigned: true,
    reason: 'resigned after 3 strikes',
    strikes: [{ reason: 'illegal', code: 'not_adjacent', message: 'the road does not touch <b>your</b> settlement' }],
  });
}, 120_000);

afterAll(async () => {
  for (const s of sessions) await s.close();
  await svc?.close();
});

async function browser(): Promise<BrowserSession> {
  const s = await openBrowser();
  sessions.push(s);
  return s;
}

describe("the bot page's qualification", () => {
  it('shows the owner the failed qualifier and its strikes, and requalifies', async () => {
    const { page, errors } = await browser();
    await signIn(page, svc, 'alice@example.com');
    await page.goto(`${svc.url}/bots/${botId}`);
    await page.getByTestId('qualification').waitFor();
    expect(await page.getByTestId('bot-status').innerText()).toBe('failed');
    expect(await page.getByTestId('qualification').innerText()).toContain('failed (v1): resigned after 3 strikes');
    expect(await page.getByTestId('qualification-strikes').innerText()).toContain(
      'illegal not_adjacent: the road does not touch <b>your</b> settlement',
    );
    expect(await page.getByTestId('versions').locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Requalify' }).click();
    await page.getByTestId('bot-status').getByText('qualifying').waitFor();
    expect((await svc.store.getBot(botId))!.status).toBe('qualifying');
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows another owner no such section', async () => {
    const { page } = await browser();
    await signIn(page, svc, 'bob@example.com');
    await page.goto(`${svc.url}/bots/${botId}`);
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('qualification').count()).toBe(0);
    expect(await page.content()).not.toContain('resigned after');
  }, 60_000);
});
