// Qualification and versions end to end: real WebSocket bots on loopback
// registered through the signed API of a real `serve` (dev mode, matchmaking
// driven by the test). A bot that always plays illegally fails its qualifier
// and never enters a rated match; a good one qualifies, then plays rated; a
// URL change makes version 2, requalifies against the new URL only and widens
// the rating's sigma; with --qualify off a new bot is seated at once.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotVersionListSchema } from '../../src/protocol/api';
import { privateKeyToPem } from '../../src/keys/index';
import { runCli } from '../support/run-cli';
import type { ApiTarget } from '../../src/client/api';
import { getBot, listBotVersions, registerBot, requalifyBot, updateBot } from '../../src/client/owner';
import { ApiError } from '../../src/client/api-error';
import { generateKeyPair, publicKeyRaw } from '../../src/keys/index';
import { START_SIGMA } from '../../src/service/store/bot-versions';
import type { StoredMatch } from '../../src/service/store/types';
import { illegalBot, wellBehaved } from '../support/policies';
import { startTestBot, type TestBot } from '../support/test-bot';
import { startArena, type Arena } from '../support/serve-arena';

async function keyFor(arena: Arena, email: string): Promise<ApiTarget> {
  const user = (await arena.store.getUserByEmail(email)) ?? (await arena.store.createUser({ email }));
  const pair = generateKeyPair();
  const key = await arena.store.addKey({
    userId: user.id,
    name: 'k',
    publicKey: Buffer.from(publicKeyRaw(pair.privateKey)).toString('base64'),
    scopes: ['bots.read', 'bots.write'],
  });
  return { baseUrl: arena.url, keyId: key.id, privateKey: pair.privateKey };
}

/** Every match the bot sat in, oldest first. */
async function matchesOf(arena: Arena, botId: string): Promise<StoredMatch[]> {
  return (await arena.store.listMatches({ botId, limit: 100 })).matches.reverse();
}

async function round(arena: Arena): Promise<string[]> {
  const ids = await arena.tick();
  await arena.idle();
  return ids;
}

