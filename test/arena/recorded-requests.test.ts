// Rebuilding a record's request frames (arena position) and feeding a seat's
// requests back to a running bot (arena replay --feed): the example bots on
// 127.0.0.1, the real runner, real sockets with signed handshakes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedSeat } from '../../src/arena/feed';
import { rebuildRequests, requestAt } from '../../src/arena/recorded-requests';
import { generateKeyPair } from '../../src/keys/index';
import { publicKeyRaw } from '../../src/keys/raw';
import { runMatch, type MatchResult } from '../../src/runner/index';
import type { MatchRecord } from '../../src/protocol/index';
import { decide as heuristicDecide, startBot as startHeuristic } from '../../examples/heuristic-bot/bot';
import { startBot as startStarter } from '../../examples/starter-bot/bot';
import { serveBot, type RunningBot } from '../../examples/starter-bot/server';
import { startScriptedBot } from '../probe/scripted-bot';

const { privateKey, publicKey } = generateKeyPair();
const platformPublicKey = Buffer.from(publicKeyRaw(publicKey)).toString('base64');
const bots: Array<Pick<RunningBot, 'close'>> = [];
/** The frames the recording bot received, as text, in order. */
const received: string[] = [];
let result: MatchResult;
let record: MatchRecord;
let wsSeat: number;

beforeAll(async () => {
  // The heuristic bot's decisions, behind a server that keeps every request it gets (verifying handshakes, as a careful
  // bot does).
  const recording = await serveBot(
    (request, memo) => {
      received.push(JSON.stringify(request));
      return heuristicDecide(request, memo);
    },
    { platformPublicKey },
  );
  bots.push(recording);
  result = await runMatch({
    matchId: 'm-feed-1',
    seed: 'feed-seed',
    platformKey: privateKey,
    entrants: [
      { botId: 'h', botName: 'heuristic', source: { type: 'ws', url: recording.url } },
      { botId: 'g', botName: 'greedy', source: { type: 'builtin', bot: 'greedy' } },
      { botId: 'r', botName: 'random', source: { type: 'builtin', bot: 'random' } },
    ],
  });
  record = result.match;
  wsSeat = record.players.find((p) => p.botId === 'h')!.seat;
});
afterAll(async () => {
  await Promise.all(bots.map((b) => b.close()));
});

describe('rebuildRequests', () => {
  it('rebuilds every frame the socket seat got, byte for byte, in order', () => {
    expect(record.status).toBe('completed');
    const rebuilt = rebuildRequests(record, { deadlineMs: 5000, timeBankMs: 120_000, seat: wsSeat });
    expect(rebuilt.requests.length).toBe(received.length);
    expect(rebuilt.requests.map((r) => r.frame.toString('utf8'))).toEqual(received);
    expect(rebuilt.deadlineExact[wsSeat]).toBe(true);
    expect(rebuilt.notes).toEqual([]);
    // Each one knows the replay event that answered it, and that answer.
    for (const r of rebuilt.requests) {
      const ev = record.replay[r.event - 1];
      expect(ev).toMatchObject({ kind: 'action', seat: wsSeat });
      expect(r.answer).toEqual({ type: 'action', action: (ev.data as { action: unknown }).action });
    }
  });

  it("finds the request of an event: the one it answered, or the seat's next", () => {
    const { requests } = rebuildRequests(record, { deadlineMs: 5000, timeBankMs: 120_000 });
    const mine = requests.filter((r) => r.seat === wsSeat);
    const tenth = mine[9];
    expect(requestAt(requests, tenth.event)).toBe(tenth);
    // An event that is not this seat's answer: the seat's first request answered at or after it.
    expect(requestAt(requests, tenth.event - 1, wsSeat)?.event).toBeLessThanOrEqual(tenth.event);
    expect(requestAt(requests, 1, wsSeat)).toBe(mine[0]);
    expect(requestAt(requests, record.replay.length + 5, wsSeat)).toBeNull();
  });

  it("frames carry timeBankMs and lastRttMs as sent, from the record's decisions, whatever bank the caller assumes", () => {
    const frames = rebuildRequests(record, { deadlineMs: 5000, timeBankMs: 1, seat: wsSeat }).requests.map((r) =>
      r.frame.toString('utf8'),
    );
    expect(frames).toEqual(received);
    expect(JSON.parse(frames[1])).toMatchObject({ timeBankMs: expect.any(Number), lastRttMs: expect.any(Number) });
  });

  it('says a deadline is not exact when the seat may have run its bank below it (a record without decisions)', () => {
    // An older record, without per-decision timing.
    const tight = rebuildRequests(
      { ...record, decisions: undefined },
      { deadlineMs: 5000, timeBankMs: 5000, seat: wsSeat },
    );
    expect(tight.deadlineExact[wsSeat]).toBe(false);
    expect(tight.notes.join('\n')).toMatch(new RegExp(`seat ${wsSeat} used \\d+ ms of its 5000 ms bank`));
  });

  it('refuses a record that does not replay', () => {
    const bad = { ...record, seed: 'another-seed' };
    expect(() => rebuildRequests(bad, { deadlineMs: 5000, timeBankMs: 120_000 })).toThrow(/does not replay/);
  });
});

