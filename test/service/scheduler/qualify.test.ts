// Qualifiers through the scheduler, with real WebSocket bots on loopback and a
// real store: the pass line (1 strike passes, 2 fail), what the owner is told
// (bot.qualified / bot.failed with the strikes' reasons), --qualify off
// letting a waiting bot in unplayed, and the --qualify-opponents parser.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveHub } from '../../../src/service/live/hub';
import type { OwnerEvent } from '../../../src/service/owner-events';
import { parseQualifyOpponents } from '../../../src/service/scheduler/qualify';
import { Scheduler } from '../../../src/service/scheduler/scheduler';
import type { Store } from '../../../src/service/store/types';
import { illegalBot, wellBehaved } from '../../support/policies';
import type { Behaviour } from '../../support/test-bot';
import { startTestBot } from '../../support/test-bot';
import { openTestStore } from '../../support/test-store';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function setup(behaviours: Behaviour[], enabled = true) {
  const dir = mkdtempSync(join(tmpdir(), 'arena-qualify-'));
  const store: Store = await openTestStore(dir);
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => store.close());
  const owner = await store.createUser({ email: 'q@example.com', name: 'q' });
  const ids: string[] = [];
  for (const [i, behaviour] of behaviours.entries()) {
    const server = await startTestBot({ behaviour });
    cleanup.push(() => server.close());
    ids.push(
      (await store.addBot({ ownerId: owner.id, name: `q${i}`, game: 'pioneers', url: server.url, qualify: true })).id,
    );
  }
  const events: OwnerEvent[] = [];
  const log: Array<Record<string, unknown>> = [];
  const scheduler = new Scheduler({
    store,
    hub: new LiveHub(),
    platformKey: generateKeyPairSync('ed25519').privateKey,
    tickMs: 60_000,
    matchTimeoutMs: 60_000,
    deadlineMs: 2000,
    sameOwner: 'allow',
    log: (l) => void log.push(l),
    qualify: { enabled, opponents: ['random', 'random', 'greedy'] },
    onOwnerEvent: (e) => void events.push(e),
  });
  cleanup.push(() => scheduler.stop());
  return { store, ids, owner, scheduler, events, log };
}

async function idle(s: Scheduler): Promise<void> {
  while (s.runningCount > 0) await new Promise((r) => setTimeout(r, 20));
}

describe('qualifiers', () => {
  it('one strike passes, two fail; the owner hears bot.qualified or bot.failed with the reasons', async () => {
    const { store, ids, owner, scheduler, events } = await setup([illegalBot(1), illegalBot(2), wellBehaved()]);
    const started = await scheduler.tick();
    expect(started).toHaveLength(3);
    // Waiting for their qualifiers, none of them is seated in a rated match meanwhile.
    expect(await scheduler.tick()).toEqual([]);
    await idle(scheduler);
    const [one, two, clean] = await Promise.all(ids.map((id) => store.getBot(id)));
    expect(one).toMatchObject({ status: 'active', qualification: { state: 'passed', resigned: false } });
    expect(one!.qualification!.strikes).toHaveLength(1);
    expect(two).toMatchObject({
      status: 'failed',
      qualification: { state: 'failed', resigned: false, reason: '2 strikes (at most 1 pass)' },
    });
    expect(two!.qualification!.strikes.map((s) => s.reason)).toEqual(['illegal', 'illegal']);
    expect(clean).toMatchObject({ status: 'active', qualification: { state: 'passed', strikes: [] } });
    // Four seats: the bot and three built-ins (the same one twice has two ids).
    const m = await store.getMatch(two!.qualification!.matchId!);
    expect(m!.players.map((p) => p.botId).sort()).toEqual(
      [ids[1], 'builtin:greedy', 'builtin:random', 'builtin:random:2'].sort(),
    );
    // The strikes are in the owner's strike log too.
    expect((await store.listBotStrikes(ids[1], { limit: 10 })).strikes).toHaveLength(2);
    const byBot = new Map(events.map((e) => [e.botId, e]));
    expect(events).toHaveLength(3);
    expect(byBot.get(ids[0])).toMatchObject({
      type: 'bot.qualified',
      ownerId: owner.id,
      matchId: one!.qualification!.matchId,
    });
    expect(byBot.get(ids[1])).toMatchObject({
      type: 'bot.failed',
      ownerId: owner.id,
      matchId: two!.qualification!.matchId,
      data: { version: 1, reason: '2 strikes (at most 1 pass)' },
    });
    expect(JSON.stringify(events)).not.toContain('127.0.0.1');
    // The passed ones are seated rated at the next tick; the failed one is not.
    const rated = await scheduler.tick();
    await idle(scheduler);
    expect(rated).toHaveLength(0); // two active bots make no table (3 at least)
    expect((await store.listActiveBots('pioneers')).map((b) => b.id).sort()).toEqual([ids[0], ids[2]].sort());
  }, 60_000);

  it('with qualification off, a waiting bot is let in unplayed (skipped) and seated in the same tick', async () => {
    const { store, ids, scheduler, events } = await setup([wellBehaved(), wellBehaved(), wellBehaved()], false);
    const started = await scheduler.tick();
    expect(started).toHaveLength(1);
    const m = await store.getMatch(started[0]);
    expect(m!.qualification).toBeUndefined();
    expect(m!.rated).toBeUndefined();
    for (const id of ids)
      expect(await store.getBot(id)).toMatchObject({
        status: 'active',
        qualification: { state: 'skipped', matchId: null },
      });
    expect(events).toEqual([]);
    await idle(scheduler);
  }, 60_000);
});

describe('parseQualifyOpponents', () => {
  it('takes 2 or 3 built-ins, with or without builtin:', () => {
    expect(parseQualifyOpponents('builtin:greedy,builtin:random')).toEqual(['greedy', 'random']);
    expect(parseQualifyOpponents(' search , random,greedy ')).toEqual(['search', 'random', 'greedy']);
  });
  it('refuses unknown names and the wrong count, saying what to give', () => {
    expect(() => parseQualifyOpponents('builtin:heuristic,builtin:random')).toThrow(
      /unknown built-in bot "heuristic"; choose from builtin:random, builtin:greedy, builtin:search/,
    );
    expect(() => parseQualifyOpponents('random')).toThrow(/give 2 or 3/);
    expect(() => parseQualifyOpponents('random,random,random,random')).toThrow(/give 2 or 3/);
  });
});
