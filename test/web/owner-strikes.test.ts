// The bot page's strike log, in a real browser against a real service: the
// bot's owner, signed in, sees each strike (code, message, decision, the
// answer's first bytes, shown as text); another signed-in owner and a
// signed-out visitor see no strike section at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOwner } from './support/arena-setup';
import { openBrowser, type BrowserSession } from './support/browser';
import { signIn, startService, type Service } from './support/service';
import { aborted, runningMatch } from '../service/store/store-fixtures';

let svc: Service;
let botId: string;
const ANSWER = '{"id":7,"action":"<img src=x onerror=window.pwned=1>"}';
const sessions: BrowserSession[] = [];

beforeAll(async () => {
  svc = await startService();
  await makeOwner(svc, 'alice@example.com', 'alice');
  await makeOwner(svc, 'bob@example.com', 'bob');
  const alice = (await svc.store.getUserByEmail('alice@example.com'))!;
  const ids: string[] = [];
  // Bots stored directly: the service never ticks (tickSeconds 0), so they are never dialled.
  for (let i = 0; i < 3; i++)
    ids.push(
      (
        await svc.store.addBot({
          ownerId: alice.id,
          name: `alice-${i}`,
          game: 'pioneers',
          url: `wss://alice-${i}.example/`,
        })
      ).id,
    );
  botId = ids[0];
  const m = runningMatch(ids);
  await svc.store.putMatch(m);
  await svc.store.putMatch(aborted(m));
  await svc.store.putOwnerMatchData(m.id, botId, {
    endedAt: '2026-11-27T10:00:00.000Z',
    notes: [],
    strikes: [
      {
        decisionId: 7,
        kind: 'turn',
        turn: 3,
        seat: 0,
        reason: 'illegal',
        code: 'occupied',
        message: 'that place is already taken',
        answer: ANSWER,
        answerBytes: 240,
        strikes: 1,
      },
    ],
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

describe("the bot page's strike log", () => {
  it('shows the owner each strike, the answer as text', async () => {
    const { page, errors } = await browser();
    await signIn(page, svc, 'alice@example.com');
    await page.goto(`${svc.url}/bots/${botId}`);
    const row = page.getByTestId('strikes').locator('tbody tr');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const text = await row.first().innerText();
    for (const part of [
      '7 (turn, turn 3)',
      'illegal occupied',
      'that place is already taken',
      ANSWER,
      '(of 240 bytes)',
    ])
      expect(text).toContain(part);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows another owner and a signed-out visitor no strike section', async () => {
    const { page: bob } = await browser();
    await signIn(bob, svc, 'bob@example.com');
    const { page: anon } = await browser();
    for (const page of [bob, anon]) {
      const asked: string[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/strikes')) asked.push(`${r.status()}`);
      });
      await page.goto(`${svc.url}/bots/${botId}`);
      await page.getByText('Recent matches').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByText('Strikes', { exact: true }).count()).toBe(0);
      expect(await page.content()).not.toContain('already taken');
      // Bob's browser asks and is refused; the signed-out one does not ask.
      expect(asked).toEqual(page === bob ? ['403'] : []);
    }
  }, 60_000);
});
