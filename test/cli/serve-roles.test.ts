// The cluster roles are wired as `serve` promises: a scheduler's qualifiers
// connect to bot URLs under the production URL rules (a loopback bot is
// refused, never contacted), and --qualify off reaches the scheduler role.
import { afterEach, describe, expect, it } from 'vitest';
import { startClusterRole, type RunningRole } from '../../src/cli/serve-roles';
import { loadOrCreateDbPlatformKey } from '../../src/service/store/pg/platform-key';
import { openPgStore, type PgStore } from '../../src/service/store/pg-store';
import { wellBehaved } from '../support/policies';
import { startTestBot, type TestBot } from '../support/test-bot';
import { usePostgres } from '../support/use-postgres';

const cluster = usePostgres();
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function scheduler(opts: {
  dev: boolean;
  qualify?: 'on' | 'off';
}): Promise<{ store: PgStore; bot: TestBot; botId: string }> {
  const store = await openPgStore(await cluster().createDatabase());
  cleanup.push(() => store.close());
  const bot = await startTestBot({ behaviour: wellBehaved() });
  cleanup.push(() => bot.close());
  const owner = await store.createUser({ email: 'o@example.com', name: 'o' });
  const rec = await store.addBot({ ownerId: owner.id, name: 'b', game: 'pioneers', url: bot.url, qualify: true });
  const role: RunningRole = await startClusterRole({
    role: 'scheduler',
    store,
    platformKey: await loadOrCreateDbPlatformKey(store.db),
    host: '127.0.0.1',
    port: 0,
    dev: opts.dev,
    qualify: opts.qualify,
    logFormat: 'json',
    logOut: { write: () => true },
    tickMs: 200,
    matchTimeoutMs: 60_000,
    sameOwner: 'allow',
    concurrency: 1,
    leaseMs: 15_000,
    say: () => {},
  });
  cleanup.push(() => role.close());
  return { store, bot, botId: rec.id };
}

async function until(what: string, ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('serve --role scheduler', () => {
  it('plays qualifiers under the URL rules: in production a loopback bot fails and is never contacted; in development it qualifies', async () => {
    const prod = await scheduler({ dev: false });
    await until('the qualifier to end', async () => (await prod.store.getBot(prod.botId))?.status !== 'qualifying');
    expect((await prod.store.getBot(prod.botId))?.status).toBe('failed');
    expect(prod.bot.connections).toBe(0);

    const dev = await scheduler({ dev: true });
    await until('the qualifier to end', async () => (await dev.store.getBot(dev.botId))?.status !== 'qualifying');
    expect((await dev.store.getBot(dev.botId))?.status).toBe('active');
    expect(dev.bot.connections).toBeGreaterThan(0);
  }, 60_000);

  it('--qualify off reaches it: a waiting bot is let in unplayed', async () => {
    const off = await scheduler({ dev: true, qualify: 'off' });
    await until('the bot let in', async () => (await off.store.getBot(off.botId))?.status === 'active');
    expect(off.bot.connections).toBe(0);
  }, 60_000);
});
