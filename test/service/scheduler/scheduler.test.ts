// The match plane without HTTP: the real file store, real WebSocket bots on
// 127.0.0.1, the real runner. Ticks seat idle bots in tables of 4 and 3,
// matches complete with placements and rating deltas, paused bots sit out,
// and a restart aborts what was running.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../src/keys/index';
import { LiveHub } from '../../../src/service/live/hub';
import { Scheduler } from '../../../src/service/scheduler/scheduler';
import { openTestStore } from '../../support/test-store';
import type { SameOwnerRule } from '../../../src/service/scheduler/tables';
import type { Store } from '../../../src/service/store/types';
import { illegalBot, lateBot, legalPlayer, wellBehaved } from '../../support/policies';
import { startTestBot, type TestBot } from '../../support/test-bot';

const platformKey = generateKeyPair().privateKey;
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** Plays legally and sends a note with every answer. */
function notingBot(note: string) {
  const play = legalPlayer();
  return (ctx: {
    request: {
      id: number;
      view: Parameters<ReturnType<typeof legalPlayer>>[0];
      kind: Parameters<ReturnType<typeof legalPlayer>>[1];
      matchId: string;
    };
    socket: { send(t: string): void };
  }) =>
    ctx.socket.send(
      JSON.stringify({
        id: ctx.request.id,
        action: play(ctx.request.view, ctx.request.kind, ctx.request.matchId),
        debug: note,
      }),
    );
}

/**
 * `owners` accounts own the bots in turn (bot i is owner i % owners'). Tests
 * about other things seat one owner's bots with --same-owner allow; 'default'
 * leaves the option out.
 */
async function setup(
  botCount: number,
  opts: {
    illegal?: number;
    maxMatches?: number;
    owners?: number;
    sameOwner?: SameOwnerRule | 'default';
    slowMs?: number;
    noting?: number;
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'arena-sched-'));
  const store: Store = await openTestStore(dir);
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => store.close());
  const users = [];
  for (let i = 0; i < (opts.owners ?? 1); i++)
    users.push(await store.createUser({ email: `owner${i || ''}@example.com`, name: `owner${i || ''}` }));
  const bots: Array<{ id: string; server: TestBot; ownerId: string }> = [];
  for (let i = 0; i < botCount; i++) {
    const behaviour =
      i < (opts.noting ?? 0)
        ? notingBot('secret-plan')
        : i < (opts.illegal ?? 0)
          ? illegalBot(2)
          : opts.slowMs
            ? lateBot(opts.slowMs)
            : wellBehaved();
    const server = await startTestBot({ behaviour });
    cleanup.push(() => server.close());
    const ownerId = users[i % users.length].id;
    const rec = await store.addBot({ ownerId, name: `bot${i}`, game: 'pioneers', url: server.url });
    bots.push({ id: rec.id, server, ownerId });
  }
  const sameOwner = opts.sameOwner === 'default' ? undefined : (opts.sameOwner ?? 'allow');
  const log: Array<Record<string, unknown>> = [];
  const hub = new LiveHub();
  const scheduler = new Scheduler({
    store,
    hub,
    platformKey,
    tickMs: 60_000,
    matchTimeoutMs: 60_000,
    deadlineMs: 2000,
    maxMatches: opts.maxMatches,
    sameOwner,
    log: (l) => void log.push(l),
  });
  cleanup.push(() => scheduler.stop());
  return { dir, store, bots, scheduler, hub, log };
}

async function waitIdle(s: Scheduler): Promise<void> {
  while (s.runningCount > 0) await new Promise((r) => setTimeout(r, 20));
}

