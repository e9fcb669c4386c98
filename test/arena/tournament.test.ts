// End to end: real example bots on 127.0.0.1, the real runner and engine,
// real files in a temp dir.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rate, rating, type Rating } from 'openskill';
import { verifyReplay, type GameEvent } from '../../engine/index';
import { parseBotArgs } from '../../src/arena/bots';
import { displayRating } from '../../src/arena/ratings';
import { gameSeed } from '../../src/arena/seeds';
import { ResultWriteError, runTournament } from '../../src/arena/tournament';
import { runMatch } from '../../src/runner/index';
import { drawTables } from '../../src/arena/schedule';
import type { TournamentSummary } from '../../src/arena/summary';
import { generateKeyPair } from '../../src/keys/index';
import { MatchRecordSchema, type MatchRecord } from '../../src/protocol/index';
import { startScriptedBot } from '../probe/scripted-bot';
import { startBot as startStarter } from '../../examples/starter-bot/bot';
import { startBot as startHeuristic } from '../../examples/heuristic-bot/bot';
import type { RunningBot } from '../../examples/starter-bot/server';

const { privateKey } = generateKeyPair();
// The example bots, in this process (tests may import examples; the arena never does).
let demo: { args: string[]; bots: RunningBot[] };
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'arena-play-'));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  const bots = [await startStarter({ port: 0 }), await startHeuristic({ port: 0 })];
  demo = { bots, args: [`starter=${bots[0].url}`, `heuristic=${bots[1].url}`] };
});
afterAll(async () => {
  await Promise.all(demo.bots.map((b) => b.close()));
});
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function readRecords(dir: string): MatchRecord[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith('m-') && f.endsWith('.json'))
    .sort()
    .map((f) => MatchRecordSchema.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))));
}

describe('runTournament with the example bots', () => {
  let out: string;
  let summary: TournamentSummary;
  const bots = () => parseBotArgs(['builtin:random', ...demo.args.slice(0, 2), 'builtin:random']);

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'arena-play-'));
    summary = await runTournament({
      bots: bots(),
      games: 4,
      seats: 4,
      seed: 'e2e',
      concurrency: 2,
      platformKey: privateKey,
      outDir: out,
    });
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('completes every game with no strikes for well-behaved bots', () => {
    expect(summary).toMatchObject({ games: 4, gamesPlanned: 4, aborted: 0, interrupted: false, seed: 'e2e', seats: 4 });
    expect(summary.matches.map((m) => m.game)).toEqual([1, 2, 3, 4]);
    for (const m of summary.matches) {
      expect(['win', 'cap']).toContain(m.ended);
      expect(m.turns).toBeGreaterThan(0);
      expect(m.id.endsWith(String(m.game).padStart(4, '0'))).toBe(true);
    }
    for (const b of summary.bots) {
      expect(b.games).toBe(4);
      expect(Object.values(b.strikes).every((n) => n === 0)).toBe(true);
      expect(b.avgPlacement).toBeGreaterThanOrEqual(1);
    }
    // The URL bots answered real decisions over sockets.
    const starter = summary.bots.find((b) => b.name === 'starter')!;
    expect(starter.source).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(starter.latencyMs).not.toBeNull();
  });

  it('writes each match in the spec Match shape, whose replay verifies from its seed', () => {
    const records = readRecords(out);
    expect(records.map((r) => r.id)).toEqual(summary.matches.map((m) => m.id));
    for (const r of records) {
      expect(r.status).toBe('completed');
      expect(r.seed).toBe(gameSeed('e2e', Number(r.id.slice(-4))));
      expect(r.rulesVersion).toBe(summary.rulesVersion);
      const check = verifyReplay(r.seed!, r.seatCount as 3 | 4, r.replay as GameEvent[]);
      expect(check).toMatchObject({ ok: true });
      for (const p of r.players) expect(typeof p.ratingDelta).toBe('number');
    }
    const onDisk = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(onDisk).toEqual(JSON.parse(JSON.stringify(summary)));
  });

  it("seats each bot where the drawn table says, through the engine's seed shuffle", () => {
    const tables = drawTables(4, 4, 4, 'e2e');
    const ids = bots().map((b) => b.id);
    readRecords(out).forEach((r, g) => {
      const bySeat = [...r.players].sort((a, b) => a.seat - b.seat).map((p) => p.botId);
      expect(bySeat).toEqual(tables[g].map((i) => ids[i]));
    });
  });

  it('rates matches in game order with openskill, and ratingDelta is shown-after minus shown-before', () => {
    const ratings = new Map<string, Rating>();
    for (const r of readRecords(out)) {
      const before = r.players.map((p) => ratings.get(p.botId) ?? rating());
      const after = rate(
        before.map((x) => [x]),
        { rank: r.players.map((p) => p.placement!) },
      );
      r.players.forEach((p, i) => {
        expect(p.ratingDelta).toBeCloseTo(displayRating(after[i][0]) - displayRating(before[i]), 6);
        ratings.set(p.botId, after[i][0]);
      });
    }
    for (const b of summary.bots) expect(b.rating).toBe(displayRating(ratings.get(b.name)!));
    // Best rating first.
    const shown = summary.bots.map((b) => b.rating);
    expect([...shown].sort((a, b) => b - a)).toEqual(shown);
  });

  it('reproduces the same tournament from the same seed', async () => {
    const again = await runTournament({
      bots: parseBotArgs(['builtin:random', 'builtin:random', 'builtin:random']),
      games: 3,
      seats: 3,
      seed: 'same',
      platformKey: privateKey,
    });
    const twice = await runTournament({
      bots: parseBotArgs(['builtin:random', 'builtin:random', 'builtin:random']),
      games: 3,
      seats: 3,
      seed: 'same',
      platformKey: privateKey,
      concurrency: 3,
    });
    const strip = (s: TournamentSummary) => s.matches.map((m) => ({ seed: m.seed, players: m.players }));
    expect(strip(twice)).toEqual(strip(again));
    // Everything but the measured latencies is identical, whatever the concurrency.
    const noLatency = (s: TournamentSummary) =>
      s.bots.map(({ latencyMs: _ignored, slowestMs: _slowest, ...rest }) => rest);
    expect(noLatency(twice)).toEqual(noLatency(again));
  });
});

