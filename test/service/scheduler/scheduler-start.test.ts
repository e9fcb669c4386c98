// A tick starts every table at once: the store writes one record at a time
// (tens of ms each with fsync), so waiting for each running record before
// starting the next table would start the 200th table seconds late. The
// running record is written meanwhile, the result only after it; a record
// that cannot be written aborts its match, and viewers still hear the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../src/keys/index';
import { LiveHub } from '../../../src/service/live/hub';
import { Scheduler } from '../../../src/service/scheduler/scheduler';
import { openFileStore } from '../../../src/service/store/index';
import type { Store, StoredMatch } from '../../../src/service/store/types';
import { wellBehaved } from '../../support/policies';
import { startTestBot, type TestBot } from '../../support/test-bot';

const platformKey = generateKeyPair().privateKey;
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** The real file store, with writes of running records held until the test lets them through (or made to fail). */
async function setup(botCount: number) {
  const dir = mkdtempSync(join(tmpdir(), 'arena-sched-start-'));
  const real = await openFileStore(dir);
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => real.close());
  const gate = { release: () => {}, fail: false };
  const held = new Promise<void>((r) => (gate.release = r));
  const store: Store = Object.create(real);
  store.putMatch = async (m: StoredMatch) => {
    if (m.status === 'running') {
      await held;
      if (gate.fail) throw new Error('disk full');
    }
    return real.putMatch(m);
  };
  const owner = await real.createUser({ email: 'o@example.com', name: 'o' });
  const bots: TestBot[] = [];
  for (let i = 0; i < botCount; i++) {
    const bot = await startTestBot({ behaviour: wellBehaved() });
    cleanup.push(() => bot.close());
    bots.push(bot);
    await real.addBot({ ownerId: owner.id, name: `b${i}`, game: 'pioneers', url: bot.url });
  }
  const log: Array<Record<string, unknown>> = [];
  const hub = new LiveHub();
  const scheduler = new Scheduler({
    store,
    hub,
    platformKey,
    tickMs: 60_000,
    matchTimeoutMs: 60_000,
    deadlineMs: 2000,
    log: (l) => void log.push(l),
  });
  cleanup.push(() => scheduler.stop());
  return { real, bots, gate, scheduler, hub, log };
}

async function until(ok: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 60_000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("scheduler: starting a tick's tables", () => {
  it('every table plays before any running record is written; the tick resolves once they are, and results follow them', async () => {
    const { real, bots, gate, scheduler, log } = await setup(8);
    const ticked = scheduler.tick();
    // All eight bots get decisions while both records are still held.
    await until(() => bots.every((b) => b.frames.length > 0), 'every seated bot asked for a decision');
    expect(log.filter((l) => l.event === 'match.start')).toEqual([]);
    gate.release();
    const ids = await ticked;
    expect(ids).toHaveLength(2);
    expect(
      log
        .filter((l) => l.event === 'match.start')
        .map((l) => l.matchId)
        .sort(),
    ).toEqual([...ids].sort());
    await until(() => scheduler.runningCount === 0, 'both matches over');
    for (const id of ids) expect((await real.getMatch(id))!.status).toBe('completed');
    // The log tells the story in order: each start before its end.
    for (const id of ids) {
      const at = (e: string) => log.findIndex((l) => l.event === e && l.matchId === id);
      expect(at('match.start')).toBeLessThan(at('match.end'));
    }
  }, 120_000);

  it('a running record that cannot be written aborts its match: viewers hear the end, nothing is stored, the tick reports no match', async () => {
    const { real, gate, scheduler, hub, log } = await setup(4);
    const ticked = scheduler.tick();
    await until(() => scheduler.runningCount === 1, 'a match started');
    // The one open channel is the match's.
    const channels = (hub as unknown as { channels: Map<string, unknown> }).channels;
    await until(() => channels.size === 1, 'its live channel open');
    const matchId = [...channels.keys()][0];
    const chunks: string[] = [];
    let closed = false;
    hub.get(matchId!)!.subscribe({ send: (c) => void chunks.push(c), close: () => void (closed = true) }, null);
    gate.fail = true;
    gate.release();
    expect(await ticked).toEqual([]);
    await until(() => scheduler.runningCount === 0, 'the match ended');
    expect(closed).toBe(true);
    expect(chunks.at(-1)).toMatch(/^event: end\ndata: \{"id":"[^"]+","status":"aborted"/);
    expect(await real.getMatch(matchId!)).toBeNull();
    expect(log).toContainEqual(
      expect.objectContaining({ event: 'match.abort', matchId, reason: 'its running record could not be written' }),
    );
    expect(log.some((l) => l.event === 'match.start')).toBe(false);
  }, 60_000);
});
