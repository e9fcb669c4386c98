// The Store contract: what routes and the scheduler rely on, for any
// implementation. Call storeContract from an implementation's test file with
// a factory that opens a fresh, empty store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidCursor,
  StoreConflict,
  StoreNotFound,
  type OwnerMatchData,
  type Store,
  type StoredMatch,
  type UserRecord,
  type WebhookDeliveryRecord,
} from '../../../src/service/store/types';
import type { StrikeDetail } from '../../../src/protocol';
import { aborted, clockPasses, completed, matchId, ratingsFor, runningMatch } from './store-fixtures';

export interface StoreHandle {
  store: Store;
  cleanup: () => Promise<void>;
}

const URL_SAFE = /^[A-Za-z0-9_-]+$/;

async function conflict(p: Promise<unknown>, what: string): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreConflict);
  expect((err as StoreConflict).what).toBe(what);
}

async function notFound(p: Promise<unknown>, what: string): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreNotFound);
  expect((err as StoreNotFound).what).toBe(what);
}

const PUBKEY = Buffer.alloc(32, 7).toString('base64');
const PUBKEY2 = Buffer.alloc(32, 8).toString('base64');
const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const round = (x: number) => Math.round(x * 1e9) / 1e9;
const hash = (s: string) => Buffer.from(s.padEnd(16, '.')).toString('hex');

