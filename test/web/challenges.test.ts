// Challenges on the dashboard, in a real browser against a real service: a
// signed-in visitor challenges another account's bot from its page and sees
// the challenge pending; the bot's owner turns challenges off from the same
// page, after which the button's request is refused with the server's
// reason; a match played for a challenge says so on its page and in lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOwner } from './support/arena-setup';
import { openBrowser, type BrowserSession } from './support/browser';
import { signIn, startService, type Service } from './support/service';
import { aborted, runningMatch } from '../service/store/store-fixtures';

let svc: Service;
let aliceBot: string;
let bobBot: string;
let challengeMatch: string;
const sessions: BrowserSession[] = [];

beforeAll(async () => {
  svc = await startService();
  await makeOwner(svc, 'alice@example.com', 'alice');
  await makeOwner(svc, 'bob@example.com', 'bob');
  const alice = (await svc.store.getUserByEmail('alice@example.com'))!;
  const bob = (await svc.store.getUserByEmail('bob@example.com'))!;
  // Bots stored directly: the service never ticks (tickSeconds 0), so they are never dialled.
  const ids: string[] = [];
  for (let i = 0; i < 2; i++)
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
  bobBot = (await svc.store.addBot({ ownerId: bob.id, name: 'bob-0', game: 'pioneers', url: 'wss://bob-0.example/' }))
    .id;
  aliceBot = ids[0];
  // A public record, so the bot page has something to show; this one was a challenge.
  const m = { ...runningMatch([...ids, bobBot]), rated: false, challenge: 'c_fromafixture' };
  challengeMatch = m.id;
  await svc.store.putMatch(m);
  // Aborted before it had a replay: the page shows its players and no board.
  await svc.store.putMatch({ ...aborted(m), replay: [] });
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

describe('challenges on the dashboard', () => {
  it("another account challenges a bot from its page; its owner refuses challenges; the next one is refused with the server's reason", async () => {
    const { page: bob, errors } = await browser();
    await signIn(bob, svc, 'bob@example.com');
    await bob.goto(`${svc.url}/bots/${aliceBot}`);
    await bob.getByRole('heading', { name: `Challenge bot ${aliceBot}` }).waitFor();
    await bob.getByRole('button', { name: 'Challenge', exact: true }).click();
    await bob.getByRole('status').filter({ hasText: 'Challenge sent' }).waitFor();
    await bob.getByTestId('challenges').getByText('pending').waitFor();
    const bobId = (await svc.store.getUserByEmail('bob@example.com'))!.id;
    const made = await svc.store.listChallenges(bobId, 10);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ botId: bobBot, opponents: [aliceBot], status: 'pending' });

    const { page: alice } = await browser();
    await signIn(alice, svc, 'alice@example.com');
    await alice.goto(`${svc.url}/bots/${aliceBot}`);
    await alice.getByTestId('challengeable').getByText('Other accounts may challenge this bot').waitFor();
    await alice.getByRole('button', { name: 'Refuse challenges' }).click();
    await alice.getByTestId('challengeable').getByText('This bot refuses challenges').waitFor();
    expect((await svc.store.getBot(aliceBot))!.challengeable).toBe(false);

    await bob.reload();
    await bob.getByRole('button', { name: 'Challenge', exact: true }).click();
    await bob.getByRole('alert').filter({ hasText: 'does not accept challenges' }).waitFor();
    expect(await svc.store.listChallenges(bobId, 10)).toHaveLength(1);
    expect(errors.filter((e) => !/409|403|Failed to load resource/.test(e))).toEqual([]);
  }, 90_000);

  it("a match played for a challenge says so on its page and in the bot page's list", async () => {
    const { page } = await browser();
    await page.goto(`${svc.url}/matches/${challengeMatch}`);
    await page.getByTestId('challenge').waitFor();
    expect(await page.getByTestId('challenge').innerText()).toContain('challenge');
    await page.goto(`${svc.url}/bots/${aliceBot}`);
    await page.locator(`[data-match="${challengeMatch}"]`).getByTestId('challenge').waitFor();
    // Signed out: no challenge section.
    expect(await page.getByRole('heading', { name: /^Challenge/ }).count()).toBe(0);
  }, 60_000);
});
