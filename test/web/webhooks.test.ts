// The dashboard's Webhooks page, in a real browser against a real service
// (dev mode) and a real receiver on 127.0.0.1: the owner adds a webhook with
// the form, sees it listed and, once an event is delivered, its delivery with
// status; removes it after a confirmation; another owner sees none of it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOwner } from './support/arena-setup';
import { openBrowser, type BrowserSession } from './support/browser';
import { signIn, startService, type Service } from './support/service';
import { aborted, runningMatch } from '../service/store/store-fixtures';

let svc: Service;
let receiver: Server;
let receiverUrl: string;
const got: string[] = [];
const sessions: BrowserSession[] = [];

beforeAll(async () => {
  svc = await startService();
  await makeOwner(svc, 'alice@example.com', 'alice');
  await makeOwner(svc, 'bob@example.com', 'bob');
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
}, 120_000);

afterAll(async () => {
  for (const s of sessions) await s.close();
  await svc?.close();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

async function browser(): Promise<BrowserSession> {
  const s = await openBrowser();
  sessions.push(s);
  return s;
}

describe('the Webhooks page', () => {
  it('adds a webhook, shows its deliveries with status, and removes it; another owner sees nothing of it', async () => {
    const { page, errors } = await browser();
    await signIn(page, svc, 'alice@example.com');
    await page.goto(`${svc.url}/account/webhooks`);
    await page.getByLabel('URL').fill(receiverUrl);
    await page.getByLabel('bot.struck_out').check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const card = page.locator('[data-webhook]');
    await card.first().waitFor();
    expect(await card.count()).toBe(1);
    expect(await card.first().innerText()).toContain(receiverUrl);
    const alice = (await svc.store.getUserByEmail('alice@example.com'))!;
    const [hook] = await svc.store.listWebhooks(alice.id);
    expect(hook.events).toEqual(['match.completed', 'bot.struck_out']);

    svc.server.webhooks.sink({
      type: 'bot.struck_out',
      ownerId: alice.id,
      botId: 'b_x',
      matchId: 'm_x',
      data: { strikes: 3 },
    });
    await svc.server.webhooks.settled();
    expect(got).toHaveLength(1);
    await page.reload();
    const row = page.getByTestId('deliveries').locator('tbody tr');
    await row.first().waitFor();
    const text = await row.first().innerText();
    for (const part of ['bot.struck_out', 'delivered', 'HTTP 204']) expect(text).toContain(part);

    const { page: bob } = await browser();
    await signIn(bob, svc, 'bob@example.com');
    await bob.goto(`${svc.url}/account/webhooks`);
    await bob.getByText('No webhooks yet.').waitFor();
    expect(await bob.content()).not.toContain(receiverUrl);

    await page.getByRole('button', { name: `Remove webhook ${receiverUrl}` }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByText('No webhooks yet.').waitFor();
    expect(await svc.store.listWebhooks(alice.id)).toEqual([]);
    expect(errors).toEqual([]);
  }, 90_000);

  it('the bot page shows its owner the webhooks that hear of it, and another owner nothing', async () => {
    const alice = (await svc.store.getUserByEmail('alice@example.com'))!;
    const ids: string[] = [];
    // Stored directly: the service never ticks, so the bots are never dialled.
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
    const m = runningMatch(ids);
    await svc.store.putMatch(m);
    await svc.store.putMatch(aborted(m));
    await svc.store.addWebhook(
      { ownerId: alice.id, url: 'https://hooks.example/alice', events: ['bot.struck_out'] },
      10,
    );
    const { page, errors } = await browser();
    await signIn(page, svc, 'alice@example.com');
    await page.goto(`${svc.url}/bot/${ids[0]}`);
    const section = page.getByTestId('bot-webhooks');
    await section.waitFor();
    expect(await section.innerText()).toContain('https://hooks.example/alice: bot.struck_out');
    expect(errors).toEqual([]);

    const { page: bob } = await browser();
    await signIn(bob, svc, 'bob@example.com');
    await bob.goto(`${svc.url}/bot/${ids[0]}`);
    await bob.getByText('Recent matches').waitFor();
    await bob.waitForLoadState('networkidle');
    expect(await bob.getByTestId('bot-webhooks').count()).toBe(0);
    expect(await bob.content()).not.toContain('hooks.example');
  }, 90_000);
});
