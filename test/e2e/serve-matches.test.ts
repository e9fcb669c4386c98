// The match plane end to end, as an operator and owners run it: `arena
// admin` bootstraps a user and key offline, `arena serve --dev --port 0` runs
// as a real process on a temp data directory, seven example bots (real
// servers that verify the signed handshakes) are registered with `arena bots
// register`, and matchmaking runs on a one-second tick. Three rounds: a table
// of 4 and one of 3, then (one bot paused meanwhile) two more tables without
// it; no bot is in two matches at once; completed matches carry placements and rating deltas;
// the leaderboard is openskill's ratings of those placements; seed and replay
// are hidden while a match runs. Then kill -9 while a match runs: on restart
// it is aborted, the completed ones are intact, and the next tick seats bots.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBot as startStarter } from '../../examples/starter-bot/bot';
import { startBot as startHeuristic } from '../../examples/heuristic-bot/bot';
import type { RunningBot } from '../../examples/starter-bot/server';
import { verifyReplay } from '../../engine/index';
import { displayRating, initialRating, rate } from '../../src/arena/ratings';
import { LeaderboardSchema, MatchPageSchema } from '../../src/client/public';
import { generateKeyPair, writePrivateKeyFile } from '../../src/keys/index';
import { ApiKeyMetaSchema, BotSchema } from '../../src/protocol/api';
import { MatchRecordSchema, type MatchRecord } from '../../src/protocol/match';
import { DEFAULT_MAX_MATCHES } from '../../src/service/scheduler/scheduler';
import { runCli } from '../support/run-cli';
import { startServe, stopServe, type ServeProcess } from '../support/serve-process';

let dir: string;
let dataDir: string;
let env: Record<string, string>;
let serve: ServeProcess | null = null;
const bots: RunningBot[] = [];
const botIds: string[] = [];
let pausedId = '';