describe('feedSeat', () => {
  it('fed to the same (deterministic) bot, every decision agrees', async () => {
    const bot = await startHeuristic({ port: 0, platformPublicKey });
    bots.push(bot);
    const { requests } = rebuildRequests(record, {
      deadlineMs: 5000,
      timeBankMs: 120_000,
      seat: wsSeat,
      keepGames: true,
    });
    const report = await feedSeat(requests, {
      url: bot.url,
      matchId: record.id,
      platformKey: privateKey,
      waitMs: 5000,
    });
    expect(report).toEqual({
      decisions: requests.length,
      agreed: requests.length,
      differed: 0,
      skipped: 0,
      firstDifference: null,
    });
  });

  it('fed to the starter bot, it reports the first difference', async () => {
    const bot = await startStarter({ port: 0 });
    bots.push(bot);
    const { requests } = rebuildRequests(record, {
      deadlineMs: 5000,
      timeBankMs: 120_000,
      seat: wsSeat,
      keepGames: true,
    });
    const report = await feedSeat(requests, {
      url: bot.url,
      matchId: record.id,
      platformKey: privateKey,
      waitMs: 5000,
    });
    expect(report.differed).toBeGreaterThan(0);
    expect(report.decisions).toBe(requests.length);
    const first = report.firstDifference!;
    expect(first.result).toBe('differ');
    expect(first.answer.type).toBe('action');
    expect(first.request.answer.type).toBe('action');
    // Everything before the first difference agreed.
    const before = requests.indexOf(first.request);
    expect(report.agreed).toBeGreaterThanOrEqual(before);
  });
});

describe('rebuildRequests with strikes and a resignation', () => {
  it('keeps decision ids and frames exact after a seat is struck three times and resigns; feeding the same bot agrees', async () => {
    const seen: string[] = [];
    let asked = 0;
    // Strikes on its first three decisions: illegal, malformed, late; then it has resigned and gets nothing.
    const striker = await startScriptedBot((req) => {
      seen.push(JSON.stringify(req));
      asked++;
      if (asked % 3 === 1) return { text: JSON.stringify({ id: req.id, action: { settlement: 999, road: 999 } }) };
      if (asked % 3 === 2) return { text: 'not json' };
      return null;
    });
    const heard: string[] = [];
    const recording = await serveBot((request, memo) => {
      heard.push(JSON.stringify(request));
      return heuristicDecide(request, memo);
    });
    bots.push(striker, recording);
    const r = await runMatch({
      matchId: 'm-feed-2',
      seed: 'strike-seed',
      platformKey: privateKey,
      deadlineMs: 1000,
      entrants: [
        { botId: 's', botName: 'striker', source: { type: 'ws', url: striker.url } },
        { botId: 'h', botName: 'heuristic', source: { type: 'ws', url: recording.url } },
        { botId: 'g', botName: 'greedy', source: { type: 'builtin', bot: 'greedy' } },
      ],
    });
    const rec = r.match;
    const sSeat = rec.players.find((p) => p.botId === 's')!.seat;
    const hSeat = rec.players.find((p) => p.botId === 'h')!.seat;
    expect(r.seats[sSeat].resigned).toBe(true);

    const struck = rebuildRequests(rec, { deadlineMs: 1000, timeBankMs: 120_000, seat: sSeat, keepGames: true });
    expect(struck.requests.map((q) => q.frame.toString('utf8'))).toEqual(seen);
    expect(struck.requests.map((q) => q.answer)).toEqual([
      { type: 'strike', reason: 'illegal', code: expect.any(String) },
      { type: 'strike', reason: 'malformed' },
      { type: 'strike', reason: 'late' },
    ]);
    // The other socket seat's frames stay exact, ids included, though the resigned seat's decisions are no longer sent.
    const other = rebuildRequests(rec, { deadlineMs: 1000, timeBankMs: 120_000, seat: hSeat });
    expect(other.requests.map((q) => q.frame.toString('utf8'))).toEqual(heard);

    asked = 0;
    const report = await feedSeat(struck.requests, {
      url: striker.url,
      matchId: rec.id,
      platformKey: privateKey,
      waitMs: 300,
    });
    expect(report).toMatchObject({ decisions: 3, agreed: 2, differed: 0, skipped: 1, firstDifference: null });
  });
});
