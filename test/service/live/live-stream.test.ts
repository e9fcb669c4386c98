// Live spectating on a real service: bots that make illegal moves play, a
// viewer follows /matches/{id}/live from the first event to `end`, and the
// stream is checked against the match's own replay once seed and replay are
// public. Nothing in it may reveal a hand, a drawn card, a stolen resource,
// the seed, a bot URL or an illegal answer's rejection code or message, and
// every `view` must be exactly the engine's publicView at that event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_RECENT_EVENTS } from '../../../src/service/live/hub';
import { gameEvents, newGame, publicEvent, publicView, stepReplay } from '../../../engine/index';
import type { GameEvent, PublicView } from '../../../engine/types';
import { parseLiveMessage } from '../../../src/client/live';
import { SseParser } from '../../../src/client/sse';
import { PublicMatchEventSchema } from '../../../src/protocol/events';
import type { LiveMessage } from '../../../src/protocol/live';
import { MatchRecordSchema, type MatchRecord } from '../../../src/protocol/match';
import { PublicViewSchema } from '../../../src/protocol/view';
import { illegalBot, wellBehaved } from '../../support/policies';
import type { Behaviour } from '../../support/test-bot';
import { startArena, type Arena } from '../../support/serve-arena';

let arena: Arena;
let matchId: string;
/** The raw bytes of a stream opened before the first decision, and of one opened mid-match. */
let raw = '';
let lateRaw = '';
let match: MatchRecord;

