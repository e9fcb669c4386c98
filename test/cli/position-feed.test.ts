// `arena position` and `arena replay --feed` in-process, on a record that
// `arena play --out` wrote, with the example bots running on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/run-cli';
import { startBot as startHeuristic } from '../../examples/heuristic-bot/bot';
import { startBot as startStarter } from '../../examples/starter-bot/bot';
import type { RunningBot } from '../../examples/starter-bot/server';

const home = mkdtempSync(join(tmpdir(), 'arena-position-'));
const env = { ARENA_CONFIG_DIR: join(home, 'config') };
const out = join(home, 'runs');
let heuristic: RunningBot;
let starter: RunningBot;
let record: {
  id: string;
  players: Array<{ seat: number; botName: string }>;
  replay: Array<{ kind: string; seat?: number; data: { action?: unknown } }>;
  decisions?: Array<{ id: number; timeBankMs?: number; lastRttMs?: number }>;
};
let seat: number;

beforeAll(async () => {
  heuristic = await startHeuristic({ port: 0 });
  starter = await startStarter({ port: 0 });
  const r = await runCli(
    ['play', `h=${heuristic.url}`, 'builtin:greedy', 'builtin:random', '--games', '1', '--seed', 'pos', '--out', out],
    { env },
  );
  expect(r.code).toBe(0);
  const file = readdirSync(out).find((f) => f.startsWith('m-'))!;
  record = JSON.parse(readFileSync(join(out, file), 'utf8'));
  seat = record.players.find((p) => p.botName === 'h')!.seat;
});
afterAll(async () => {
  await Promise.all([heuristic.close(), starter.close()]);
  rmSync(home, { recursive: true, force: true });
});

/** 1-based number of the seat's n-th action event. */
const actionEvent = (n: number) =>
  record.replay.map((e, i) => ({ e, i })).filter(({ e }) => e.kind === 'action' && e.seat === seat)[n].i + 1;

describe('arena position', () => {
  it('prints the frame the seat got as one line of JSON, and what it answered on stderr', async () => {
    const event = actionEvent(5);
    const r = await runCli(['position', out, '--event', String(event)], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const frame = JSON.parse(r.stdout);
    expect(Object.keys(frame)).toEqual([
      'id',
      'matchId',
      'game',
      'seat',
      'kind',
      'deadlineMs',
      'timeBankMs',
      'lastRttMs',
      'view',
    ]);
    expect(frame).toMatchObject({ matchId: record.id, game: 'pioneers', seat, deadlineMs: 5000 });
    // The time bank and round trip as the record's decisions say they were sent.
    const sent = record.decisions!.find((d) => d.id === frame.id)!;
    expect([frame.timeBankMs, frame.lastRttMs]).toEqual([sent.timeBankMs, sent.lastRttMs]);
    expect(frame.view.seat).toBe(seat);
    // Byte for byte what JSON.stringify writes (the runner's frames are exactly that).
    expect(r.stdout.trim()).toBe(JSON.stringify(frame));
    expect(r.stderr).toContain(
      `seat ${seat}, decision ${frame.id} (${frame.kind}, turn ${frame.view.turn}), answered at event ${event}: ${JSON.stringify(record.replay[event - 1].data.action)}`,
    );
  });

  it('--json gives the frame parsed, with the decision, the recorded answer and how exact it is', async () => {
    const event = actionEvent(0);
    const r = await runCli(['position', out, '--event', String(event), '--json'], { env });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual([
      'matchId',
      'event',
      'seat',
      'id',
      'kind',
      'turn',
      'deadlineExact',
      'notes',
      'recordedAnswer',
      'frame',
    ]);
    expect(doc).toMatchObject({
      matchId: record.id,
      event,
      seat,
      kind: 'setup',
      turn: 0,
      deadlineExact: true,
      notes: [],
    });
    expect(doc.recordedAnswer).toEqual({ type: 'action', action: record.replay[event - 1].data.action });
    expect(doc.frame.id).toBe(doc.id);
  });

  it("an event that answers nothing needs --seat; with it, the seat's next request", async () => {
    const bare = await runCli(['position', out, '--event', '1'], { env });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('event 1 (start) is not the answer to a request; give --seat S');
    const r = await runCli(['position', out, '--event', '1', '--seat', String(seat), '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).event).toBe(actionEvent(0));
  });

  it('refuses an event past the end (exit 2)', async () => {
    const r = await runCli(['position', out, '--event', String(record.replay.length + 1)], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the record has ${record.replay.length} events`);
  });
});

describe('arena replay --feed', () => {
  it('the same bot agrees on every decision: exit 0', async () => {
    const r = await runCli(['replay', out, '--feed', heuristic.url, '--seat', String(seat)], { env });
    expect(r.stderr).toMatch(new RegExp(`sending seat ${seat}'s (\\d+) recorded requests of ${record.id} to the bot`));
    const n = Number(/seat \d's (\d+) recorded/.exec(r.stderr)![1]);
    expect(r.stdout).toBe(`${n} decisions: ${n} agree, 0 differ\n`);
    expect(r.code).toBe(0);
  });

  it('another bot: the first difference and the counts, exit 1', async () => {
    const r = await runCli(['replay', out, '--feed', starter.url, '--seat', String(seat)], { env });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^first difference: turn \d+, (setup|turn|discard|bandit|trade), decision \d+ \(event \d+\): another action$/,
    );
    expect(lines[1]).toMatch(/^ {2}recorded: \{.*\}$/);
    expect(lines[2]).toMatch(/^ {2}new: {6}\{.*\}$/);
    expect(lines[1].slice(12)).not.toBe(lines[2].slice(12));
    expect(lines[3]).toMatch(/^\d+ decisions: \d+ agree, [1-9]\d* differ$/);
  });

  it('--from-turn starts later in the match', async () => {
    const all = await runCli(['replay', out, '--feed', heuristic.url, '--seat', String(seat)], { env });
    const later = await runCli(['replay', out, '--feed', heuristic.url, '--seat', String(seat), '--from-turn', '10'], {
      env,
    });
    expect(later.code).toBe(0);
    const count = (s: string) => Number(/^(\d+) decisions/.exec(s)![1]);
    expect(count(later.stdout)).toBeLessThan(count(all.stdout));
    expect(later.stderr).toContain('from turn 10');
  });

  it('a bot that is not there: a clear error, exit 1', async () => {
    const r = await runCli(['replay', out, '--feed', 'http://127.0.0.1:9', '--seat', String(seat)], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the bot gave no answer to the first request');
    expect(r.stdout).toBe('');
  });

  it('usage errors: --feed without --seat, --seat without --feed (exit 2)', async () => {
    const noSeat = await runCli(['replay', out, '--feed', heuristic.url], { env });
    expect(noSeat.code).toBe(2);
    expect(noSeat.stderr).toContain('--feed needs --seat S');
    const noFeed = await runCli(['replay', out, '--seat', '1'], { env });
    expect(noFeed.code).toBe(2);
    expect(noFeed.stderr).toContain('--seat goes with --feed');
  });
});
