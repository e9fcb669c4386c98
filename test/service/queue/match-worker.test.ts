// The job queue's rules on a real PostgreSQL database, with a real worker
// (graphile-worker) and real WebSocket bots in this process: a match is
// claimed by one worker only; a lapsed lease is aborted once by the sweep and
// never renewed; a worker that loses the database for less than its lease
// finishes the match and writes it, rated once, when the database is back.
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../src/keys/index';
import { LiveHub } from '../../../src/service/live/hub';
import { claimMatch, renewLease } from '../../../src/service/queue/match-jobs';
import { MatchWorker } from '../../../src/service/queue/match-worker';
import { QueueDispatch } from '../../../src/service/queue/queue-dispatch';
import { CHALLENGE_FILLER } from '../../../src/service/scheduler/challenges';
import { migrateQueue } from '../../../src/service/queue/queue-schema';
import { MatchPlayer } from '../../../src/service/scheduler/match-player';
import { Scheduler } from '../../../src/service/scheduler/scheduler';
import { openPgStore, type PgStore } from '../../../src/service/store/pg-store';
import { StoreConflict } from '../../../src/service/store/types';
import { legalPlayer } from '../../support/policies';
import { answer, startTestBot } from '../../support/test-bot';
import { usePostgres } from '../../support/use-postgres';

const cluster = usePostgres();
const platformKey = generateKeyPair().privateKey;
const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(botCount: number, delayMs = 0) {
  const url = await cluster().createDatabase();
  const store: PgStore = await openPgStore(url);
  cleanup.push(() => store.close());
  const log: Array<Record<string, unknown>> = [];
  const owner = await store.createUser({ email: 'o@example.com', name: 'o' });
  const bots = [];
  for (let i = 0; i < botCount; i++) {
    const play = legalPlayer();
    const server = await startTestBot({
      behaviour: (ctx) =>
        void setTimeout(() => answer(ctx, play(ctx.request.view, ctx.request.kind, ctx.request.matchId)), delayMs),
    });
    cleanup.push(() => server.close());
    bots.push(await store.addBot({ ownerId: owner.id, name: `b${i}`, game: 'pioneers', url: server.url }));
  }
  await migrateQueue(store.db, (l) => void log.push(l));
  const dispatch = new QueueDispatch({ db: store.db, store, matchTimeoutMs: 60_000, log: (l) => void log.push(l) });
  const player = new MatchPlayer({
    store,
    hub: new LiveHub(),
    platformKey,
    matchTimeoutMs: 60_000,
    log: (l) => void log.push(l),
  });
  return { url, store, bots, dispatch, player, log };
}

