// A bot's notes (DecisionResponse.debug) and the timing fields, end to end
// with real WebSocket bots: notes are kept, bounded and marked, never a
// strike; each request says the time bank left and the last round trip; the
// record times every decision.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReplay } from '../../engine/replay';
import { generateKeyPair } from '../../src/keys';
import { DecisionRequestSchema, MatchRecordSchema } from '../../src/protocol';
import { runMatch, type MatchResult } from '../../src/runner';
import { boundDebugNote, DEBUG_NOTE_BYTES } from '../../src/runner/debug-note';
import { legalPlayer, wellBehaved } from '../support/policies';
import { startTestBot, type Behaviour, type TestBot } from '../support/test-bot';

const { privateKey, publicKey } = generateKeyPair();
const opened: TestBot[] = [];
afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
});

const BIG = 'é'.repeat(DEBUG_NOTE_BYTES); // 2 bytes a character: twice the limit

/** Answers legally with a different kind of note on each decision, in turn. */
function noteTaker(): Behaviour {
  const play = legalPlayer();
  const notes: unknown[] = ['plain note', BIG, { plan: 'road', score: 3 }, { big: 'x'.repeat(3000) }, 42, undefined];
  return (ctx) => {
    const action = play(ctx.request.view, ctx.request.kind, ctx.request.matchId);
    const debug = notes[ctx.index % notes.length];
    ctx.socket.send(
      JSON.stringify(debug === undefined ? { id: ctx.request.id, action } : { id: ctx.request.id, action, debug }),
    );
  };
}

describe('decision notes and timing', () => {
  let result: MatchResult;
  let noter: TestBot;
  let others: TestBot[];
  const TIME_BANK = 60_000;

  beforeAll(async () => {
    noter = await startTestBot({ behaviour: noteTaker(), verifyKey: publicKey });
    others = await Promise.all([0, 1, 2].map(() => startTestBot({ behaviour: wellBehaved(), verifyKey: publicKey })));
    opened.push(noter, ...others);
    const entrants = [noter, ...others].map((b, i) => ({
      botId: `b${i}`,
      botName: `b${i}`,
      source: { type: 'ws' as const, url: b.url },
    }));
    result = await runMatch({
      matchId: 'm-notes',
      seed: 'notes-seed',
      entrants,
      platformKey: privateKey,
      deadlineMs: 1000,
      timeBankMs: TIME_BANK,
    });
  });

  it('the match completes, no strikes for notes, and the record (decisions included) is valid', () => {
    expect(result.match.status).toBe('completed');
    expect(MatchRecordSchema.parse(result.match)).toEqual(result.match);
    expect(verifyReplay(result.match.seed!, 4, result.match.replay)).toMatchObject({ ok: true });
    for (const s of result.seats) expect(s.strikeLog).toEqual([]);
  });

  it('records one entry per decision asked, in id order, each timed, the event seq within the replay', () => {
    const decisions = result.match.decisions!;
    expect(decisions.length).toBe(result.seats.reduce((n, s) => n + s.decisions, 0));
    const ids = decisions.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of decisions) {
      expect(d.seq).toBeLessThan(result.match.replay.length);
      expect(Number.isInteger(d.ms)).toBe(true);
    }
    // Entries appear in the order they were applied: seqs never go back.
    for (let i = 1; i < decisions.length; i++) expect(decisions[i].seq).toBeGreaterThanOrEqual(decisions[i - 1].seq);
    for (const s of result.seats) expect(s.slowestMs).toBeCloseTo(Math.max(...s.latenciesMs), 6);
  });

  it("keeps the noting bot's notes on its own decisions only: bounded, marked when cut, odd types dropped", () => {
    const seat = result.seats.find((s) => s.botId === 'b0')!.seat;
    const decisions = result.match.decisions!;
    for (const d of decisions) if (d.seat !== seat) expect(d.debug).toBeUndefined();
    const mine = decisions.filter((d) => d.seat === seat);
    expect(mine.length).toBe(noter.frames.length);
    mine.forEach((d, i) => {
      const want = [
        { debug: 'plain note' },
        { debug: 'é'.repeat(DEBUG_NOTE_BYTES / 2), debugTruncated: true },
        { debug: { plan: 'road', score: 3 } },
        { debug: JSON.stringify({ big: 'x'.repeat(3000) }).slice(0, DEBUG_NOTE_BYTES), debugTruncated: true },
        {},
        {},
      ][i % 6];
      expect({ debug: d.debug, debugTruncated: d.debugTruncated }).toEqual({
        debug: undefined,
        debugTruncated: undefined,
        ...want,
      });
    });
  });

  it('every request says the time bank left (never growing) and the last round trip (absent on the first)', () => {
    for (const b of [noter, ...others]) {
      const frames = b.frames;
      for (const f of frames) expect(DecisionRequestSchema.parse(f)).toEqual(f);
      expect(frames[0].timeBankMs).toBe(TIME_BANK);
      expect(frames[0].lastRttMs).toBeUndefined();
      for (let i = 1; i < frames.length; i++) {
        expect(frames[i].timeBankMs!).toBeLessThanOrEqual(frames[i - 1].timeBankMs!);
        expect(frames[i].lastRttMs).toEqual(expect.any(Number));
      }
    }
    // The record keeps each frame's timing fields as sent (so the frame can be rebuilt exactly).
    const byId = new Map(result.match.decisions!.map((d) => [d.id, d]));
    for (const b of [noter, ...others]) {
      for (const f of b.frames)
        expect({ timeBankMs: byId.get(f.id)!.timeBankMs, lastRttMs: byId.get(f.id)!.lastRttMs }).toEqual({
          timeBankMs: f.timeBankMs,
          lastRttMs: f.lastRttMs,
        });
    }
    // The bank left is what the record's decisions say was spent (rounding aside).
    const seat = result.seats.find((s) => s.botId === 'b0')!.seat;
    const spent = result.match
      .decisions!.filter((d) => d.seat === seat)
      .slice(0, -1)
      .reduce((n, d) => n + d.ms, 0);
    expect(Math.abs(TIME_BANK - noter.frames.at(-1)!.timeBankMs! - spent)).toBeLessThanOrEqual(noter.frames.length);
  });
});

describe('boundDebugNote', () => {
  it('keeps a string or object up to the limit, cuts longer ones at a character boundary, drops other types', () => {
    expect(boundDebugNote('x'.repeat(DEBUG_NOTE_BYTES))).toEqual({ debug: 'x'.repeat(DEBUG_NOTE_BYTES) });
    expect(boundDebugNote('x'.repeat(DEBUG_NOTE_BYTES + 1))).toEqual({
      debug: 'x'.repeat(DEBUG_NOTE_BYTES),
      debugTruncated: true,
    });
    // A 3-byte character straddling the limit goes whole.
    expect(boundDebugNote(`${'x'.repeat(DEBUG_NOTE_BYTES - 1)}€`)).toEqual({
      debug: 'x'.repeat(DEBUG_NOTE_BYTES - 1),
      debugTruncated: true,
    });
    expect(boundDebugNote({ a: [1, 2] })).toEqual({ debug: { a: [1, 2] } });
    for (const v of [1, true, null, [1], undefined]) expect(boundDebugNote(v)).toBeUndefined();
  });
});