describe('qualification on (the default)', () => {
  let arena: Arena;
  let owner: ApiTarget;
  let stranger: ApiTarget;
  const extra: TestBot[] = [];
  let good = '';
  let bad = '';

  beforeAll(async () => {
    // Three active bots already in the store (stored before qualification: they stay active).
    arena = await startArena([wellBehaved(), wellBehaved(), wellBehaved()], { qualify: 'on' });
    owner = await keyFor(arena, 'newcomer@example.com');
    stranger = await keyFor(arena, 'stranger@example.com');
    for (const behaviour of [wellBehaved(), illegalBot(), wellBehaved()]) extra.push(await startTestBot({ behaviour }));
    good = (await registerBot(owner, { name: 'good', url: extra[0].url })).id;
    bad = (await registerBot(owner, { name: 'bad', url: extra[1].url })).id;
  }, 60_000);

  afterAll(async () => {
    await arena?.close();
    for (const b of extra) await b.close();
  });

  it('a registered bot waits as qualifying at version 1 and is not seated in rated matches', async () => {
    for (const id of [good, bad])
      expect(await getBot(owner, id)).toMatchObject({
        status: 'qualifying',
        version: 1,
        qualification: { state: 'qualifying', matchId: null },
      });
    expect((await arena.store.listActiveBots('pioneers')).map((b) => b.id).sort()).toEqual(
      arena.bots.map((b) => b.id).sort(),
    );
  });

  it('the qualifiers play unrated against built-ins: the illegal bot fails with the match and reasons, the good one passes', async () => {
    await round(arena);
    const failed = await getBot(owner, bad);
    expect(failed.status).toBe('failed');
    expect(failed.qualification).toMatchObject({ state: 'failed', version: 1, resigned: true });
    expect(failed.qualification!.reason).toMatch(/resigned/);
    expect(failed.qualification!.strikes.length).toBeGreaterThan(1);
    for (const s of failed.qualification!.strikes)
      expect(s).toMatchObject({ reason: 'illegal', code: expect.stringMatching(/^[a-z_]+$/) });
    const qualifier = await arena.store.getMatch(failed.qualification!.matchId!);
    expect(qualifier).toMatchObject({ status: 'completed', rated: false, qualification: true, seatCount: 3 });
    expect(qualifier!.players.map((p) => p.botId).sort()).toEqual([bad, 'builtin:greedy', 'builtin:random'].sort());
    expect(qualifier!.players.find((p) => p.botId === bad)).toMatchObject({ version: 1, ratingDelta: null });
    expect(await arena.store.getRating(bad, 'pioneers')).toBeNull();

    const passed = await getBot(owner, good);
    expect(passed).toMatchObject({
      status: 'active',
      qualification: { state: 'passed', version: 1, resigned: false, reason: null },
    });
    expect(passed.qualification!.strikes.length).toBeLessThanOrEqual(1);
    expect((await arena.store.getMatch(passed.qualification!.matchId!))?.qualification).toBe(true);
  }, 60_000);

  it('then the good bot plays rated and the failed one never enters a rated match; resume does not let it in', async () => {
    expect((await sendResume(owner, bad)).status).toBe('failed');
    for (let i = 0; i < 2; i++) await round(arena);
    const rated = (await matchesOf(arena, good)).filter((m) => m.rated !== false);
    expect(rated.length).toBeGreaterThan(0);
    expect(rated[0].players.find((p) => p.botId === good)).toMatchObject({ version: 1 });
    expect((await arena.store.getRating(good, 'pioneers'))!.gamesPlayed).toBe(rated.length);
    const badMatches = await matchesOf(arena, bad);
    expect(badMatches).toHaveLength(1);
    expect(badMatches[0].qualification).toBe(true);
  }, 60_000);

  it('requalify: only the owner, once at a time; the bot plays again and fails again', async () => {
    const refused = await requalifyBot(stranger, bad).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect([403, 404]).toContain((refused as ApiError).status);
    expect((await getBot(owner, bad)).status).toBe('failed');
    expect(await requalifyBot(owner, bad)).toMatchObject({
      status: 'qualifying',
      qualification: { state: 'qualifying', version: 1, matchId: null },
    });
    const again = await requalifyBot(owner, bad).then(
      () => null,
      (e: unknown) => e,
    );
    expect((again as ApiError).status).toBe(409);
    await round(arena);
    const after = await getBot(owner, bad);
    expect(after.status).toBe('failed');
    expect((await matchesOf(arena, bad)).every((m) => m.qualification === true)).toBe(true);
    expect(await matchesOf(arena, bad)).toHaveLength(2);
  }, 60_000);

  it('a URL change starts version 2: sigma widens, the new URL qualifies, the old one is never contacted again', async () => {
    const before = (await arena.store.getRating(good, 'pioneers'))!;
    const oldUrl = extra[0];
    const v2 = await updateBot(owner, good, { url: extra[2].url });
    expect(v2).toMatchObject({ status: 'qualifying', version: 2, qualification: { state: 'qualifying', version: 2 } });
    const widened = (await arena.store.getRating(good, 'pioneers'))!;
    expect(widened.mu).toBe(before.mu);
    expect(widened.sigma).toBeCloseTo(before.sigma + (START_SIGMA - before.sigma) / 2, 9);
    expect(widened.sigma).toBeGreaterThan(before.sigma);
    const oldConnections = oldUrl.connections;
    const newConnections = extra[2].connections;

    await round(arena);
    const qualified = await getBot(owner, good);
    expect(qualified).toMatchObject({ status: 'active', version: 2, qualification: { state: 'passed', version: 2 } });
    const qualifier = await arena.store.getMatch(qualified.qualification!.matchId!);
    expect(qualifier!.players.find((p) => p.botId === good)).toMatchObject({ version: 2 });
    expect(extra[2].connections).toBeGreaterThan(newConnections);
    for (let i = 0; i < 2; i++) await round(arena);
    const v2Rated = (await matchesOf(arena, good)).filter(
      (m) => m.rated !== false && m.players.find((p) => p.botId === good)!.version === 2,
    );
    expect(v2Rated.length).toBeGreaterThan(0);
    expect(oldUrl.connections).toBe(oldConnections);

    const { versions } = await listBotVersions(owner, good);
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[0]).toMatchObject({ games: before.gamesPlayed, endedAt: v2.qualification!.at });
    expect(versions[0].sigma).toBeCloseTo(before.sigma, 3);
    expect(versions[1]).toMatchObject({ endedAt: null, games: v2Rated.length });
    const refused = await listBotVersions(stranger, good).then(
      () => null,
      (e: unknown) => e,
    );
    expect([403, 404]).toContain((refused as ApiError).status);
  }, 90_000);

  it('--new-version at the same URL starts version 3 and requalifies', async () => {
    const v3 = await updateBot(owner, good, { newVersion: true });
    expect(v3).toMatchObject({ status: 'qualifying', version: 3, url: extra[2].url });
    await round(arena);
    expect(await getBot(owner, good)).toMatchObject({ status: 'active', version: 3 });
  }, 60_000);

  it('the CLI: bots show says why it failed, bots versions lists them, bots requalify asks again', async () => {
    const file = join(arena.dir, 'owner.pem');
    writeFileSync(file, privateKeyToPem(owner.privateKey), { mode: 0o600 });
    const env = {
      HOME: arena.dir,
      ARENA_CONFIG_DIR: join(arena.dir, 'config'),
      ARENA_URL: arena.url,
      ARENA_KEY_ID: owner.keyId,
      ARENA_KEY_FILE: file,
    };
    const show = await runCli(['bots', 'show', 'bad'], { env });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/status:\s+failed/);
    expect(show.stdout).toMatch(/qualification:\s+failed \(v1, [^)]+\): resigned after \d+ strikes/);
    expect(show.stdout).toMatch(/strike 1:\s+illegal [a-z_]+: /);
    const versions = await runCli(['bots', 'versions', 'good', '--json'], { env });
    expect(versions.code, versions.stderr).toBe(0);
    expect(BotVersionListSchema.parse(JSON.parse(versions.stdout)).versions.map((v) => v.version)).toEqual([1, 2, 3]);
    const table = await runCli(['bots', 'versions', 'good'], { env });
    expect(table.stdout).toMatch(/^VERSION\s+GAMES\s+RATING\s+SIGMA\s+STARTED\s+ENDED/);
    expect(table.stdout).toMatch(/v3\s+0\s+\S+\s+\S+\s+\S+\s+now/);
    const again = await runCli(['bots', 'requalify', 'bad'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('bad plays its qualifier at the next tick');
    expect((await getBot(owner, bad)).status).toBe('qualifying');
  }, 60_000);

  it('requalifying is limited per account: 3 in a row, then 429 with the wait', async () => {
    // Two used above; the third is allowed, the fourth refused and changes nothing.
    await round(arena);
    expect((await getBot(owner, bad)).status).toBe('failed');
    await requalifyBot(owner, bad);
    await round(arena);
    expect((await getBot(owner, bad)).status).toBe('failed');
    const refused = await requalifyBot(owner, bad).then(
      () => null,
      (e: unknown) => e,
    );
    expect((refused as ApiError).status).toBe(429);
    expect((refused as ApiError).serverMessage).toMatch(/too many requalifications for this account .*retry in \d+ s/);
    expect((await getBot(owner, bad)).status).toBe('failed');
  }, 60_000);
});