/** Reads a whole SSE response (the server closes it after `end`). */
async function readStream(url: string, onChunk?: (text: string) => void): Promise<string> {
  const res = await fetch(url, { headers: { accept: 'text/event-stream' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    onChunk?.(text);
  }
  return text;
}

function messages(text: string): LiveMessage[] {
  const out: LiveMessage[] = [];
  const p = new SseParser((e) => {
    const m = parseLiveMessage(e);
    if (m) out.push(m);
  });
  p.push(text);
  p.end();
  return out;
}

/** publicView after each event index that ends an input, as the engine computes it from seed and replay. */
function viewsBySeq(m: MatchRecord): Map<number, PublicView> {
  const views = new Map<number, PublicView>();
  const first = newGame(m.seed!, m.seatCount as 3 | 4);
  views.set(gameEvents(first).length - 1, publicView(first));
  // The first visit of an index is the position right after the input that produced it
  // (a buffered simultaneous answer visits again without new events).
  const r = stepReplay(m.seed!, m.seatCount as 3 | 4, m.replay, (g, last) => {
    if (!views.has(last)) views.set(last, publicView(g));
  });
  expect(r.ok).toBe(true);
  return views;
}

beforeAll(async () => {
  // Two seats answer illegally (one until it resigns), two play legally. Behaviour goes by seat, and
  // seed and match id are fixed: the same game every run (bot ids, and so seats, are random), one
  // known to hold every private fact checked below (a bought card, a theft, a resignation).
  const bySeat = [illegalBot(3), illegalBot(2), wellBehaved(), wellBehaved({ openOfferEachTurn: true })];
  const seated: Behaviour = (ctx) => bySeat[ctx.request.seat](ctx);
  arena = await startArena([seated, seated, seated, seated], {
    newSeed: () => '5f3c0e8a9b7d4c21a0e6f9b8c7d6e5f4',
    newMatchId: () => 'm_liveStreamTest01',
  });
  [matchId] = await arena.tick();
  const url = `${arena.url}/matches/${matchId}/live`;
  let late: Promise<string> | null = null;
  raw = await readStream(url, (text) => {
    // A second viewer joins once the game is well under way.
    if (!late && (text.match(/\nevent: event\n/g)?.length ?? 0) > 150) late = readStream(url);
  });
  lateRaw = await late!;
  await arena.idle();
  match = MatchRecordSchema.parse(await (await fetch(`${arena.url}/matches/${matchId}`)).json());
}, 120_000);

afterAll(async () => {
  await arena?.close();
});

describe('live stream: hidden information', () => {
  it('the match completed with illegal answers struck and a seat resigned, so the replay holds private facts', () => {
    expect(match.status).toBe('completed');
    const strikes = match.replay.filter((e) => e.kind === 'timeout');
    expect(strikes.filter((e) => e.data.reason === 'illegal' && e.data.code && e.data.message).length).toBe(5);
    expect(match.replay.some((e) => e.kind === 'resign')).toBe(true);
    expect(match.replay.some((e) => e.kind === 'dev' && e.data.action === 'buy' && 'card' in e.data)).toBe(true);
    expect(match.replay.some((e) => e.kind === 'bandit' && 'stole' in e.data)).toBe(true);
  });

  it('a viewer from the start gets a snapshot, then every event exactly once in order, then end', () => {
    const msgs = messages(raw);
    expect(msgs[0].type).toBe('snapshot');
    expect(msgs.at(-1)!.type).toBe('end');
    const snap = msgs[0].type === 'snapshot' ? msgs[0].data : null;
    const seqs = [...snap!.recent.map((e) => e.seq), ...msgs.flatMap((m) => (m.type === 'event' ? [m.data.seq] : []))];
    // The viewer may join after the match began: its snapshot's recent window then starts later,
    // but from there on every event arrives once, in order, to the last one.
    const first = Math.max(0, snap!.seq - (SNAPSHOT_RECENT_EVENTS - 1));
    expect(seqs).toEqual(match.replay.slice(first).map((_, i) => first + i));
    const end = msgs.at(-1)!;
    expect(end.type === 'end' && end.data.players).toEqual(match.players);
  });

  it('every event is exactly the public form of the real one: no drawn card, no stolen resource, no rejection code or message', () => {
    const msgs = messages(raw);
    const snap = msgs[0].type === 'snapshot' ? msgs[0].data : null;
    const events = [...snap!.recent, ...msgs.flatMap((m) => (m.type === 'event' ? [m.data] : []))];
    for (const ev of events) {
      const real = match.replay[ev.seq];
      expect(PublicMatchEventSchema.safeParse(ev).success).toBe(true); // strict: no extra field
      expect(ev).toEqual({ seq: real.seq, at: real.at, ...publicEvent(real as unknown as GameEvent) });
      if (ev.kind === 'dev' && ev.data.action === 'buy') expect(ev.data).toEqual({ action: 'buy' });
      if (ev.kind === 'bandit') expect(ev.data).not.toHaveProperty('stole');
      if (ev.kind === 'timeout') expect(Object.keys(ev.data).sort()).toEqual(['decision', 'reason', 'strikes']);
    }
  });

  it("every view (and the late viewer's snapshot) is the engine's publicView at that event, with no hand or own cards", () => {
    const views = viewsBySeq(match);
    let checked = 0;
    for (const text of [raw, lateRaw]) {
      for (const m of messages(text)) {
        const v =
          m.type === 'view'
            ? m.data
            : m.type === 'snapshot' && m.data.view
              ? { seq: m.data.seq, view: m.data.view }
              : null;
        if (!v) continue;
        expect(PublicViewSchema.safeParse(v.view).success).toBe(true);
        expect(views.has(v.seq), `a view at event ${v.seq}, which ends no input`).toBe(true);
        expect(v.view).toEqual(JSON.parse(JSON.stringify(views.get(v.seq))));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    for (const text of [raw, lateRaw])
      for (const key of [
        '"hand"',
        '"devCards"',
        '"devBoughtThisTurn"',
        '"myScore"',
        '"stole"',
        '"code"',
        '"message"',
        '"seed"',
      ])
        expect(text).not.toContain(key);
  });

  it('the late viewer starts from a snapshot of the position it joined at and misses nothing after it', () => {
    const msgs = messages(lateRaw);
    expect(msgs[0].type).toBe('snapshot');
    const snap = msgs[0].type === 'snapshot' ? msgs[0].data : null;
    expect(snap!.seq).toBeGreaterThan(150);
    expect(snap!.recent.at(-1)!.seq).toBe(snap!.seq);
    // Strikes so far travel with the snapshot, even when the recent window no longer shows them.
    const upTo = match.replay.slice(0, snap!.seq + 1);
    const expected = match.players.map((p) =>
      Math.max(
        0,
        ...upTo
          .filter((e) => e.kind === 'timeout' && e.seat === p.seat)
          .map((e) => (e.kind === 'timeout' ? e.data.strikes : 0)),
      ),
    );
    expect(snap!.strikes).toEqual(expected);
    const seqs = msgs.flatMap((m) => (m.type === 'event' ? [m.data.seq] : []));
    expect(seqs).toEqual(match.replay.slice(snap!.seq + 1).map((e) => e.seq));
  });

  it('neither stream nor the snapshot header carries the seed, a bot URL or any rejection message', () => {
    const rejections = match.replay.flatMap((e) => (e.kind === 'timeout' && e.data.message ? [e.data.message] : []));
    expect(rejections.length).toBeGreaterThan(0);
    for (const text of [raw, lateRaw]) {
      expect(text).not.toContain(match.seed!);
      for (const b of arena.bots) expect(text).not.toContain(b.server.url.replace('http://', ''));
      // As the stream would carry them: JSON-escaped.
      for (const r of rejections) expect(text).not.toContain(JSON.stringify(r).slice(1, -1));
    }
  });

  it('a finished match answers with its final position and end; a Last-Event-ID resumes from the replay without gaps', async () => {
    const after = messages(await readStream(`${arena.url}/matches/${matchId}/live`));
    expect(after.map((m) => m.type)).toEqual(['snapshot', 'end']);
    const final = after[0].type === 'snapshot' ? after[0].data : null;
    expect(final!.view).toEqual(JSON.parse(JSON.stringify(viewsBySeq(match).get(match.replay.length - 1))));
    expect(final!.match).not.toHaveProperty('seed');
    // Its log shows how it ended: the last events, in their public form like every live event.
    expect(final!.recent).toEqual(
      match.replay.slice(-50).map((e) => ({ seq: e.seq, at: e.at, ...publicEvent(e as unknown as GameEvent) })),
    );

    const from = match.replay.length - 40;
    const res = await fetch(`${arena.url}/matches/${matchId}/live`, { headers: { 'last-event-id': String(from) } });
    const resumed = messages(await res.text());
    expect(resumed.flatMap((m) => (m.type === 'event' ? [m.data.seq] : []))).toEqual(
      match.replay.slice(from + 1).map((e) => e.seq),
    );
    expect(resumed.slice(-2).map((m) => m.type)).toEqual(['view', 'end']);
    expect(await res.text().catch(() => '')).toBe('');
  });
});
