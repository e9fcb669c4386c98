// takeChallenges on a real file store: what a tick does with each pending
// challenge (play, wait, expire, refuse), with the tick's clock given.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeChallenges } from '../../../src/service/scheduler/challenges';
import { openFileStore, type FileStore } from '../../../src/service/store/file-store';
import type { BotRecord } from '../../../src/service/store/types';

const LIMITS = { maxPending: 10, maxPerDay: 100 };
const TTL = 60_000;

let dir: string;
let store: FileStore;
let logs: Array<Record<string, unknown>>;
let ids = 0;
let mine: BotRecord;
let theirs: BotRecord[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-challenges-'));
  store = await openFileStore(dir);
  logs = [];
  const a = await store.createUser({ email: 'a@example.com' });
  const b = await store.createUser({ email: 'b@example.com' });
  mine = await store.addBot({ ownerId: a.id, name: 'mine', game: 'pioneers', url: 'ws://127.0.0.1:9/m' });
  theirs = [];
  for (const n of ['t1', 't2', 't3'])
    theirs.push(await store.addBot({ ownerId: b.id, name: n, game: 'pioneers', url: `ws://127.0.0.1:9/${n}` }));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function take(idle: BotRecord[], now = Date.now(), room = 10) {
  const pool = new Map(idle.map((b) => [b.id, b]));
  const tables = await takeChallenges({
    store,
    idle: pool,
    room,
    now,
    log: (f) => logs.push(f),
    newMatchId: () => `m_${++ids}`,
  });
  return { tables, pool };
}

describe('takeChallenges', () => {
  it('plays a challenge whose bots are all idle: marked played with the match id, its bots out of the pool, a built-in seat for a table of 2', async () => {
    const c = await store.addChallenge(
      { ownerId: mine.ownerId, botId: mine.id, opponents: [theirs[0].id] },
      TTL,
      LIMITS,
    );
    const { tables, pool } = await take([mine, ...theirs]);
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatchObject({ fillers: 1, bots: [{ id: mine.id }, { id: theirs[0].id }] });
    expect((await store.listChallenges(mine.ownerId, 1))[0]).toMatchObject({
      id: c.id,
      status: 'played',
      matchId: tables[0].matchId,
    });
    expect([...pool.keys()]).toEqual([theirs[1].id, theirs[2].id]);
    // Played once: the next tick finds nothing.
    expect((await take([mine, ...theirs])).tables).toEqual([]);
  });

  it('waits while a bot is busy or there is no room; expires at its time, with the reason', async () => {
    const c = await store.addChallenge(
      { ownerId: mine.ownerId, botId: mine.id, opponents: [theirs[0].id, theirs[1].id] },
      TTL,
      LIMITS,
    );
    expect((await take([mine, theirs[1]])).tables).toEqual([]);
    expect((await take([mine, ...theirs], Date.now(), 0)).tables).toEqual([]);
    expect((await store.listChallenges(mine.ownerId, 1))[0].status).toBe('pending');
    expect((await take([mine, theirs[1]], Date.parse(c.expiresAt))).tables).toEqual([]);
    const ended = (await store.listChallenges(mine.ownerId, 1))[0];
    expect(ended).toMatchObject({ status: 'expired', matchId: null });
    expect(ended.reason).toMatch(/never all idle/);
    expect(logs.some((l) => l.event === 'challenge.expired')).toBe(true);
  });

  it('two challenges sharing a bot: the older plays, the other waits for a later tick', async () => {
    const first = await store.addChallenge(
      { ownerId: mine.ownerId, botId: mine.id, opponents: [theirs[0].id] },
      TTL,
      LIMITS,
    );
    const second = await store.addChallenge(
      { ownerId: mine.ownerId, botId: mine.id, opponents: [theirs[1].id, theirs[2].id] },
      TTL,
      LIMITS,
    );
    const { tables } = await take([mine, ...theirs]);
    expect(tables.map((t) => t.challenge.id)).toEqual([first.id]);
    expect((await store.listPendingChallenges()).map((c) => c.id)).toEqual([second.id]);
  });

  it("refused at the tick: an opponent removed, paused or no longer accepting; the challenger's bot removed or paused", async () => {
    const cases: Array<[() => Promise<unknown>, RegExp]> = [
      [() => store.removeBot(theirs[0].id), /was removed/],
      [() => store.updateBot(theirs[1].id, { status: 'paused' }), /is paused/],
      [() => store.updateBot(theirs[2].id, { challengeable: false }), /does not accept challenges/],
    ];
    for (const [i, [act, reason]] of cases.entries()) {
      await store.addChallenge({ ownerId: mine.ownerId, botId: mine.id, opponents: [theirs[i].id] }, TTL, LIMITS);
      await act();
      const active = await store.listActiveBots('pioneers');
      expect((await take(active)).tables).toEqual([]);
      const [c] = await store.listChallenges(mine.ownerId, 1);
      expect(c.status).toBe('refused');
      expect(c.reason).toMatch(reason);
    }
    const other = (await store.listBots(theirs[0].ownerId))[0];
    await store.addChallenge({ ownerId: mine.ownerId, botId: mine.id, opponents: [other.id] }, TTL, LIMITS);
    await store.updateBot(mine.id, { status: 'paused' });
    expect((await take(await store.listActiveBots('pioneers'))).tables).toEqual([]);
    expect((await store.listChallenges(mine.ownerId, 1))[0]).toMatchObject({
      status: 'refused',
      reason: `bot ${mine.id} is paused`,
    });
  });
});