describe('qualification off (serve --qualify off)', () => {
  let arena: Arena;
  let bot: TestBot;

  beforeAll(async () => {
    arena = await startArena([wellBehaved(), wellBehaved(), wellBehaved()], { qualify: 'off' });
    bot = await startTestBot({ behaviour: wellBehaved() });
  }, 60_000);

  afterAll(async () => {
    await arena?.close();
    await bot?.close();
  });

  it('a registered bot is active at once and seated rated at the next tick; a URL change keeps it active as version 2', async () => {
    const owner = await keyFor(arena, 'direct@example.com');
    const reg = await registerBot(owner, { name: 'direct', url: bot.url });
    expect(reg).toMatchObject({ status: 'active', version: 1, qualification: null });
    const started = await round(arena);
    expect(started).toHaveLength(1);
    const m = await arena.store.getMatch(started[0]);
    expect(m!.players.map((p) => p.botId)).toContain(reg.id);
    expect(m!.rated).toBeUndefined();
    const v2 = await updateBot(owner, reg.id, { newVersion: true });
    expect(v2).toMatchObject({ status: 'active', version: 2, qualification: null });
    const refused = await requalifyBot(owner, reg.id).then(
      () => null,
      (e: unknown) => e,
    );
    expect((refused as ApiError).status).toBe(409);
  }, 60_000);
});

/** POST /bots/{id}/resume as the owner: the bot as it is after. */
async function sendResume(t: ApiTarget, id: string) {
  const { resumeBot } = await import('../../src/client/owner');
  return resumeBot(t, id);
}