async function until(what: string, fn: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('match queue', () => {
  it('one claim per match; a lapsed lease is not renewed, and the sweep aborts the match once', async () => {
    const { store, bots, dispatch, player } = await setup(4);
    const running = player.prepare('m-one', bots, true);
    expect(await dispatch.start(running)).toBe(true);
    // Queued counts as busy: its bots are not seated again, and it counts toward the cap.
    const busy = await dispatch.busy();
    expect(busy.running).toBe(1);
    expect([...busy.botIds].sort()).toEqual(bots.map((b) => b.id).sort());
    const first = await claimMatch(store.db, 'm-one', 'w-a', 200);
    expect(first?.record.id).toBe('m-one');
    expect(await claimMatch(store.db, 'm-one', 'w-b', 200)).toBeNull();
    expect(await claimMatch(store.db, 'm-one', 'w-a', 200)).toBeNull();
    expect(await renewLease(store.db, 'm-one', 'w-b', 200)).toBe(false);
    expect(await renewLease(store.db, 'm-one', 'w-a', 200)).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    // The lease lapsed: the worker cannot take it back, and the sweep aborts it, once.
    expect(await renewLease(store.db, 'm-one', 'w-a', 200)).toBe(false);
    expect(await dispatch.sweep()).toEqual(['m-one']);
    expect(await dispatch.sweep()).toEqual([]);
    const m = await store.getMatch('m-one');
    expect(m?.status).toBe('aborted');
    // The worker's late result is refused: no rating moves.
    await expect(store.completeMatch({ ...m!, status: 'completed' }, [])).rejects.toBeInstanceOf(StoreConflict);
    expect(await store.listRatings('pioneers')).toEqual([]);
    expect((await dispatch.busy()).running).toBe(0);
  });

  it("the scheduler queues from the database's view: --max-matches counts queued matches anywhere, and a queued match's bots are not seated again", async () => {
    const { store, bots, dispatch, log } = await setup(8);
    const opts = {
      store,
      hub: new LiveHub(),
      platformKey,
      tickMs: 60_000,
      matchTimeoutMs: 60_000,
      sameOwner: 'allow' as const,
      log: (l: Record<string, unknown>) => void log.push(l),
      dispatch,
    };
    // Two schedulers in turn (as after a failover): the second knows nothing in memory.
    const first = new Scheduler({ ...opts, maxMatches: 1 });
    const [queued] = await first.tick();
    expect(queued).toBeDefined();
    expect(await first.tick()).toEqual([]);
    const second = new Scheduler({ ...opts, maxMatches: 2 });
    const [next] = await second.tick();
    const a = (await store.getMatch(queued))!.players.map((p) => p.botId);
    const b = (await store.getMatch(next))!.players.map((p) => p.botId);
    expect(new Set([...a, ...b]).size).toBe(8);
    expect(await second.tick()).toEqual([]);
    expect((await dispatch.busy()).running).toBe(2);
    expect(bots).toHaveLength(8);
  });

  it("a running match with no job (a dead all-in-one server's) is aborted by the sweep", async () => {
    const { store, bots, dispatch, player } = await setup(4);
    await store.putMatch(player.prepare('m-orphan', bots, true));
    expect(await dispatch.sweep()).toEqual(['m-orphan']);
    expect((await store.getMatch('m-orphan'))?.status).toBe('aborted');
  });

  it('a worker plays a queued challenge of two bots with its built-in seat (which has no bot record), unrated', async () => {
    const { store, bots, dispatch, player, log } = await setup(2);
    const worker = new MatchWorker({
      store,
      db: store.db,
      hub: new LiveHub(),
      platformKey,
      matchTimeoutMs: 60_000,
      log: (l) => void log.push(l),
      concurrency: 1,
      leaseMs: 10_000,
    });
    await worker.start();
    cleanup.push(() => worker.stop());
    const challenge = await store.addChallenge(
      { ownerId: bots[0].ownerId, botId: bots[0].id, opponents: [bots[1].id] },
      600_000,
      { maxPending: 3, maxPerDay: 20 },
    );
    const running = player.prepare('m-challenge', bots, false, { challenge, bots, fillers: 1, matchId: 'm-challenge' });
    expect(running.players.map((p) => p.botId).sort()).toEqual([bots[0].id, bots[1].id, CHALLENGE_FILLER.botId].sort());
    expect(await dispatch.start(running)).toBe(true);
    await until('the challenge played', async () => (await store.getMatch('m-challenge'))?.status === 'completed');
    const done = await store.getMatch('m-challenge');
    expect(done).toMatchObject({ rated: false, challenge: challenge.id });
    expect(done!.players.every((p) => p.placement !== null && p.ratingDelta === null)).toBe(true);
    expect(await store.listRatings('pioneers')).toEqual([]);
  });

  it('a worker that loses the database mid-match for less than its lease finishes it and writes it when the database is back', async () => {
    const { store, bots, dispatch, player, log } = await setup(4, 3);
    const worker = new MatchWorker({
      store,
      db: store.db,
      hub: new LiveHub(),
      platformKey,
      matchTimeoutMs: 60_000,
      minTurnMs: 30,
      log: (l) => void log.push(l),
      concurrency: 1,
      leaseMs: 10_000,
    });
    await worker.start();
    cleanup.push(() => worker.stop());
    expect(await dispatch.start(player.prepare('m-away', bots, true))).toBe(true);
    await until('the worker plays the match', async () => worker.playingCount === 1);
    cluster().stop('immediate');
    await new Promise((r) => setTimeout(r, 1_500));
    // Still playing through the outage: the result comes after it.
    expect(worker.playingCount).toBe(1);
    cluster().start();
    await until(
      'the match recorded',
      async () => (await store.getMatch('m-away').catch(() => null))?.status === 'completed',
      40_000,
    );
    const ratings = await store.listRatings('pioneers');
    expect(ratings.map((r) => r.gamesPlayed)).toEqual([1, 1, 1, 1]);
    expect(log.filter((l) => l.event === 'match.abort')).toEqual([]);
    expect(Number(log.find((l) => l.event === 'match.end')?.durationMs)).toBeGreaterThan(1_500);
  }, 60_000);
});
