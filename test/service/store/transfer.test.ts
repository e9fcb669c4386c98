// Moving an arena: a data directory into Postgres and back out is
// byte-for-byte the same records (every kind, in order), the platform key
// included; import refuses a database that holds anything.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateKeyPair, privateKeyToPem } from '../../../src/keys/index';
import { exportStore, importDataDir } from '../../../src/service/store/export-store';
import { openFileStore } from '../../../src/service/store/file-store';
import { openPgStore } from '../../../src/service/store/pg-store';
import { readDataDir } from '../../../src/service/store/transfer/data-dir';
import { DatabaseNotEmpty } from '../../../src/service/store/transfer/postgres';
import { usePostgres } from '../../support/use-postgres';
import { aborted, completed, ratingsFor, runningMatch } from './store-fixtures';

const cluster = usePostgres();
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'arena-transfer-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function seedDataDir(dir: string): Promise<void> {
  const s = await openFileStore(dir);
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const ann = await s.createUser({ email: 'Ann@Example.com', name: 'ann' });
  const bob = await s.createUser({ email: 'bob@example.com' });
  const k1 = await s.addKey({
    userId: ann.id,
    name: 'laptop',
    publicKey: Buffer.alloc(32, 1).toString('base64'),
    scopes: ['bots.read', 'bots.write'],
  });
  await s.addKey({
    userId: bob.id,
    name: 'ci',
    publicKey: Buffer.alloc(32, 2).toString('base64'),
    scopes: ['bots.read'],
  });
  s.touchKey(k1.id, iso(now - 1000));
  await s.revokeKey(k1.id);
  const bots: string[] = [];
  for (let i = 0; i < 5; i++)
    bots.push(
      (
        await s.addBot({
          ownerId: i % 2 ? bob.id : ann.id,
          name: `bot ${i} ünï 🎲`,
          game: 'pioneers',
          url: `wss://b${i}.example/`,
        })
      ).id,
    );
  await s.updateBot(bots[1], { status: 'paused' });
  // Versions and qualification travel with the bot.
  await s.requalifyBot(bots[2]);
  await s.finishQualification(bots[2], 1, {
    state: 'failed',
    matchId: 'm_q',
    strikes: [{ reason: 'illegal', code: 'occupied', message: 'taken ü' }],
    resigned: true,
    reason: 'resigned after 3 strikes',
  });
  await s.startBotVersion(bots[3], { url: 'wss://b3-v2.example/', qualify: true });
  await s.removeBot(bots[4]);
  await s.updateBot(bots[2], { challengeable: false });
  // Challenges: one played, one refused, one pending.
  const limits = { maxPending: 3, maxPerDay: 20 };
  const c1 = await s.addChallenge({ ownerId: ann.id, botId: bots[0], opponents: [bots[1]] }, 600_000, limits);
  await s.settleChallenge(c1.id, { status: 'played', matchId: 'm_played' });
  const c2 = await s.addChallenge({ ownerId: ann.id, botId: bots[0], opponents: [bots[1], bots[3]] }, 600_000, limits);
  await s.settleChallenge(c2.id, { status: 'refused', reason: 'bot ü was removed' });
  await s.addChallenge({ ownerId: bob.id, botId: bots[1], opponents: [bots[0]] }, 600_000, limits);
  for (let i = 0; i < 7; i++) {
    const m = runningMatch(bots.slice(i % 2, (i % 2) + 4));
    await s.putMatch(m);
    if (i % 3 === 0) await s.completeMatch(completed(m), ratingsFor(m, i + 1));
    else if (i % 3 === 1) await s.putMatch(aborted(m));
    // The owners' private data of final matches: notes and strikes of the first seat.
    if (i % 3 !== 2) {
      const strikes = Array.from({ length: i % 3 === 0 ? 2 : 0 }, (_, n) => ({
        decisionId: 10 * i + n + 1,
        kind: 'turn' as const,
        turn: i,
        seat: 0,
        reason: 'illegal' as const,
        code: 'occupied' as const,
        message: `taken ${i} ü`,
        answer: `{"id":${i}`,
        answerBytes: 250,
        strikes: n + 1,
      }));
      await s.putOwnerMatchData(m.id, m.players[0].botId, {
        endedAt: iso(now + i),
        notes: [{ id: i + 1, seat: 0, kind: 'turn', seq: 2, ms: 5, debug: { i, why: 'ü🎲' } }],
        strikes,
      });
    }
  }
  // Webhooks and their deliveries, one still pending (it resumes after an import).
  const hook = await s.addWebhook(
    { ownerId: ann.id, url: 'https://hooks.example/ann', events: ['match.completed', 'bot.failed'] },
    10,
  );
  await s.addWebhook({ ownerId: bob.id, url: 'https://hooks.example/bob', events: ['bot.struck_out'] }, 10);
  for (let i = 0; i < 3; i++) {
    const at = iso(now + i);
    await s.addWebhookDelivery(
      {
        id: `msg_t${i}`,
        webhookId: hook.id,
        ownerId: ann.id,
        type: 'match.completed',
        status: i === 2 ? 'pending' : 'delivered',
        attempts: 1,
        createdAt: at,
        lastAttemptAt: at,
        nextAttemptAt: i === 2 ? iso(now + 5000) : null,
        responseStatus: i === 2 ? 500 : 204,
        error: i === 2 ? 'the receiver answered HTTP 500' : null,
        payload: `{"i":${i},"ü":"🎲"}`,
      },
      50,
    );
  }
  await s.addSession({
    tokenHash: 'a'.repeat(64),
    userId: ann.id,
    createdAt: iso(now),
    expiresAt: iso(now + 3600_000),
  });
  await s.addSignInToken({
    tokenHash: 'b'.repeat(64),
    email: 'bob@example.com',
    createdAt: iso(now),
    expiresAt: iso(now + 900_000),
    usedAt: null,
  });
  await s.addSignInToken({
    tokenHash: 'c'.repeat(64),
    email: 'ann@example.com',
    createdAt: iso(now),
    expiresAt: iso(now + 900_000),
    usedAt: null,
  });
  await s.consumeSignInToken('c'.repeat(64), iso(now + 1));
  await s.close();
  await writeFile(join(dir, 'platform-key.pem'), privateKeyToPem(generateKeyPair().privateKey), { mode: 0o600 });
}