describe('interrupting a tournament', () => {
  it('aborts the running match, records it as aborted without rating it, and starts nothing new', async () => {
    const out = tempDir();
    const controller = new AbortController();
    let seenInGame2 = 0;
    const summary = await runTournament({
      bots: parseBotArgs(['builtin:random', 'builtin:random', 'builtin:random']),
      games: 5,
      seats: 3,
      seed: 'stop',
      concurrency: 1,
      platformKey: privateKey,
      outDir: out,
      signal: controller.signal,
      onMatchEvent: (matchId) => {
        if (matchId.endsWith('-0002') && ++seenInGame2 === 30) controller.abort();
      },
    });
    expect(summary.interrupted).toBe(true);
    expect(summary.matches.map((m) => m.status)).toEqual(['completed', 'aborted']);
    expect(summary).toMatchObject({ games: 1, aborted: 1, gamesPlanned: 5 });
    const [first, second] = readRecords(out);
    expect(second.status).toBe('aborted');
    expect(second.players.every((p) => p.placement === null && p.ratingDelta === null)).toBe(true);
    // Ratings are exactly those after game 1 alone.
    const after = rate(
      first.players.map(() => [rating()]),
      { rank: first.players.map((p) => p.placement!) },
    );
    first.players.forEach((p, i) => {
      expect(summary.bots.find((b) => b.name === p.botId)!.rating).toBe(displayRating(after[i][0]));
    });
  });
});

describe('a failing match (a bug, not a bot)', () => {
  it('stops the tournament and rejects with the error, after saving what finished', async () => {
    const out = tempDir();
    const boom = new Error('runner bug');
    const run = runTournament({
      bots: parseBotArgs(['builtin:random', 'builtin:random', 'builtin:random']),
      games: 4,
      seats: 3,
      seed: 'fail',
      concurrency: 1,
      platformKey: privateKey,
      outDir: out,
      playMatch: async (o) => {
        if (o.seed === gameSeed('fail', 2)) throw boom;
        return runMatch(o);
      },
    });
    await expect(run).rejects.toBe(boom);
    expect(readRecords(out).map((r) => r.seed)).toEqual([gameSeed('fail', 1)]);
  });
});

describe('a result file that cannot be written (disk full, permissions)', () => {
  it('stops the tournament; the error carries the summary of the games played and how many files were written', async () => {
    const parent = tempDir();
    const out = join(parent, 'out');
    const run = runTournament({
      bots: parseBotArgs(['builtin:random', 'builtin:random', 'builtin:random']),
      games: 6,
      seats: 3,
      seed: 'full',
      concurrency: 1,
      platformKey: privateKey,
      outDir: out,
      playMatch: async (o) => {
        if (o.seed === gameSeed('full', 3)) {
          // Games 1 and 2 are on disk; then the directory goes, and a file takes its place.
          while (readdirSync(out).filter((f) => f.endsWith('.json')).length < 2)
            await new Promise((r) => setTimeout(r, 5));
          renameSync(out, join(parent, 'moved'));
          writeFileSync(out, '');
        }
        return runMatch(o);
      },
    });
    const err = await run.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ResultWriteError);
    const failed = err as ResultWriteError;
    expect(failed.message).toMatch(
      new RegExp(`^cannot write ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/m-.*-0003\\.json: `),
    );
    expect(failed.written).toBe(2);
    // Game 3 was played and is reported; the game under way when its write failed is aborted, and no more start.
    const statuses = failed.summary.matches.map((m) => m.status);
    expect(statuses.slice(0, 3)).toEqual(['completed', 'completed', 'completed']);
    expect(statuses.length).toBeLessThan(6);
    expect(failed.summary).toMatchObject({
      games: statuses.filter((x) => x === 'completed').length,
      gamesPlanned: 6,
      interrupted: false,
    });
    expect(readdirSync(join(parent, 'moved')).filter((f) => f.endsWith('.json'))).toHaveLength(2);
  });
});

describe('a misbehaving bot in a tournament', () => {
  it('shows its strikes by reason and its resignations, while every game completes', async () => {
    const garbage = await startScriptedBot(() => ({ text: '{"not": "an answer"' }));
    try {
      const summary = await runTournament({
        bots: parseBotArgs([`garbage=${garbage.url}`, demo.args[1], 'builtin:random']),
        games: 2,
        seats: 3,
        seed: 'bad',
        platformKey: privateKey,
      });
      expect(summary).toMatchObject({ games: 2, aborted: 0 });
      const row = (name: string) => summary.bots.find((b) => b.name === name)!;
      expect(row('garbage').strikes).toEqual({ late: 0, malformed: 6, oversize: 0, dropped: 0, illegal: 0 });
      expect(row('garbage').resigned).toBe(2);
      expect(row('garbage').avgPlacement).toBe(3); // a resigned seat places after every working one
      expect(row('heuristic').strikes).toEqual({ late: 0, malformed: 0, oversize: 0, dropped: 0, illegal: 0 });
      expect(row('heuristic').resigned).toBe(0);
    } finally {
      await garbage.close();
    }
  });
});