export function storeContract(name: string, makeStore: () => Promise<StoreHandle>): void {
  describe(`Store contract: ${name}`, () => {
    let handle: StoreHandle;
    let store: Store;
    beforeEach(async () => {
      handle = await makeStore();
      store = handle.store;
    });
    afterEach(async () => {
      await handle.cleanup();
    });

    async function user(
      email = `${Math.random().toString(36).slice(2)}@example.com`,
      name?: string,
    ): Promise<UserRecord> {
      return store.createUser({ email, name });
    }

    describe('users', () => {
      it('creates a user with a prefixed, URL-safe, random id and reads it back', async () => {
        const a = await store.createUser({ email: 'ann@example.com' });
        const b = await store.createUser({ email: 'bob@example.com', name: 'bob' });
        expect(a.id).toMatch(/^u_/);
        expect(a.id).toMatch(URL_SAFE);
        expect(a.id).not.toBe(b.id);
        expect(a).toMatchObject({ email: 'ann@example.com', name: '' });
        expect(Number.isNaN(Date.parse(a.createdAt))).toBe(false);
        expect(await store.getUser(a.id)).toEqual(a);
        expect(await store.getUser(b.id)).toEqual(b);
        expect(await store.getUser('u_nobody')).toBeNull();
        expect(await store.getUser('__proto__')).toBeNull();
      });

      it('compares e-mails case-insensitively: lookup finds, a second account conflicts', async () => {
        const a = await store.createUser({ email: 'Ann@Example.com' });
        expect(await store.getUserByEmail('ann@example.COM')).toEqual(a);
        expect(await store.getUserByEmail('other@example.com')).toBeNull();
        await conflict(store.createUser({ email: 'ANN@example.com' }), 'email');
        expect(await store.listUsers()).toHaveLength(1);
      });

      it('keeps handles unique: at creation and on change; nothing changes on conflict', async () => {
        const a = await user(undefined, 'ann');
        const b = await user();
        await conflict(user(undefined, 'ann'), 'handle');
        await conflict(store.setHandle(b.id, 'ann'), 'handle');
        expect((await store.getUser(b.id))!.name).toBe('');
        expect(await store.listUsers()).toHaveLength(2);
        // Setting one's own handle again is fine; a free one is taken.
        expect((await store.setHandle(a.id, 'ann')).name).toBe('ann');
        expect((await store.setHandle(b.id, 'bob')).name).toBe('bob');
        expect((await store.getUser(b.id))!.name).toBe('bob');
        await notFound(store.setHandle('u_nobody', 'zed'), 'user');
      });

      it('lists users oldest first', async () => {
        const ids = [];
        for (let i = 0; i < 5; i++) ids.push((await user(`u${i}@example.com`)).id);
        expect((await store.listUsers()).map((u) => u.id)).toEqual(ids);
      });

      it('hands out copies: changing a returned record changes nothing', async () => {
        const a = await user(undefined, 'ann');
        a.name = 'mallory';
        (await store.getUser(a.id))!.email = 'evil@example.com';
        expect(await store.getUser(a.id)).toMatchObject({ name: 'ann' });
        expect((await store.getUser(a.id))!.email).not.toBe('evil@example.com');
      });
    });

    describe('keys', () => {
      it("adds keys with k_ ids and lists a user's keys (revoked included) oldest first", async () => {
        const a = await user();
        const b = await user();
        const k1 = await store.addKey({
          userId: a.id,
          name: 'laptop',
          publicKey: PUBKEY,
          scopes: ['bots.read', 'bots.write'],
        });
        const k2 = await store.addKey({ userId: a.id, name: 'ci', publicKey: PUBKEY, scopes: ['bots.read'] });
        await store.addKey({ userId: b.id, name: 'other', publicKey: PUBKEY2, scopes: ['bots.read'] });
        expect(k1.id).toMatch(/^k_/);
        expect(k1.id).toMatch(URL_SAFE);
        expect(k1).toMatchObject({
          userId: a.id,
          name: 'laptop',
          publicKey: PUBKEY,
          scopes: ['bots.read', 'bots.write'],
          lastUsedAt: null,
          revokedAt: null,
        });
        expect(await store.getKey(k1.id)).toEqual(k1);
        await store.revokeKey(k2.id);
        expect((await store.listKeys(a.id)).map((k) => k.id)).toEqual([k1.id, k2.id]);
        expect(await store.getKey('k_nope')).toBeNull();
      });

      it('hands out copies of keys and bots, their arrays included: changing one changes nothing', async () => {
        const a = await user();
        const k = await store.addKey({ userId: a.id, name: 'laptop', publicKey: PUBKEY, scopes: ['bots.read'] });
        const got = (await store.getKey(k.id))!;
        got.scopes.push('keys.write');
        got.name = 'mallory';
        (await store.listKeys(a.id))[0].scopes.push('account.write');
        expect(await store.getKey(k.id)).toMatchObject({ name: 'laptop', scopes: ['bots.read'] });
        const bot = await store.addBot({ ownerId: a.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' });
        (await store.listBots(a.id))[0].url = 'wss://evil.example/';
        (await store.getBot(bot.id))!.ownerId = 'u_someone';
        expect(await store.getBot(bot.id)).toMatchObject({ url: 'wss://x.example/', ownerId: a.id });
      });

      it('refuses a public key another account registered (revoked or not) and stores nothing; the same account may repeat one', async () => {
        const a = await user();
        const b = await user();
        const k = await store.addKey({ userId: a.id, name: 'laptop', publicKey: PUBKEY, scopes: ['bots.read'] });
        await conflict(
          store.addKey({
            userId: b.id,
            name: 'copied',
            publicKey: PUBKEY,
            scopes: [...(['bots.read', 'keys.write'] as const)],
          }),
          'public_key',
        );
        await store.revokeKey(k.id);
        await conflict(
          store.addKey({ userId: b.id, name: 'copied', publicKey: PUBKEY, scopes: ['bots.read'] }),
          'public_key',
        );
        expect(await store.listKeys(b.id)).toEqual([]);
        // Concurrent adds of one key by two accounts: exactly one account gets it.
        const results = await Promise.allSettled(
          [a, b].map((u) => store.addKey({ userId: u.id, name: 'race', publicKey: PUBKEY2, scopes: ['bots.read'] })),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect(
          (await store.addKey({ userId: a.id, name: 'again', publicKey: PUBKEY, scopes: ['bots.write'] })).publicKey,
        ).toBe(PUBKEY);
      });

      it('refuses a key for an unknown user and stores nothing', async () => {
        await notFound(
          store.addKey({ userId: 'u_nobody', name: 'x', publicKey: PUBKEY, scopes: ['bots.read'] }),
          'user',
        );
        expect(await store.listKeys('u_nobody')).toEqual([]);
      });

      it('revokes; revoking twice keeps the first time', async () => {
        const a = await user();
        const k = await store.addKey({ userId: a.id, name: 'k', publicKey: PUBKEY, scopes: ['bots.read'] });
        const first = await store.revokeKey(k.id);
        expect(first.revokedAt).not.toBeNull();
        await clockPasses(first.revokedAt!);
        const second = await store.revokeKey(k.id);
        expect(second.revokedAt).toBe(first.revokedAt);
        expect((await store.getKey(k.id))!.revokedAt).toBe(first.revokedAt);
        await notFound(store.revokeKey('k_nope'), 'key');
      });

      it('touchKey shows at once, never moves back, and ignores unknown keys', async () => {
        const a = await user();
        const k = await store.addKey({ userId: a.id, name: 'k', publicKey: PUBKEY, scopes: ['bots.read'] });
        const t1 = '2030-01-01T00:00:01.000Z';
        store.touchKey(k.id, t1);
        expect((await store.getKey(k.id))!.lastUsedAt).toBe(t1);
        store.touchKey(k.id, '2030-01-01T00:00:00.000Z');
        expect((await store.getKey(k.id))!.lastUsedAt).toBe(t1);
        expect((await store.listKeys(a.id))[0].lastUsedAt).toBe(t1);
        expect(() => store.touchKey('k_nope', t1)).not.toThrow();
        // A later write keeps it (flushed with it, or still pending).
        await store.createUser({ email: 'later@example.com' });
        expect((await store.getKey(k.id))!.lastUsedAt).toBe(t1);
      });
    });

    describe('bots', () => {
      it("adds active bots with b_ ids; lists the owner's, by game, oldest first", async () => {
        const a = await user();
        const b = await user();
        const x = await store.addBot({ ownerId: a.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' });
        const y = await store.addBot({ ownerId: a.id, name: 'y', game: 'pioneers', url: 'wss://y.example/' });
        await store.addBot({ ownerId: b.id, name: 'z', game: 'pioneers', url: 'wss://z.example/' });
        expect(x.id).toMatch(/^b_/);
        expect(x.id).toMatch(URL_SAFE);
        expect(x).toMatchObject({
          ownerId: a.id,
          name: 'x',
          game: 'pioneers',
          url: 'wss://x.example/',
          status: 'active',
          removedAt: null,
        });
        expect(await store.getBot(x.id)).toEqual(x);
        expect((await store.listBots(a.id)).map((bot) => bot.id)).toEqual([x.id, y.id]);
        expect((await store.listBots(a.id, 'pioneers')).map((bot) => bot.id)).toEqual([x.id, y.id]);
        expect(await store.listBots('u_nobody')).toEqual([]);
        await notFound(
          store.addBot({ ownerId: 'u_nobody', name: 'n', game: 'pioneers', url: 'wss://n.example/' }),
          'user',
        );
        expect(await store.getBot('b_nope')).toBeNull();
      });

      it('updates name, url and status only (never the owner)', async () => {
        const a = await user();
        const b = await user();
        const x = await store.addBot({ ownerId: a.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' });
        const patch = {
          name: 'x2',
          url: 'wss://x2.example/',
          status: 'paused',
          ownerId: b.id,
          id: 'b_forged',
        } as Parameters<Store['updateBot']>[1];
        const u = await store.updateBot(x.id, patch);
        expect(u).toMatchObject({ id: x.id, ownerId: a.id, name: 'x2', url: 'wss://x2.example/', status: 'paused' });
        expect(await store.getBot(x.id)).toEqual(u);
        expect(await store.getBot('b_forged')).toBeNull();
        expect((await store.updateBot(x.id, { status: 'active' })).status).toBe('active');
        await expect(store.updateBot(x.id, { status: 'deleted' as 'active' })).rejects.toThrow(/status/);
        expect((await store.getBot(x.id))!.status).toBe('active');
        await notFound(store.updateBot('b_nope', { name: 'q' }), 'bot');
      });

      it('removed bots are hidden from lists, still gettable, not updatable; removing twice keeps the first time', async () => {
        const a = await user();
        const x = await store.addBot({ ownerId: a.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' });
        const y = await store.addBot({ ownerId: a.id, name: 'y', game: 'pioneers', url: 'wss://y.example/' });
        await store.removeBot(x.id);
        const gone = await store.getBot(x.id);
        expect(gone).toMatchObject({ id: x.id, name: 'x' });
        expect(gone!.removedAt).not.toBeNull();
        expect((await store.listBots(a.id)).map((b) => b.id)).toEqual([y.id]);
        expect((await store.listActiveBots('pioneers')).map((b) => b.id)).toEqual([y.id]);
        await notFound(store.updateBot(x.id, { name: 'back' }), 'bot');
        await clockPasses(gone!.removedAt!);
        await store.removeBot(x.id);
        expect((await store.getBot(x.id))!.removedAt).toBe(gone!.removedAt);
        await notFound(store.removeBot('b_nope'), 'bot');
      });

      it("listActiveBots: every owner's active, not removed bots of the game", async () => {
        const a = await user();
        const b = await user();
        const x = await store.addBot({ ownerId: a.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' });
        const y = await store.addBot({ ownerId: b.id, name: 'y', game: 'pioneers', url: 'wss://y.example/' });
        const z = await store.addBot({ ownerId: b.id, name: 'z', game: 'pioneers', url: 'wss://z.example/' });
        await store.updateBot(y.id, { status: 'paused' });
        expect((await store.listActiveBots('pioneers')).map((bot) => bot.id).sort()).toEqual([x.id, z.id].sort());
        await store.updateBot(y.id, { status: 'active' });
        await store.removeBot(z.id);
        expect((await store.listActiveBots('pioneers')).map((bot) => bot.id).sort()).toEqual([x.id, y.id].sort());
      });
    });

    describe('challenges', () => {
      const LIMITS = { maxPending: 2, maxPerDay: 3 };
      const HOUR_TTL = HOUR;

      it('a bot accepts challenges unless its owner turns them off; true again clears it', async () => {
        const a = await user();
        const x = await store.addBot({ ownerId: a.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' });
        expect(x.challengeable).toBeUndefined();
        const off = await store.updateBot(x.id, { challengeable: false });
        expect(off.challengeable).toBe(false);
        expect(await store.getBot(x.id)).toEqual(off);
        expect((await store.listActiveBots('pioneers')).find((b) => b.id === x.id)!.challengeable).toBe(false);
        // Another field's patch leaves it as it was.
        expect((await store.updateBot(x.id, { name: 'x2' })).challengeable).toBe(false);
        const on = await store.updateBot(x.id, { challengeable: true });
        expect(on.challengeable).toBeUndefined();
        expect(await store.getBot(x.id)).toEqual(on);
      });

      it("adds pending challenges with c_ ids and an expiry; lists the owner's newest first", async () => {
        const a = await user();
        const b = await user();
        const c1 = await store.addChallenge(
          { ownerId: a.id, botId: 'b_mine', opponents: ['b_1', 'b_2'] },
          HOUR_TTL,
          LIMITS,
        );
        expect(c1.id).toMatch(/^c_/);
        expect(c1.id).toMatch(URL_SAFE);
        expect(c1).toMatchObject({
          ownerId: a.id,
          botId: 'b_mine',
          opponents: ['b_1', 'b_2'],
          status: 'pending',
          matchId: null,
          reason: null,
          endedAt: null,
        });
        expect(Date.parse(c1.expiresAt) - Date.parse(c1.createdAt)).toBe(HOUR_TTL);
        await clockPasses(c1.createdAt);
        const c2 = await store.addChallenge({ ownerId: a.id, botId: 'b_mine', opponents: ['b_3'] }, HOUR_TTL, LIMITS);
        await store.addChallenge({ ownerId: b.id, botId: 'b_theirs', opponents: ['b_mine'] }, HOUR_TTL, LIMITS);
        expect((await store.listChallenges(a.id, 10)).map((c) => c.id)).toEqual([c2.id, c1.id]);
        expect((await store.listChallenges(a.id, 1)).map((c) => c.id)).toEqual([c2.id]);
        expect(await store.listChallenges('u_nobody', 10)).toEqual([]);
        expect((await store.listPendingChallenges()).filter((c) => c.ownerId === a.id).map((c) => c.id)).toEqual([
          c1.id,
          c2.id,
        ]);
        await notFound(
          store.addChallenge({ ownerId: 'u_nobody', botId: 'b_x', opponents: ['b_y'] }, HOUR_TTL, LIMITS),
          'user',
        );
        await expect(store.listChallenges(a.id, 0)).rejects.toThrow(RangeError);
        await expect(store.listChallenges(a.id, 101)).rejects.toThrow(RangeError);
      });

      it('refuses past the pending limit and the daily limit, adding nothing; concurrent adds never pass a limit', async () => {
        const a = await user();
        const add = () => store.addChallenge({ ownerId: a.id, botId: 'b_mine', opponents: ['b_1'] }, HOUR_TTL, LIMITS);
        const results = await Promise.allSettled([add(), add(), add(), add()]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
        for (const r of results)
          if (r.status === 'rejected') expect((r.reason as StoreConflict).what).toBe('pending_challenges');
        expect(await store.listChallenges(a.id, 100)).toHaveLength(2);
        // Settled ones no longer count as pending, but they count for the day.
        const [first] = await store.listChallenges(a.id, 100);
        await store.settleChallenge(first.id, { status: 'refused', reason: 'r' });
        await add();
        const [third] = await store.listChallenges(a.id, 1);
        await store.settleChallenge(third.id, { status: 'expired', reason: 'e' });
        await conflict(add(), 'daily_challenges');
        expect(await store.listChallenges(a.id, 100)).toHaveLength(3);
      });

      it('a challenge past its expiry no longer counts as pending (the scheduler settles it later)', async () => {
        const a = await user();
        const short = await store.addChallenge({ ownerId: a.id, botId: 'b_mine', opponents: ['b_1'] }, 1, LIMITS);
        await store.addChallenge({ ownerId: a.id, botId: 'b_mine', opponents: ['b_1'] }, HOUR_TTL, LIMITS);
        await clockPasses(short.expiresAt);
        await store.addChallenge({ ownerId: a.id, botId: 'b_mine', opponents: ['b_1'] }, HOUR_TTL, LIMITS);
        expect((await store.listPendingChallenges()).map((c) => c.id)).toContain(short.id);
      });

      it('settles a pending challenge once: played with its match id, or expired or refused with a reason', async () => {
        const a = await user();
        const c1 = await store.addChallenge({ ownerId: a.id, botId: 'b_mine', opponents: ['b_1'] }, HOUR_TTL, LIMITS);
        const c2 = await store.addChallenge({ ownerId: a.id, botId: 'b_mine', opponents: ['b_2'] }, HOUR_TTL, LIMITS);
        const [won, lost] = await Promise.all([
          store.settleChallenge(c1.id, { status: 'played', matchId: 'm_1' }),
          store.settleChallenge(c1.id, { status: 'expired', reason: 'late' }),
        ]);
        expect(won).toMatchObject({ id: c1.id, status: 'played', matchId: 'm_1', reason: null });
        expect(won!.endedAt).not.toBeNull();
        expect(lost).toBeNull();
        const refused = await store.settleChallenge(c2.id, { status: 'refused', reason: 'bot b_2 was removed' });
        expect(refused).toMatchObject({ status: 'refused', matchId: null, reason: 'bot b_2 was removed' });
        expect((await store.listChallenges(a.id, 10)).map((c) => c.status)).toEqual(['refused', 'played']);
        expect((await store.listPendingChallenges()).map((c) => c.id)).not.toContain(c1.id);
        await notFound(store.settleChallenge('c_nope', { status: 'expired', reason: 'x' }), 'challenge');
        await notFound(store.settleChallenge('__proto__', { status: 'expired', reason: 'x' }), 'challenge');
      });
    });

    describe('sign-in links and sessions', () => {
      const now = Date.now();

      it('a sign-in link works once', async () => {
        await store.addSignInToken({
          tokenHash: hash('t1'),
          email: 'a@example.com',
          createdAt: iso(now),
          expiresAt: iso(now + 15 * 60_000),
          usedAt: null,
        });
        const used = await store.consumeSignInToken(hash('t1'), iso(now + 1000));
        expect(used).toMatchObject({ tokenHash: hash('t1'), email: 'a@example.com', usedAt: iso(now + 1000) });
        expect(await store.consumeSignInToken(hash('t1'), iso(now + 2000))).toBeNull();
        expect(await store.consumeSignInToken(hash('unknown'), iso(now))).toBeNull();
      });

      it('of concurrent uses of one link exactly one succeeds', async () => {
        await store.addSignInToken({
          tokenHash: hash('t2'),
          email: 'a@example.com',
          createdAt: iso(now),
          expiresAt: iso(now + HOUR),
          usedAt: null,
        });
        const results = await Promise.all(
          Array.from({ length: 8 }, () => store.consumeSignInToken(hash('t2'), iso(now + 1))),
        );
        expect(results.filter((r) => r !== null)).toHaveLength(1);
      });

      it('an expired link is refused', async () => {
        await store.addSignInToken({
          tokenHash: hash('t3'),
          email: 'a@example.com',
          createdAt: iso(now),
          expiresAt: iso(now + 15 * 60_000),
          usedAt: null,
        });
        expect(await store.consumeSignInToken(hash('t3'), iso(now + 15 * 60_000))).toBeNull();
        expect(await store.consumeSignInToken(hash('t3'), iso(now + HOUR))).toBeNull();
      });

      it('a token hash cannot be added twice', async () => {
        const rec = {
          tokenHash: hash('t4'),
          email: 'a@example.com',
          createdAt: iso(now),
          expiresAt: iso(now + HOUR),
          usedAt: null,
        };
        await store.addSignInToken(rec);
        await conflict(store.addSignInToken({ ...rec, email: 'evil@example.com' }), 'token');
        expect((await store.consumeSignInToken(hash('t4'), iso(now)))!.email).toBe('a@example.com');
      });

      it('with maxOpen, a new link replaces the oldest open one of the address, in one step; concurrent asks never leave more open', async () => {
        const link = (t: string, createdAt: number, email = 'full@example.com') => ({
          tokenHash: hash(t),
          email,
          createdAt: iso(createdAt),
          expiresAt: iso(createdAt + 15 * 60_000),
          usedAt: null,
        });
        expect(await store.addSignInToken(link('m1', now), 2)).toEqual({ added: true, replaced: 0 });
        // A used link, an expired one and another address's leave room.
        await store.addSignInToken(link('m0', now - HOUR));
        await store.addSignInToken(link('o1', now, 'other@example.com'));
        expect(await store.addSignInToken(link('m2', now + 1000), 2)).toEqual({ added: true, replaced: 0 });
        await store.consumeSignInToken(hash('m2'), iso(now + 2000));
        expect(await store.addSignInToken(link('m3', now + 3000), 2)).toEqual({ added: true, replaced: 0 });
        // Two open (m1, m3): the next one pushes out m1, the oldest.
        expect(await store.addSignInToken(link('m4', now + 4000), 2)).toEqual({ added: true, replaced: 1 });
        expect(await store.getSignInToken(hash('m1'), iso(now + 5000))).toBeNull();
        expect(await store.consumeSignInToken(hash('m1'), iso(now + 5000))).toBeNull();
        expect((await store.getSignInToken(hash('m3'), iso(now + 5000)))!.email).toBe('full@example.com');
        const results = await Promise.all(
          ['m5', 'm6', 'm7'].map((t, i) => store.addSignInToken(link(t, now + 6000 + i), 2)),
        );
        expect(results.every((r) => r.added)).toBe(true);
        expect(results.reduce((n, r) => n + r.replaced, 0)).toBe(3);
        const open = [];
        for (const t of ['m3', 'm4', 'm5', 'm6', 'm7'])
          if (await store.getSignInToken(hash(t), iso(now + 7000))) open.push(t);
        expect(open).toHaveLength(2);
        expect(await store.getSignInToken(hash('o1'), iso(now + 7000))).not.toBeNull();
      });

      it('getSignInToken reads a link without using it', async () => {
        await store.addSignInToken({
          tokenHash: hash('g1'),
          email: 'g@example.com',
          createdAt: iso(now),
          expiresAt: iso(now + 15 * 60_000),
          usedAt: null,
        });
        expect(await store.getSignInToken(hash('g1'), iso(now + 1))).toMatchObject({
          email: 'g@example.com',
          usedAt: null,
        });
        expect(await store.getSignInToken(hash('g1'), iso(now + 1))).not.toBeNull();
        expect(await store.getSignInToken(hash('g1'), iso(now + 15 * 60_000))).toBeNull();
        expect(await store.consumeSignInToken(hash('g1'), iso(now + 2))).not.toBeNull();
        expect(await store.getSignInToken(hash('g1'), iso(now + 3))).toBeNull();
        expect(await store.getSignInToken('__proto__', iso(now))).toBeNull();
      });

      it('sessions: add, get, expire, delete', async () => {
        const a = await user();
        const rec = { tokenHash: hash('s1'), userId: a.id, createdAt: iso(now), expiresAt: iso(now + HOUR) };
        await store.addSession(rec);
        expect(await store.getSession(hash('s1'))).toEqual(rec);
        expect(await store.getSession(hash('s1'), iso(now + 1000))).toEqual(rec);
        expect(await store.getSession(hash('s1'), iso(now + HOUR))).toBeNull();
        await conflict(store.addSession({ ...rec, userId: 'u_other' }), 'session');
        expect((await store.getSession(hash('s1')))!.userId).toBe(a.id);
        await store.deleteSession(hash('s1'));
        expect(await store.getSession(hash('s1'))).toBeNull();
        await store.deleteSession(hash('s1'));
        expect(await store.getSession(hash('nope'))).toBeNull();
        expect(await store.getSession('__proto__')).toBeNull();
      });
    });

    describe('bot versions and qualification', () => {
      const passed = { state: 'passed' as const, matchId: 'm_q1', strikes: [], resigned: false, reason: null };
      const failed = {
        state: 'failed' as const,
        matchId: 'm_q2',
        strikes: [{ reason: 'illegal' as const, code: 'not_your_turn', message: 'no' }],
        resigned: true,
        reason: 'resigned on strikes',
      };

      it('a bot added with qualify waits as qualifying at version 1; passing makes it active, once', async () => {
        const a = await user();
        const x = await store.addBot({
          ownerId: a.id,
          name: 'x',
          game: 'pioneers',
          url: 'wss://x.example/',
          qualify: true,
        });
        expect(x).toMatchObject({
          status: 'qualifying',
          version: 1,
          qualification: { state: 'qualifying', version: 1, matchId: null },
        });
        expect(await store.getBot(x.id)).toEqual(x);
        expect((await store.listQualifyingBots('pioneers')).map((b) => b.id)).toEqual([x.id]);
        expect(await store.listActiveBots('pioneers')).toEqual([]);
        // A result for another version, or a second one, changes nothing.
        expect(await store.finishQualification(x.id, 2, passed)).toBeNull();
        const done = await store.finishQualification(x.id, 1, passed);
        expect(done).toMatchObject({
          status: 'active',
          qualification: { state: 'passed', version: 1, matchId: 'm_q1' },
        });
        expect(await store.finishQualification(x.id, 1, failed)).toBeNull();
        expect(await store.getBot(x.id)).toEqual(done);
        expect((await store.listActiveBots('pioneers')).map((b) => b.id)).toEqual([x.id]);
        expect(await store.listQualifyingBots('pioneers')).toEqual([]);
        await notFound(store.finishQualification('b_nope', 1, passed), 'bot');
      });

      it('a failed bot stays out; resuming never passes a qualifier; requalify retries, once at a time', async () => {
        const a = await user();
        const x = await store.addBot({
          ownerId: a.id,
          name: 'x',
          game: 'pioneers',
          url: 'wss://x.example/',
          qualify: true,
        });
        const f = await store.finishQualification(x.id, 1, failed);
        expect(f).toMatchObject({
          status: 'failed',
          qualification: {
            state: 'failed',
            matchId: 'm_q2',
            resigned: true,
            strikes: failed.strikes,
            reason: 'resigned on strikes',
          },
        });
        expect((await store.updateBot(x.id, { status: 'active' })).status).toBe('failed');
        expect((await store.updateBot(x.id, { status: 'paused' })).status).toBe('paused');
        // Paused stays paused through a requalify; resuming then waits for the qualifier.
        const r = await store.requalifyBot(x.id);
        expect(r).toMatchObject({
          status: 'paused',
          qualification: { state: 'qualifying', version: 1, matchId: null },
        });
        await conflict(store.requalifyBot(x.id), 'qualifying');
        expect(await store.listQualifyingBots('pioneers')).toEqual([]);
        expect((await store.updateBot(x.id, { status: 'active' })).status).toBe('qualifying');
        expect((await store.finishQualification(x.id, 1, passed))!.status).toBe('active');
        await notFound(store.requalifyBot('b_nope'), 'bot');
      });

      it('a bot stored without qualification (before it existed) is active at version 1 and resumes to active', async () => {
        const a = await user();
        const x = await store.addBot({ ownerId: a.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' });
        expect(x).toMatchObject({ status: 'active', version: 1, qualification: null });
        await store.updateBot(x.id, { status: 'paused' });
        expect((await store.updateBot(x.id, { status: 'active' })).status).toBe('active');
      });

      it('startBotVersion: the next version, the new url, the old version ended with its rating, sigma widened halfway back', async () => {
        const a = await user();
        const x = await store.addBot({ ownerId: a.id, name: 'x', game: 'pioneers', url: 'wss://x.example/' });
        const others = [];
        for (const n of ['p', 'q'])
          others.push(
            (await store.addBot({ ownerId: a.id, name: n, game: 'pioneers', url: `wss://${n}.example/` })).id,
          );
        const m = runningMatch([x.id, ...others]);
        const ratings = ratingsFor(m).map((r) => ({ ...r, sigma: 3, mu: 30, gamesPlayed: 5 }));
        await store.completeMatch(completed(m), ratings);
        const v2 = await store.startBotVersion(x.id, { url: 'wss://x2.example/', qualify: true });
        expect(v2).toMatchObject({
          url: 'wss://x2.example/',
          version: 2,
          status: 'qualifying',
          qualification: { state: 'qualifying', version: 2 },
        });
        expect(v2.versions!.map((v) => [v.version, v.endedAt === null, v.gamesAtStart, v.end])).toEqual([
          [1, false, 0, { mu: 30, sigma: 3, gamesPlayed: 5 }],
          [2, true, 5, null],
        ]);
        expect(await store.getBot(x.id)).toEqual(v2);
        const widened = await store.getRating(x.id, 'pioneers');
        expect(widened!.mu).toBe(30);
        expect(round(widened!.sigma)).toBe(round(3 + (25 / 3 - 3) / 2));
        expect(widened!.gamesPlayed).toBe(5);
        // Others' ratings are untouched.
        expect((await store.getRating(others[0], 'pioneers'))!.sigma).toBe(3);
        // Without qualify (serve --qualify off): same url, active, no qualification; a bot with no rating gets none.
        const v3 = await store.startBotVersion(x.id, { qualify: false });
        expect(v3).toMatchObject({ url: 'wss://x2.example/', version: 3, status: 'active', qualification: null });
        const y = await store.addBot({ ownerId: a.id, name: 'y', game: 'pioneers', url: 'wss://y.example/' });
        await store.updateBot(y.id, { status: 'paused' });
        expect(await store.startBotVersion(y.id, { qualify: true })).toMatchObject({ version: 2, status: 'paused' });
        expect(await store.getRating(y.id, 'pioneers')).toBeNull();
        await store.removeBot(y.id);
        await notFound(store.startBotVersion(y.id, { qualify: true }), 'bot');
        // A qualifier result for the version it replaced comes too late.
        expect(
          await store.finishQualification(x.id, 2, {
            state: 'passed',
            matchId: 'm',
            strikes: [],
            resigned: false,
            reason: null,
          }),
        ).toBeNull();
      });
    });

    describe('matches and ratings', () => {
      async function bots(n: number): Promise<string[]> {
        const a = await user();
        const ids = [];
        for (let i = 0; i < n; i++)
          ids.push(
            (await store.addBot({ ownerId: a.id, name: `b${i}`, game: 'pioneers', url: `wss://b${i}.example/` })).id,
          );
        return ids;
      }

      it('stores a running match whole and updates it to aborted; a final match is final', async () => {
        const ids = await bots(4);
        const m = runningMatch(ids);
        await store.putMatch(m);
        expect(await store.getMatch(m.id)).toEqual(m);
        const a = aborted(m);
        await store.putMatch(a);
        expect(await store.getMatch(m.id)).toEqual(a);
        await conflict(store.putMatch(m), 'match');
        await conflict(store.completeMatch(completed(m), ratingsFor(m)), 'match');
        expect(await store.getMatch(m.id)).toEqual(a);
        expect(await store.listRatings('pioneers')).toEqual([]);
      });

      it("completes a match together with its seats' ratings", async () => {
        const ids = await bots(3);
        const m = runningMatch(ids);
        await store.putMatch(m);
        const done = completed(m, 200);
        const ratings = ratingsFor(m);
        await store.completeMatch(done, ratings);
        expect(await store.getMatch(m.id)).toEqual(done);
        for (const r of ratings) expect(await store.getRating(r.botId, 'pioneers')).toEqual(r);
        expect((await store.listRatings('pioneers')).map((r) => r.botId).sort()).toEqual([...ids].sort());
        // A match completes once: a second completion changes nothing.
        await conflict(store.completeMatch(done, ratingsFor(m, 2)), 'match');
        expect(await store.getRating(ids[0], 'pioneers')).toEqual(ratings[0]);
        // A later match moves the ratings on.
        const m2 = runningMatch(ids);
        await store.putMatch(m2);
        const r2 = ratingsFor(m2, 2);
        await store.completeMatch(completed(m2), r2);
        expect(await store.getRating(ids[1], 'pioneers')).toEqual(r2[1]);
      });

      it('completes a match never stored as running', async () => {
        const ids = await bots(4);
        const done = completed(runningMatch(ids));
        await store.completeMatch(done, ratingsFor(done));
        expect(await store.getMatch(done.id)).toEqual(done);
      });

      it('refuses bad match writes and stores nothing', async () => {
        const ids = await bots(3);
        const m = runningMatch(ids);
        await expect(store.putMatch(completed(m))).rejects.toThrow(/completeMatch/);
        await expect(store.completeMatch(m, ratingsFor(m))).rejects.toThrow(/completed/);
        await expect(
          store.completeMatch(completed(m), [
            { botId: 'b_stranger', game: 'pioneers', mu: 30, sigma: 5, gamesPlayed: 1 },
          ]),
        ).rejects.toThrow(/seat/);
        await expect(store.putMatch({ ...m, id: '../store' })).rejects.toThrow(/id/);
        expect(await store.getMatch(m.id)).toBeNull();
        expect(await store.getRating('b_stranger', 'pioneers')).toBeNull();
        expect((await store.listMatches({ limit: 10 })).matches).toEqual([]);
      });

      it('getMatch answers null for unknown or hostile ids', async () => {
        for (const id of [
          'm_nope',
          '',
          '../store',
          '../../etc/passwd',
          '__proto__',
          'constructor',
          'a/b',
          '.',
          'x'.repeat(500),
        ]) {
          expect(await store.getMatch(id)).toBeNull();
        }
      });

      it('lists newest first with cursors that cover everything once', async () => {
        const ids = await bots(4);
        const stored: StoredMatch[] = [];
        for (let i = 0; i < 23; i++) {
          const m = runningMatch(i % 2 ? ids : ids.slice(0, 3));
          await store.putMatch(m);
          stored.push(m);
        }
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = await store.listMatches({ limit: 5, cursor });
          seen.push(...page.matches.map((m) => m.id));
          expect(page.matches.length).toBeLessThanOrEqual(5);
          cursor = page.next;
          pages++;
        } while (cursor);
        expect(pages).toBe(5);
        expect(seen).toEqual(stored.map((m) => m.id).reverse());
        const exact = await store.listMatches({ limit: 23 });
        expect(exact.next).toBeNull();
        expect(exact.matches).toEqual([...stored].reverse());
      });

      it('filters by bot, status and game, with cursors inside the filter', async () => {
        const ids = await bots(5);
        const withE: string[] = [];
        const done: string[] = [];
        for (let i = 0; i < 12; i++) {
          const seats = i % 3 === 0 ? [ids[4], ids[0], ids[1]] : ids.slice(0, 4);
          const m = runningMatch(seats);
          await store.putMatch(m);
          if (i % 3 === 0) withE.push(m.id);
          if (i % 4 === 0) {
            await store.completeMatch(completed(m), ratingsFor(m));
            done.push(m.id);
          }
        }
        const all = async (q: Parameters<Store['listMatches']>[0]) => {
          const out: string[] = [];
          let cursor: string | null = null;
          do {
            const page = await store.listMatches({ ...q, cursor });
            out.push(...page.matches.map((m) => m.id));
            cursor = page.next;
          } while (cursor);
          return out;
        };
        expect(await all({ botId: ids[4], limit: 2 })).toEqual([...withE].reverse());
        expect(await all({ status: 'completed', limit: 1 })).toEqual([...done].reverse());
        expect(await all({ status: 'completed', botId: ids[4], limit: 3 })).toEqual(
          done.filter((d) => withE.includes(d)).reverse(),
        );
        expect(await all({ status: 'aborted', limit: 5 })).toEqual([]);
        expect(await all({ game: 'pioneers', limit: 100 })).toHaveLength(12);
        expect(await all({ botId: 'b_nobody', limit: 5 })).toEqual([]);
      });

      it('pages have no gaps or repeats while new matches arrive', async () => {
        const ids = await bots(4);
        const before: string[] = [];
        for (let i = 0; i < 30; i++) {
          const m = runningMatch(ids);
          await store.putMatch(m);
          before.push(m.id);
        }
        const seen: string[] = [];
        const added: string[] = [];
        let page = await store.listMatches({ limit: 7 });
        seen.push(...page.matches.map((m) => m.id));
        while (page.next) {
          // New matches land while the reader is between pages, and alongside its next read.
          const fresh = [runningMatch(ids), runningMatch(ids)];
          added.push(...fresh.map((m) => m.id));
          const [, next] = await Promise.all([
            Promise.all(fresh.map((m) => store.putMatch(m))),
            store.listMatches({ limit: 7, cursor: page.next }),
          ]);
          page = next;
          seen.push(...page.matches.map((m) => m.id));
        }
        expect(seen).toEqual([...before].reverse());
        const top = await store.listMatches({ limit: added.length });
        expect(top.matches.map((m) => m.id).sort()).toEqual([...added].sort());
      });

      it('summaries: the same rows and cursors without seed and replay', async () => {
        const ids = await bots(4);
        const stored: StoredMatch[] = [];
        for (let i = 0; i < 6; i++) {
          const m = runningMatch(ids);
          await store.putMatch(m);
          stored.push(m);
        }
        const fin = completed(stored[2]);
        await store.completeMatch(fin, ratingsFor(fin));
        const full = await store.listMatches({ limit: 4 });
        const sums = await store.listMatchSummaries({ limit: 4 });
        expect(sums.next).toBe(full.next);
        expect(sums.matches).toEqual(full.matches.map(({ seed: _s, replay: _r, ...rest }) => rest));
        for (const s of sums.matches) {
          expect(s).not.toHaveProperty('seed');
          expect(s).not.toHaveProperty('replay');
        }
        const rest = await store.listMatchSummaries({ limit: 4, cursor: sums.next });
        expect(rest.matches.map((m) => m.id)).toEqual([stored[1].id, stored[0].id]);
        expect(rest.matches[0]).toBeDefined();
        const finSum = (await store.listMatchSummaries({ limit: 10, status: 'completed' })).matches;
        expect(finSum).toHaveLength(1);
        expect(finSum[0]).toMatchObject({
          id: fin.id,
          status: 'completed',
          players: fin.players,
          endedAt: fin.endedAt,
          vp: fin.vp,
        });
      });

      it('filters by opponent (vs): matches both bots played, with cursors inside the filter', async () => {
        const [a, b, c, d] = await bots(4);
        const together: string[] = [];
        for (let i = 0; i < 9; i++) {
          const seats = i % 3 === 0 ? [a, c, d] : i % 3 === 1 ? [a, b, c] : [b, c, d];
          const m = runningMatch(seats);
          await store.putMatch(m);
          if (seats.includes(a) && seats.includes(b)) together.push(m.id);
        }
        const all = async (q: Parameters<Store['listMatchSummaries']>[0]) => {
          const out: string[] = [];
          let cursor: string | null = null;
          do {
            const page = await store.listMatchSummaries({ ...q, cursor });
            out.push(...page.matches.map((m) => m.id));
            cursor = page.next;
          } while (cursor);
          return out;
        };
        expect(together).toHaveLength(3);
        expect(await all({ botId: a, vs: b, limit: 2 })).toEqual([...together].reverse());
        expect(await all({ botId: b, vs: a, limit: 1 })).toEqual([...together].reverse());
        expect(await all({ botId: a, vs: a, limit: 10 })).toHaveLength(6);
        expect(await all({ vs: b, limit: 10 })).toHaveLength(6);
        expect(await all({ botId: a, vs: 'b_nobody', limit: 10 })).toEqual([]);
        expect((await store.listMatches({ botId: a, vs: b, limit: 100 })).matches.map((m) => m.id)).toEqual(
          [...together].reverse(),
        );
      });

      it('head-to-head: per opponent over completed matches only, ties above neither', async () => {
        const [a, b, c, d] = await bots(4);
        const play = async (
          places: Array<[string, number]>,
          status: 'completed' | 'aborted' | 'running' = 'completed',
        ) => {
          const m = runningMatch(places.map(([id]) => id));
          if (status === 'running') return store.putMatch(m);
          if (status === 'aborted') return store.putMatch(aborted(m));
          const done = {
            ...completed(m),
            players: completed(m).players.map((p, i) => ({ ...p, placement: places[i][1] })),
          };
          await store.completeMatch(done, ratingsFor(done));
        };
        await play([
          [a, 1],
          [b, 2],
          [c, 3],
        ]);
        await play([
          [b, 1],
          [a, 2],
          [c, 3],
          [d, 4],
        ]);
        await play([
          [c, 1],
          [a, 2],
          [b, 2],
        ]); // a tie with b
        await play(
          [
            [a, 1],
            [b, 2],
            [d, 3],
          ],
          'aborted',
        );
        await play(
          [
            [a, 1],
            [b, 2],
            [d, 3],
          ],
          'running',
        );
        await play([
          [b, 1],
          [c, 2],
          [d, 3],
        ]); // without a
        const rows = (await store.headToHead(a, 'pioneers')).sort((x, y) => x.opponentId.localeCompare(y.opponentId));
        const want = [
          { opponentId: b, games: 3, above: 1, meanPlacement: 5 / 3, opponentMeanPlacement: 5 / 3 },
          { opponentId: c, games: 3, above: 2, meanPlacement: 5 / 3, opponentMeanPlacement: 7 / 3 },
          { opponentId: d, games: 1, above: 1, meanPlacement: 2, opponentMeanPlacement: 4 },
        ].sort((x, y) => x.opponentId.localeCompare(y.opponentId));
        expect(
          rows.map((r) => ({
            ...r,
            meanPlacement: round(r.meanPlacement),
            opponentMeanPlacement: round(r.opponentMeanPlacement),
          })),
        ).toEqual(
          want.map((r) => ({
            ...r,
            meanPlacement: round(r.meanPlacement),
            opponentMeanPlacement: round(r.opponentMeanPlacement),
          })),
        );
        // Asked again after another match: the new match is counted once.
        await play([
          [d, 1],
          [a, 2],
          [c, 3],
        ]);
        const again = await store.headToHead(a, 'pioneers');
        expect(again.find((r) => r.opponentId === d)).toMatchObject({ games: 2, above: 1 });
        expect(again.find((r) => r.opponentId === b)).toMatchObject({ games: 3, above: 1 });
        expect(await store.headToHead('b_nobody', 'pioneers')).toEqual([]);
      });

      it('rejects cursors it never gave and limits outside 1..100', async () => {
        await expect(store.listMatches({ limit: 5, cursor: 'bogus' })).rejects.toBeInstanceOf(InvalidCursor);
        await expect(store.listMatchSummaries({ limit: 5, cursor: '!!' })).rejects.toBeInstanceOf(InvalidCursor);
        await expect(store.listMatches({ limit: 0 })).rejects.toBeInstanceOf(RangeError);
        await expect(store.listMatches({ limit: 101 })).rejects.toBeInstanceOf(RangeError);
      });

      it('many concurrent match writes all land', async () => {
        const ids = await bots(4);
        const ms = Array.from({ length: 20 }, () => runningMatch(ids));
        await Promise.all(ms.map((m) => store.putMatch(m)));
        await Promise.all(ms.slice(0, 10).map((m) => store.completeMatch(completed(m), ratingsFor(m))));
        await Promise.all(ms.slice(10).map((m) => store.putMatch(aborted(m))));
        const page = await store.listMatches({ limit: 100 });
        expect(page.matches.map((m) => m.id).sort()).toEqual(ms.map((m) => m.id).sort());
        expect(page.matches.filter((m) => m.status === 'completed')).toHaveLength(10);
        expect(page.matches.filter((m) => m.status === 'aborted')).toHaveLength(10);
        expect(matchId()).not.toBe(matchId());
      });
    });

    describe("owners' private match data", () => {
      async function finished(n = 3): Promise<{ ids: string[]; m: StoredMatch }> {
        const a = await user();
        const ids = [];
        for (let i = 0; i < n; i++)
          ids.push(
            (await store.addBot({ ownerId: a.id, name: `o${i}`, game: 'pioneers', url: `wss://o${i}.example/` })).id,
          );
        const m = runningMatch(ids);
        await store.putMatch(m);
        await store.completeMatch(completed(m), ratingsFor(m));
        return { ids, m };
      }
      const strike = (decisionId: number, strikes = 1): StrikeDetail => ({
        decisionId,
        kind: 'turn',
        turn: 7,
        seat: 0,
        reason: 'illegal',
        code: 'not_your_decision',
        message: 'not now',
        answer: '{"type":"decision_response"',
        answerBytes: 300,
        strikes,
      });
      const data = (strikes: StrikeDetail[], endedAt = '2026-11-27T10:00:00.000Z'): OwnerMatchData => ({
        endedAt,
        strikes,
        notes: [
          { id: 3, seat: 0, kind: 'turn', seq: 5, ms: 12, debug: { plan: 'road', é: [1, 2] } },
          { id: 9, seat: 0, kind: 'turn', seq: 11, ms: 3, debug: 'x'.repeat(2048), debugTruncated: true },
        ],
      });

      it('keeps one record per match and bot, apart from the public record; first write wins', async () => {
        const { ids, m } = await finished();
        const d = data([strike(4), strike(6, 2)]);
        await store.putOwnerMatchData(m.id, ids[0], d);
        expect(await store.getOwnerMatchData(m.id, ids[0])).toEqual(d);
        expect(await store.getOwnerMatchData(m.id, ids[1])).toBeNull();
        expect(await store.getOwnerMatchData('m_nothing', ids[0])).toBeNull();
        expect(await store.getOwnerMatchData('../etc', '__proto__')).toBeNull();
        expect(JSON.stringify(await store.getMatch(m.id))).not.toContain('road');
        // A repeat (a retry) changes nothing and adds no strike twice.
        await store.putOwnerMatchData(m.id, ids[0], data([strike(1)]));
        expect(await store.getOwnerMatchData(m.id, ids[0])).toEqual(d);
        expect((await store.listBotStrikes(ids[0], { limit: 10 })).strikes).toHaveLength(2);
      });

      it('refuses an unknown match and a bot not seated, changing nothing', async () => {
        const { ids, m } = await finished();
        await notFound(store.putOwnerMatchData('m_unknown', ids[0], data([strike(1)])), 'match');
        await expect(store.putOwnerMatchData(m.id, 'b_stranger', data([strike(1)]))).rejects.toThrow(TypeError);
        expect(await store.getOwnerMatchData(m.id, 'b_stranger')).toBeNull();
        expect(await store.listBotStrikes('b_stranger', { limit: 10 })).toEqual({ strikes: [], next: null });
      });

      it("pages a bot's strike log newest first, with its match and time; later writes shift no page", async () => {
        const { ids, m } = await finished();
        const { m: m2 } = await (async () => {
          const m2 = runningMatch(ids);
          await store.putMatch(m2);
          await store.putMatch(aborted(m2));
          return { m: m2 };
        })();
        await store.putOwnerMatchData(
          m.id,
          ids[0],
          data([strike(1), strike(2, 2), strike(3, 3)], '2026-11-27T10:00:00.000Z'),
        );
        await store.putOwnerMatchData(m.id, ids[1], data([strike(5)]));
        await store.putOwnerMatchData(m2.id, ids[0], data([strike(8), strike(9, 2)], '2026-11-27T11:00:00.000Z'));
        const p1 = await store.listBotStrikes(ids[0], { limit: 3 });
        expect(p1.strikes.map((s) => [s.matchId, s.decisionId])).toEqual([
          [m2.id, 9],
          [m2.id, 8],
          [m.id, 3],
        ]);
        expect(p1.strikes[0]).toEqual({ ...strike(9, 2), matchId: m2.id, at: '2026-11-27T11:00:00.000Z' });
        expect(p1.next).toMatch(URL_SAFE);
        const m3 = runningMatch(ids);
        await store.putMatch(m3);
        await store.putMatch(aborted(m3));
        await store.putOwnerMatchData(m3.id, ids[0], data([strike(20)]));
        const p2 = await store.listBotStrikes(ids[0], { limit: 3, cursor: p1.next });
        expect(p2.strikes.map((s) => s.decisionId)).toEqual([2, 1]);
        expect(p2.next).toBeNull();
        expect((await store.listBotStrikes(ids[0], { limit: 1 })).strikes[0].decisionId).toBe(20);
        expect((await store.listBotStrikes(ids[1], { limit: 10 })).strikes.map((s) => s.decisionId)).toEqual([5]);
        await expect(store.listBotStrikes(ids[0], { limit: 3, cursor: '!!' })).rejects.toBeInstanceOf(InvalidCursor);
        await expect(store.listBotStrikes(ids[0], { limit: 0 })).rejects.toBeInstanceOf(RangeError);
        await expect(store.listBotStrikes(ids[0], { limit: 101 })).rejects.toBeInstanceOf(RangeError);
      });
    });
    describe('webhooks', () => {
      const delivery = (
        webhookId: string,
        ownerId: string,
        n: number,
        at = iso(Date.UTC(2026, 0, 1) + n * 1000),
      ): WebhookDeliveryRecord => ({
        id: `msg_${webhookId.slice(3)}${n}`,
        webhookId,
        ownerId,
        type: 'match.completed',
        status: 'pending',
        attempts: 0,
        createdAt: at,
        lastAttemptAt: null,
        nextAttemptAt: at,
        responseStatus: null,
        error: null,
        payload: `{"n":${n}}`,
      });

      it('adds, lists per owner oldest first, and refuses past the limit atomically', async () => {
        const a = await user();
        const b = await user();
        const w1 = await store.addWebhook(
          { ownerId: a.id, url: 'https://a.example/1', events: ['match.completed'] },
          2,
        );
        expect(w1.id).toMatch(/^wh_/);
        expect(w1).toMatchObject({ ownerId: a.id, url: 'https://a.example/1', events: ['match.completed'] });
        const w2 = await store.addWebhook(
          { ownerId: a.id, url: 'https://a.example/2', events: ['bot.failed', 'bot.qualified'] },
          2,
        );
        await conflict(
          store.addWebhook({ ownerId: a.id, url: 'https://a.example/3', events: ['bot.failed'] }, 2),
          'webhooks',
        );
        // Concurrent adds cannot race past the limit.
        const raced = await Promise.allSettled(
          [1, 2, 3].map((i) =>
            store.addWebhook({ ownerId: b.id, url: `https://b.example/${i}`, events: ['bot.failed'] }, 2),
          ),
        );
        expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
        expect((await store.listWebhooks(a.id)).map((w) => w.id)).toEqual([w1.id, w2.id]);
        expect(await store.getWebhook(w2.id)).toEqual(w2);
        expect(await store.getWebhook('wh_nope')).toBeNull();
        await notFound(
          store.addWebhook({ ownerId: 'u_nobody', url: 'https://x.example/', events: ['bot.failed'] }, 5),
          'user',
        );
      });

      it('keeps the newest deliveries per webhook, updates attempts, lists pending, and removes with the webhook', async () => {
        const a = await user();
        const w = await store.addWebhook({ ownerId: a.id, url: 'https://a.example/', events: ['match.completed'] }, 5);
        const other = await store.addWebhook(
          { ownerId: a.id, url: 'https://a.example/o', events: ['match.completed'] },
          5,
        );
        for (let n = 1; n <= 4; n++) expect(await store.addWebhookDelivery(delivery(w.id, a.id, n), 3)).toBe(true);
        expect(await store.addWebhookDelivery(delivery(other.id, a.id, 9), 3)).toBe(true);
        expect((await store.listWebhookDeliveries(w.id)).map((d) => d.payload)).toEqual([
          '{"n":4}',
          '{"n":3}',
          '{"n":2}',
        ]);
        await conflict(store.addWebhookDelivery(delivery(w.id, a.id, 4), 3), 'delivery');
        const first = (await store.listWebhookDeliveries(w.id))[2];
        expect(
          await store.updateWebhookDelivery(first.id, {
            status: 'delivered',
            attempts: 1,
            lastAttemptAt: iso(Date.UTC(2026, 0, 2)),
            nextAttemptAt: null,
            responseStatus: 204,
            error: null,
          }),
        ).toBe(true);
        expect((await store.listWebhookDeliveries(w.id))[2]).toEqual({
          ...first,
          status: 'delivered',
          attempts: 1,
          lastAttemptAt: iso(Date.UTC(2026, 0, 2)),
          nextAttemptAt: null,
          responseStatus: 204,
        });
        expect((await store.listPendingWebhookDeliveries()).map((d) => d.payload).sort()).toEqual([
          '{"n":3}',
          '{"n":4}',
          '{"n":9}',
        ]);
        // Unknown deliveries are ignored; a delivery to a removed webhook is not kept.
        expect(
          await store.updateWebhookDelivery('msg_nope', {
            status: 'failed',
            attempts: 9,
            lastAttemptAt: null,
            nextAttemptAt: null,
            responseStatus: null,
            error: 'x',
          }),
        ).toBe(false);
        await store.removeWebhook(w.id);
        await store.removeWebhook(w.id);
        expect(await store.getWebhook(w.id)).toBeNull();
        expect(await store.listWebhookDeliveries(w.id)).toEqual([]);
        expect(await store.addWebhookDelivery(delivery(w.id, a.id, 7), 3)).toBe(false);
        expect((await store.listPendingWebhookDeliveries()).map((d) => d.payload)).toEqual(['{"n":9}']);
        expect((await store.listWebhooks(a.id)).map((x) => x.id)).toEqual([other.id]);
      });
    });
  });
}