it('file -> Postgres -> file is byte-for-byte the same records; counts per kind; a second import is refused', async () => {
  const a = join(root, 'a');
  const b = join(root, 'b');
  await seedDataDir(a);
  const url = await cluster().createDatabase();
  const store = await openPgStore(url);
  try {
    const counts = await importDataDir(a, store);
    expect(counts).toEqual({ users: 2, keys: 2, bots: 5, ratings: 5, sessions: 1, signInTokens: 2, matches: 7 });
    const again = await importDataDir(a, store).then(
      () => null,
      (e: unknown) => e,
    );
    expect(again).toBeInstanceOf(DatabaseNotEmpty);
    // What the Store interface answers is the same as the file store's.
    const before = await openFileStore(a);
    try {
      expect(await store.listMatches({ limit: 100 })).toEqual(await before.listMatches({ limit: 100 }));
      expect(await store.listRatings('pioneers')).toEqual(await before.listRatings('pioneers'));
      expect(await store.listUsers()).toEqual(await before.listUsers());
      const botIds = (await Promise.all((await before.listUsers()).map((u) => before.listBots(u.id))))
        .flat()
        .map((x) => x.id);
      for (const id of botIds)
        expect(await store.listBotStrikes(id, { limit: 100 })).toEqual(await before.listBotStrikes(id, { limit: 100 }));
      for (const id of botIds) expect(await store.getBot(id)).toEqual(await before.getBot(id));
      for (const u of await before.listUsers())
        expect(await store.listChallenges(u.id, 100)).toEqual(await before.listChallenges(u.id, 100));
      expect((await store.listPendingChallenges()).length).toBe(1);

      for (const u of await before.listUsers()) {
        const hooks = await before.listWebhooks(u.id);
        expect(hooks).toHaveLength(1);
        expect(await store.listWebhooks(u.id)).toEqual(hooks);
        for (const w of hooks)
          expect(await store.listWebhookDeliveries(w.id)).toEqual(await before.listWebhookDeliveries(w.id));
      }
      expect((await store.listPendingWebhookDeliveries()).map((d) => d.id)).toEqual(['msg_t2']);
      const moved = await Promise.all(botIds.map((id) => store.getBot(id)));
      expect(moved.find((x) => x!.name.startsWith('bot 2 '))).toMatchObject({
        status: 'failed',
        qualification: { state: 'failed', matchId: 'm_q' },
      });
      expect(moved.find((x) => x!.name.startsWith('bot 3 '))).toMatchObject({
        version: 2,
        url: 'wss://b3-v2.example/',
        status: 'qualifying',
      });
    } finally {
      await before.close();
    }
    const kept = (await readDataDir(a)).ownerData;
    expect(kept.length).toBe(5);
    for (const o of kept) expect(await store.getOwnerMatchData(o.matchId, o.botId)).toEqual(o.data);
    expect(await exportStore(store, b)).toEqual(counts);
  } finally {
    await store.close();
  }
  const from = await readDataDir(a);
  const to = await readDataDir(b);
  for (const kind of [
    'users',
    'keys',
    'bots',
    'ratings',
    'sessions',
    'signInTokens',
    'matches',
    'ownerData',
    'webhooks',
    'webhookDeliveries',
    'platformKeyPem',
  ] as const) {
    expect(JSON.stringify(to[kind]), kind).toBe(JSON.stringify(from[kind]));
  }
  expect(await readFile(join(b, 'platform-key.pem'), 'utf8')).toBe(await readFile(join(a, 'platform-key.pem'), 'utf8'));
  // The export is a data directory the file store runs on.
  const back = await openFileStore(b);
  try {
    expect((await back.listMatches({ limit: 100 })).matches.map((m) => m.id)).toEqual(
      from.matches.map((m) => m.match.id).reverse(),
    );
  } finally {
    await back.close();
  }
});