describe('scheduler', () => {
  it('seats 7 idle bots as a table of 4 and a table of 3, rates the results, never seats a bot twice', async () => {
    const { store, bots, scheduler, log } = await setup(7);
    const started = await scheduler.tick();
    expect(started).toHaveLength(2);
    // While they run, a second tick finds nobody idle.
    expect(await scheduler.tick()).toEqual([]);
    const running = await Promise.all(started.map((id) => store.getMatch(id)));
    expect(running.map((m) => m!.players.length).sort()).toEqual([3, 4]);
    const seated = running.flatMap((m) => m!.players.map((p) => p.botId));
    expect(new Set(seated).size).toBe(7);
    await waitIdle(scheduler);
    for (const id of started) {
      const m = (await store.getMatch(id))!;
      expect(m.status).toBe('completed');
      expect(m.players.every((p) => p.placement !== null && typeof p.ratingDelta === 'number')).toBe(true);
      expect(m.replay.length).toBeGreaterThan(100);
      expect(m.seed).toMatch(/^[0-9a-f]{32}$/);
    }
    const ratings = await store.listRatings('pioneers');
    expect(ratings.map((r) => r.botId).sort()).toEqual(bots.map((b) => b.id).sort());
    expect(ratings.every((r) => r.gamesPlayed === 1)).toBe(true);
    // Logs name matches and bots, never a bot URL or a seed before the end.
    const text = JSON.stringify(log);
    for (const b of bots) expect(text).not.toContain(b.server.url);
    expect(log.filter((l) => l.event === 'match.end')).toHaveLength(2);
  });

  it('runs at most maxMatches at once; the bots that waited are seated first at the next tick', async () => {
    const { store, scheduler } = await setup(8, { maxMatches: 1 });
    const first = await scheduler.tick();
    expect(first).toHaveLength(1);
    expect(scheduler.runningCount).toBe(1);
    // Full: nothing more starts while it runs.
    expect(await scheduler.tick()).toEqual([]);
    await waitIdle(scheduler);
    const second = await scheduler.tick();
    expect(second).toHaveLength(1);
    const seated = async (id: string) => (await store.getMatch(id))!.players.map((p) => p.botId);
    const [a, b] = [await seated(first[0]), await seated(second[0])];
    // The four that waited play now, not the four that just played.
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    await waitIdle(scheduler);
  });

  it("a full server shares the seats among owners: one account's many bots do not keep another's out", async () => {
    const { store, bots, scheduler } = await setup(2, { maxMatches: 1 });
    // Two more owners with a bot each; the four bots play one match, so all four were seated once.
    const others = [];
    for (const email of ['b@example.com', 'c@example.com']) {
      const owner = await store.createUser({ email, name: email });
      const server = await startTestBot({ behaviour: wellBehaved() });
      cleanup.push(() => server.close());
      others.push(await store.addBot({ ownerId: owner.id, name: `bot-${email}`, game: 'pioneers', url: server.url }));
    }
    expect(await scheduler.tick()).toHaveLength(1);
    await waitIdle(scheduler);
    // Now the first owner registers six more bots, never seated: waiting longest of all.
    const many = [...bots.map((b) => b.id)];
    const ownerId = (await store.getBot(bots[0].id))!.ownerId;
    for (let i = 0; i < 6; i++) {
      const server = await startTestBot({ behaviour: wellBehaved() });
      cleanup.push(() => server.close());
      many.push((await store.addBot({ ownerId, name: `more${i}`, game: 'pioneers', url: server.url })).id);
    }
    const [id] = await scheduler.tick();
    const seated = (await store.getMatch(id))!.players.map((p) => p.botId);
    // One seat each for the other owners, the rest for the first owner's longest-waiting bots.
    expect(seated).toEqual(expect.arrayContaining(others.map((b) => b.id)));
    expect(seated.filter((b) => many.includes(b))).toHaveLength(2);
    expect(seated.filter((b) => bots.some((x) => x.id === b))).toEqual([]);
    await waitIdle(scheduler);
  });

  it('--same-owner avoid spreads owners: 4 owners with 2 bots each make 2 tables of 4 owners, both rated', async () => {
    const { store, bots, scheduler } = await setup(8, { owners: 4, sameOwner: 'avoid' });
    const started = await scheduler.tick();
    expect(started).toHaveLength(2);
    const owner = new Map(bots.map((b) => [b.id, b.ownerId]));
    for (const id of started) {
      const m = (await store.getMatch(id))!;
      expect(new Set(m.players.map((p) => owner.get(p.botId))).size).toBe(4);
      expect(m.rated).toBeUndefined();
    }
  });

  it('by default (avoid) a table one owner fills is played but not rated: the record says so and no rating moves', async () => {
    const { store, scheduler, log } = await setup(4, { sameOwner: 'default' });
    const [id] = await scheduler.tick();
    expect((await store.getMatch(id))!.rated).toBe(false);
    await waitIdle(scheduler);
    const m = (await store.getMatch(id))!;
    expect(m.status).toBe('completed');
    expect(m.rated).toBe(false);
    expect(m.players.every((p) => p.placement !== null && p.ratingDelta === null)).toBe(true);
    expect(await store.listRatings('pioneers')).toEqual([]);
    expect(log.find((l) => l.event === 'match.end')).toMatchObject({ matchId: id, rated: false });
    const page = await store.listMatchSummaries({ limit: 10 });
    expect(page.matches[0]).toMatchObject({ id, rated: false });
  });

  it('--same-owner forbid forms no table with two bots of one owner: they wait', async () => {
    const { store, scheduler } = await setup(6, { owners: 2, sameOwner: 'forbid' });
    expect(await scheduler.tick()).toEqual([]);
    expect((await store.listMatchSummaries({ limit: 10 })).matches).toEqual([]);
  });

  it('leaves paused and removed bots out, and 2 idle bots wait', async () => {
    const { store, bots, scheduler } = await setup(5);
    await store.updateBot(bots[0].id, { status: 'paused' });
    await store.removeBot(bots[1].id);
    await store.updateBot(bots[2].id, { status: 'paused' });
    expect(await scheduler.tick()).toEqual([]); // 2 active bots: too few
    await store.updateBot(bots[2].id, { status: 'active' });
    const [id] = await scheduler.tick();
    const m = (await store.getMatch(id))!;
    expect(m.players.map((p) => p.botId).sort()).toEqual([bots[2].id, bots[3].id, bots[4].id].sort());
    await waitIdle(scheduler);
  });

  it('a bot that makes illegal moves costs only itself: the match completes and it is struck', async () => {
    const { store, scheduler } = await setup(4, { illegal: 1 });
    const [id] = await scheduler.tick();
    await waitIdle(scheduler);
    const m = (await store.getMatch(id))!;
    expect(m.status).toBe('completed');
    expect(m.replay.filter((e) => e.kind === 'timeout').length).toBeGreaterThanOrEqual(2);
  });

  it("a bot's notes never reach the stored (public) record; its decisions' times do", async () => {
    const { store, scheduler, dir } = await setup(4, { noting: 1 });
    const [id] = await scheduler.tick();
    await waitIdle(scheduler);
    const m = (await store.getMatch(id))!;
    expect(m.status).toBe('completed');
    expect(m.decisions!.length).toBeGreaterThan(100);
    expect(m.decisions!.every((d) => d.debug === undefined && d.debugTruncated === undefined)).toBe(true);
    const { execFileSync } = await import('node:child_process');
    // Only the owner's private data holds the note (matches/private/ of a file store; nothing on disk for Postgres).
    let found = '';
    try {
      found = execFileSync('grep', ['-r', '-l', 'secret-plan', dir]).toString();
    } catch {
      // grep exits 1 when nothing matches
    }
    expect(
      found
        .split('\n')
        .filter(Boolean)
        .every((f) => f.includes('/matches/private/')),
    ).toBe(true);
    const kept = await Promise.all(m.players.map((p) => store.getOwnerMatchData(id, p.botId)));
    const noted = kept.filter((d) => d?.notes.some((n) => JSON.stringify(n.debug).includes('secret-plan')));
    expect(noted).toHaveLength(1);
  });

  it('stop aborts running matches with no rating change; recover aborts what a dead process left running', async () => {
    // Bots that take 20 ms a decision (well inside the deadline): the match cannot end before stop, however fast the
    // machine.
    const { store, scheduler, dir } = await setup(4, { slowMs: 20 });
    const [id] = await scheduler.tick();
    await scheduler.stop();
    const m = (await store.getMatch(id))!;
    expect(m.status).toBe('aborted');
    expect(m.players.every((p) => p.placement === null && p.ratingDelta === null)).toBe(true);
    expect(await store.listRatings('pioneers')).toEqual([]);

    // A match the store has as running, as a killed process would leave it.
    const stale = { ...m, id: 'm_stale', status: 'running' as const, endedAt: null };
    await store.putMatch(stale);
    const fresh = new Scheduler({
      store,
      hub: new LiveHub(),
      platformKey,
      tickMs: 60_000,
      matchTimeoutMs: 60_000,
      log: () => {},
    });
    expect(await fresh.recover()).toEqual(['m_stale']);
    expect((await store.getMatch('m_stale'))!.status).toBe('aborted');
    expect(dir).toBeTruthy();
  });
});
