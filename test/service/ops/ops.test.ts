// What the operator sees of the match plane: /metrics moves (matches running,
// completed and aborted, decisions by kind, the decision latency histogram,
// strikes by reason, live viewers), and the log has a line for each match's
// start, end (reason, placements, duration) and abort, never with a seed or
// a bot URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { illegalBot, stallingBot, wellBehaved } from '../../support/policies';
import { startArena, type Arena } from '../../support/serve-arena';

async function metrics(a: Arena): Promise<Map<string, number>> {
  const text = await (await fetch(`${a.url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(arena_[a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) out.set(m[1], Number(m[2]));
  }
  return out;
}

async function until(ok: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 60_000;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

let arena: Arena;
let slow: Arena;

beforeAll(async () => {
  arena = await startArena([wellBehaved(), wellBehaved(), wellBehaved(), illegalBot(2)]);
  // Each answer takes half a 2 s deadline: no match finishes inside a 1.5 s wall clock.
  slow = await startArena([stallingBot(0.5), stallingBot(0.5), stallingBot(0.5)], { matchTimeoutMs: 1500 });
}, 60_000);

afterAll(async () => {
  await arena?.close();
  await slow?.close();
});

describe('metrics and logs of the match plane', () => {
  it('a completed match moves running, completed, decisions by kind, latency, strikes and live viewers', async () => {
    const before = await metrics(arena);
    expect(before.get('arena_matches_running')).toBe(0);
    expect(before.get('arena_live_viewers')).toBe(0);
    const [id] = await arena.tick();
    const stream = await fetch(`${arena.url}/matches/${id}/live`);
    await until(async () => (await metrics(arena)).get('arena_live_viewers') === 1, 'one live viewer counted');
    expect((await metrics(arena)).get('arena_matches_running')).toBe(1);
    await stream.text(); // the server closes it at the end
    await arena.idle();
    await until(async () => (await metrics(arena)).get('arena_live_viewers') === 0, 'the viewer gone');
    const after = await metrics(arena);
    expect(after.get('arena_matches_running')).toBe(0);
    expect(after.get('arena_matches_total{status="completed"}')).toBe(1);
    for (const kind of ['setup', 'turn']) expect(after.get(`arena_decisions_total{kind="${kind}"}`)).toBeGreaterThan(0);
    expect(after.get('arena_decision_latency_seconds_count')).toBeGreaterThan(100);
    expect(after.get('arena_decision_latency_seconds_bucket{le="+Inf"}')).toBe(
      after.get('arena_decision_latency_seconds_count'),
    );
    expect(after.get('arena_strikes_total{reason="illegal"}')).toBe(2);
  }, 120_000);

  it('logs the start, the end with reason, placements and duration; never the seed or a bot URL', async () => {
    const [start, end] = ['match.start', 'match.end'].map((e) => arena.logs.find((l) => l.event === e)!);
    expect(start).toMatchObject({ matchId: expect.any(String), bots: expect.any(Array) });
    expect((start.bots as string[]).sort()).toEqual(arena.bots.map((b) => b.id).sort());
    expect(end.matchId).toBe(start.matchId);
    expect(['win', 'cap']).toContain(end.reason);
    expect(end.durationMs).toBeGreaterThan(0);
    const record = (await (await fetch(`${arena.url}/matches/${start.matchId}`)).json()) as {
      seed: string;
      players: Array<{ botId: string; placement: number }>;
    };
    expect(end.placements).toEqual(record.players.map((p) => ({ botId: p.botId, placement: p.placement })));
    const text = arena.logText();
    expect(text).not.toContain(record.seed);
    for (const b of arena.bots) expect(text).not.toContain(new URL(b.server.url).host);
  });

  it('a match over the wall clock is aborted: logged with its reason, counted, no placements or ratings', async () => {
    const [id] = await slow.tick();
    await slow.idle();
    const m = (await (await fetch(`${slow.url}/matches/${id}`)).json()) as {
      status: string;
      seed: string;
      players: Array<{ placement: unknown; ratingDelta: unknown }>;
    };
    expect(m.status).toBe('aborted');
    expect(m.players.every((p) => p.placement === null && p.ratingDelta === null)).toBe(true);
    expect(await slow.store.listRatings('pioneers')).toEqual([]);
    const after = await metrics(slow);
    expect(after.get('arena_matches_total{status="aborted"}')).toBe(1);
    expect(after.get('arena_matches_running')).toBe(0);
    const abort = slow.logs.find((l) => l.event === 'match.abort');
    expect(abort).toMatchObject({ matchId: id, reason: expect.stringMatching(/wall clock/) });
    expect(slow.logText()).not.toContain(m.seed);
    for (const b of slow.bots) expect(slow.logText()).not.toContain(new URL(b.server.url).host);
  }, 60_000);
});