/** The service's JSON log lines so far (start-up lines are plain text and skipped). */
function logLines(p: ServeProcess): Array<Record<string, unknown>> {
  return p
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
const events = (p: ServeProcess, event: string) => logLines(p).filter((l) => l.event === event);

/** Waits until the process has logged `n` lines of this event. */
function logged(p: ServeProcess, event: string, n: number) {
  return p.waitFor(new RegExp(`(?:"event":"${event.replace('.', '\\.')}"[\\s\\S]*){${n}}`));
}

async function getMatch(id: string): Promise<MatchRecord> {
  return MatchRecordSchema.parse(await (await fetch(`${serve!.url}/matches/${id}`)).json());
}

async function cli(args: string[]) {
  const r = await runCli(args, { env: { ...env, ARENA_URL: serve!.url } });
  expect(r.code, `arena ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-serve-matches-e2e-'));
  dataDir = join(dir, 'data');
  const keyFile = join(dir, 'ops.pem');
  writePrivateKeyFile(keyFile, generateKeyPair().privateKey);
  env = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config') };
  const admin = (args: string[]) => runCli(['admin', ...args, '--data', dataDir, '--json'], { env });
  expect((await admin(['user', 'add', '--email', 'ops@example.com', '--handle', 'ops'])).code).toBe(0);
  const key = ApiKeyMetaSchema.parse(
    JSON.parse((await admin(['key', 'add', '--user', 'ops@example.com', '--public-key', keyFile])).stdout),
  );
  env = { ...env, ARENA_KEY_ID: key.id, ARENA_KEY_FILE: keyFile };

  // Register with matchmaking off, so the first tick sees all seven at once.
  serve = await startServe(['--dev', '--port', '0', '--tick', '0', '--qualify', 'off', '--data', dataDir], env);
  expect(serve.stderr()).toContain('matchmaking off (--tick 0)');
  for (let i = 0; i < 7; i++) {
    const bot =
      i < 4
        ? await startStarter({ port: 0, platformPublicKey: serve.platformKey })
        : await startHeuristic({ port: 0, platformPublicKey: serve.platformKey });
    bots.push(bot);
    const reg = await cli(['bots', 'register', `${i < 4 ? 'starter' : 'heuristic'}${i}`, bot.url, '--json']);
    botIds.push(BotSchema.parse(JSON.parse(reg.stdout)).id);
  }
  // A proxy the server was not told of is noted in its log.
  await fetch(`${serve.url}/health`, { headers: { 'x-forwarded-for': '203.0.113.5' } });
  await logged(serve, 'proxy.untrusted', 1);
  expect((await stopServe(serve)).code).toBe(0);
  // One owner (ops) registers every bot: rated tables need --same-owner allow.
  serve = await startServe(
    [
      '--dev',
      '--port',
      '0',
      '--tick',
      '1',
      '--match-timeout',
      '300',
      '--same-owner',
      'allow',
      '--qualify',
      'off',
      '--data',
      dataDir,
      '--trust-proxy',
    ],
    env,
  );
  // The CLI names the scheduler's default without loading it.
  expect(serve.stderr()).toContain(
    `matchmaking every 1 s, at most ${DEFAULT_MAX_MATCHES} matches at once; a match is aborted after 300 s; bots of one owner may share a table, rated (--same-owner allow)`,
  );
  expect(serve.stderr()).toContain('behind a proxy (--trust-proxy)');
}, 120_000);

afterAll(async () => {
  if (serve) await stopServe(serve);
  for (const b of bots) await b.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('arena serve: matchmaking, records, leaderboard, restart', () => {
  let round1: string[] = [];

  it('the first tick seats all seven: a table of 4 and a table of 3, no bot twice; seed and replay hidden while they run', async () => {
    await logged(serve!, 'match.start', 2);
    const starts = events(serve!, 'match.start');
    round1 = starts.map((l) => l.matchId as string);
    expect(starts.map((l) => (l.bots as string[]).length).sort()).toEqual([3, 4]);
    expect(new Set(starts.flatMap((l) => l.bots as string[]))).toEqual(new Set(botIds));
    // While they run (checked as soon as the start is logged; a match takes seconds).
    let hidden = 0;
    for (const id of round1) {
      const m = await getMatch(id);
      if (m.status !== 'running') continue;
      expect(m.seed).toBeNull();
      expect(m.replay).toEqual([]);
      expect(m.players.every((p) => p.placement === null && p.ratingDelta === null)).toBe(true);
      hidden++;
    }
    expect(hidden).toBeGreaterThan(0);
    const running = MatchPageSchema.parse(
      JSON.parse((await cli(['matches', 'list', '--status', 'running', '--json'])).stdout),
    );
    for (const m of running.matches) expect(round1).toContain(m.id);
    // Paused now, before round 1 ends: it must never be seated again.
    pausedId = botIds[2];
    await cli(['bots', 'pause', pausedId]);
  }, 60_000);

  it('both complete with placements (1224 ranking) and rating deltas, seed and a replay that verifies', async () => {
    await logged(serve!, 'match.end', 2);
    for (const id of round1) {
      const m = await getMatch(id);
      expect(m.status).toBe('completed');
      expect(m.seed).toMatch(/^[0-9a-f]{32,}$/);
      const check = verifyReplay(m.seed!, m.seatCount as 3 | 4, m.replay);
      expect(check.ok).toBe(true);
      const placements = m.players.map((p) => p.placement!);
      expect(check.ok && check.outcome!.placements).toEqual(
        [...m.players].sort((a, b) => a.seat - b.seat).map((p) => p.placement),
      );
      expect(placements).toContain(1);
      expect(m.players.every((p) => typeof p.ratingDelta === 'number')).toBe(true);
      const end = events(serve!, 'match.end').find((l) => l.matchId === id)!;
      expect(end.placements).toEqual(m.players.map((p) => ({ botId: p.botId, placement: p.placement })));
    }
  }, 120_000);

  it('the leaderboard ranks all seven by the openskill ratings of those placements, owner handle, 1 decimal', async () => {
    const board = LeaderboardSchema.parse(JSON.parse((await cli(['leaderboard', '--json'])).stdout));
    const expected = new Map<string, number>();
    for (const id of round1) {
      const m = await getMatch(id);
      const rated = rate(
        m.players.map((p) => ({ id: p.botId, ...initialRating() })),
        m.players.map((p) => p.placement!),
      );
      for (const r of rated) expected.set(r.id, r.rating);
      for (const p of m.players) expect(p.ratingDelta).toBe(rated.find((r) => r.id === p.botId)!.ratingDelta);
    }
    expect(board.rows.map((r) => r.botId).sort()).toEqual([...botIds].sort());
    for (const r of board.rows) {
      expect(r.rating).toBe(expected.get(r.botId));
      expect(r).toMatchObject({ owner: 'ops', gamesPlayed: 1 });
    }
    // Sorted by rating; equal ratings share a rank (1224).
    board.rows.forEach((r, i) => {
      if (i === 0) return expect(r.rank).toBe(1);
      const prev = board.rows[i - 1];
      expect(r.rating).toBeLessThanOrEqual(prev.rating);
      expect(r.rank).toBe(r.rating === prev.rating ? prev.rank : i + 1);
    });
    expect(displayRating(initialRating())).toBe(0);
  });

  it('later ticks seat the six active bots again (tables of 4, or 3 when exactly 3 are idle), never the paused bot, never a bot twice at once', async () => {
    // Which bots are idle at a tick depends on which match ended first; every table still has 3 or 4 seats.
    await logged(serve!, 'match.start', 4);
    const starts = events(serve!, 'match.start');
    for (const l of starts.slice(2)) {
      expect([3, 4]).toContain((l.bots as string[]).length);
      expect(l.bots).not.toContain(pausedId);
    }
    // Overlap check over every match so far: a bot's matches never run at the same time.
    await logged(serve!, 'match.end', 3);
    const all = await Promise.all(starts.map((l) => getMatch(l.matchId as string)));
    const spans = new Map<string, Array<[number, number]>>();
    for (const m of all) {
      for (const p of m.players) {
        const list = spans.get(p.botId) ?? [];
        list.push([Date.parse(m.startedAt), m.endedAt ? Date.parse(m.endedAt) : Infinity]);
        spans.set(p.botId, list);
      }
    }
    for (const [, list] of spans) {
      list.sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < list.length; i++) expect(list[i][0]).toBeGreaterThanOrEqual(list[i - 1][1]);
    }
  }, 120_000);

  it('with --trust-proxy, a request through a proxy is not noted as one the server was not told of', async () => {
    const res = await fetch(`${serve!.url}/health`, { headers: { 'x-forwarded-for': '203.0.113.5' } });
    const requestId = res.headers.get('x-request-id')!;
    // The note would come before the request's own line.
    await serve!.waitFor(new RegExp(requestId));
    expect(serve!.stderr()).not.toContain('proxy.untrusted');
  });

  it('kill -9 while a match runs: on restart it is aborted, completed ones are intact, and the next tick seats bots again', async () => {
    // Wait for a round to be under way, then kill the process outright.
    const startsBefore = events(serve!, 'match.start').length;
    await logged(serve!, 'match.start', startsBefore + 1);
    const started = events(serve!, 'match.start').map((l) => l.matchId as string);
    const ended = new Set(
      [...events(serve!, 'match.end'), ...events(serve!, 'match.abort')].map((l) => l.matchId as string),
    );
    const runningIds = started.filter((id) => !ended.has(id));
    const completedBefore = await Promise.all(started.filter((id) => ended.has(id)).map(getMatch));
    const boardBefore = JSON.parse((await cli(['leaderboard', '--json'])).stdout);
    expect(runningIds.length).toBeGreaterThan(0);
    serve!.child.kill('SIGKILL');
    expect((await serve!.exited).signal).toBe('SIGKILL');

    serve = await startServe(
      ['--dev', '--port', '0', '--tick', '1', '--same-owner', 'allow', '--qualify', 'off', '--data', dataDir],
      env,
    );
    for (const id of runningIds) {
      const m = await getMatch(id);
      // Killed mid-match: aborted with no placements; or it had just finished before the kill.
      if (m.status === 'completed') continue;
      expect(m.status).toBe('aborted');
      expect(m.players.every((p) => p.placement === null && p.ratingDelta === null)).toBe(true);
      expect(events(serve, 'match.abort').map((l) => l.matchId)).toContain(id);
    }
    expect(events(serve, 'match.abort').length).toBeGreaterThan(0);
    for (const before of completedBefore) expect(await getMatch(before.id)).toEqual(before);
    // Aborted matches changed no rating.
    const boardAfter = JSON.parse((await cli(['leaderboard', '--json'])).stdout);
    const finishedLate = (await Promise.all(runningIds.map(getMatch))).some((m) => m.status === 'completed');
    if (!finishedLate) expect(boardAfter).toEqual(boardBefore);
    // Matchmaking goes on in the new process: all six active bots are idle, so a table of 4 (2 wait).
    await logged(serve, 'match.start', 1);
    const next = events(serve, 'match.start')[0];
    expect(next.bots).not.toContain(pausedId);
    expect((next.bots as string[]).length).toBe(4);
  }, 120_000);
});
