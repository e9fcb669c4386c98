// The dashboard's pure helpers, run in node: the replay stepper against
// states the engine produced while a game was played, the event sentences,
// the rating history, and the scope list against the protocol's.
import { describe, expect, it } from 'vitest';
import {
  createBuiltinBot,
  gameEvents,
  isOver,
  newGame,
  pendingDecisions,
  publicEvent,
  publicView,
  submit,
  type GameEvent,
  type PublicView,
} from '../../../engine/index';
import { SCOPES, type MatchSummary } from '../../../src/protocol/index';
import { describeEvent, strikesOf } from '../../../src/web/lib/describe';
import { formatDelta, formatRating, ordinal } from '../../../src/web/lib/format';
import { ratingHistory } from '../../../src/web/lib/rating-history';
import { eventOfTurn, ReplayCursor } from '../../../src/web/lib/replay';
import { SCOPE_TEXT } from '../../../src/web/lib/scopes';

/** Plays a whole game with built-in bots; records the public view after each answer, keyed by the last event index. */
function playRecorded(seed: string, seats: 3 | 4) {
  const g = newGame(seed, seats);
  const bots = Array.from({ length: seats }, (_, s) => createBuiltinBot(s % 2 ? 'random' : 'greedy', `${seed}/${s}`));
  const seen = new Map<number, PublicView>();
  while (!isOver(g)) {
    for (const d of pendingDecisions(g)) {
      const r = submit(g, d.seat, bots[d.seat].decide(g, d.seat));
      if (!r.ok) throw new Error(r.reason.message);
      const log = gameEvents(g);
      seen.set(log.length - 1, structuredClone(publicView(g)));
    }
  }
  const events = JSON.parse(JSON.stringify(gameEvents(g).map((e, seq) => ({ seq, at: 'x', ...e })))) as Array<
    GameEvent & { seq: number }
  >;
  return { g, events, seen };
}

describe('ReplayCursor: the engine steps a finished match in the browser', () => {
  for (const seats of [3, 4] as const) {
    it(`shows, at each answer's last event, the public state the game had then (${seats} seats)`, () => {
      const { g, events, seen } = playRecorded(`web-replay-${seats}`, seats);
      const cursor = new ReplayCursor(`web-replay-${seats}`, seats, events);
      expect(cursor.error).toBeNull();
      expect(cursor.count).toBe(events.length);
      expect(cursor.turns).toHaveLength(events.length);
      // Every event, visited backwards (each window made by a fresh pass), then forwards.
      for (let i = events.length - 1; i >= 0; i--) expect(cursor.view(i)).toBeDefined();
      for (const [index, view] of seen) expect(cursor.view(index)).toEqual(view);
      expect(cursor.view(events.length - 1)).toEqual(publicView(g));
      expect(cursor.view(events.length - 1).phase).toBe('over');
      // The start shows the empty board the game began with.
      expect(cursor.view(0).towns).toEqual([]);
      expect(cursor.view(0).board).toEqual((events[0].data as { board: unknown }).board);
      for (let i = 0; i < events.length; i++) expect(cursor.view(i).turn).toBe(cursor.turns[i]);
    });
  }

  it('gives the same views whichever event it opens at and in whatever order they are asked for', () => {
    const { events } = playRecorded('web-order', 4);
    const fromEnd = new ReplayCursor('web-order', 4, events);
    const fromMiddle = new ReplayCursor('web-order', 4, events, Math.floor(events.length / 2));
    const order = events.map((_, i) => i).sort((a, b) => ((a * 7919) % events.length) - ((b * 7919) % events.length));
    for (const i of order) expect(fromMiddle.view(i)).toEqual(fromEnd.view(i));
    expect(fromMiddle.turns).toEqual(fromEnd.turns);
  });

  it('turns never go back, and eventOfTurn finds the first event of a turn', () => {
    const { events } = playRecorded('web-turns', 4);
    const { turns } = new ReplayCursor('web-turns', 4, events);
    for (let i = 1; i < turns.length; i++) expect(turns[i]).toBeGreaterThanOrEqual(turns[i - 1]);
    const i = eventOfTurn(turns, 10);
    expect(turns[i]).toBe(10);
    expect(turns[i - 1]).toBeLessThan(10);
    expect(eventOfTurn(turns, 0)).toBe(0);
    expect(eventOfTurn(turns, 10_000)).toBe(turns.length - 1);
  });

  it('says where a record stops matching the engine, and still shows what it could', () => {
    const { events } = playRecorded('web-bad', 4);
    const i = events.findIndex((e) => e.kind === 'roll');
    const bad = events.map((e, j) => (j === i ? { ...e, data: { ...(e.data as object), dice: [1, 1] } } : e));
    const cursor = new ReplayCursor('web-bad', 4, bad);
    expect(cursor.error).toMatch(new RegExp(`^event ${i}:`));
    expect(cursor.view(events.length - 1)).toBeDefined();
    expect(new ReplayCursor('another seed', 4, events).error).not.toBeNull();
  });
});

describe('describeEvent: the log in words', () => {
  const ctx = { names: ['Alpha', 'Bravo', 'Charlie'] };
  it('names seats by bot and says what happened', () => {
    expect(
      describeEvent({ kind: 'roll', seat: 0, data: { dice: [3, 5], produced: [{}, { grain: 1 }, {}] } }, ctx),
    ).toBe('Alpha (seat 0) rolled 3+5=8: Bravo (seat 1) +1 grain');
    expect(describeEvent({ kind: 'build', seat: 2, data: { what: 'city', at: 17 } }, ctx)).toBe(
      'Charlie (seat 2) built a city at vertex 17',
    );
    expect(
      describeEvent({ kind: 'trade', seat: 1, data: { from: 1, to: 'bank', give: { ore: 4 }, get: { wool: 1 } } }, ctx),
    ).toBe('Bravo (seat 1) traded 4 ore to the bank for 1 wool');
  });

  it('a live (public) event never needs the hidden facts, a finished one shows them', () => {
    const full: GameEvent = { kind: 'bandit', seat: 0, data: { hex: 4, victim: 1, stole: 'ore' } };
    expect(describeEvent(full, ctx)).toContain('stole 1 ore from Bravo');
    const pub = publicEvent(full);
    const text = describeEvent(pub, ctx);
    expect(text).toContain('stole a card from Bravo');
    expect(text).not.toContain('ore');
    const buy: GameEvent = { kind: 'dev', seat: 2, data: { action: 'buy', card: 'victory_point' } };
    expect(describeEvent(publicEvent(buy), ctx)).toBe('Charlie (seat 2) bought a dev card');
  });

  it('describes every event of a real game without falling back to the raw kind', () => {
    const { events } = playRecorded('web-words', 4);
    const names = ['A', 'B', 'C', 'D'];
    for (const ev of events) {
      const text = describeEvent(ev, { names });
      expect(text.length).toBeGreaterThan(8);
      expect(text).not.toMatch(/undefined|\[object Object\]|: (action|roll|build)$/);
    }
  });

  it('counts strikes per seat from timeout events', () => {
    const evs = [
      { kind: 'timeout', seat: 1, data: { reason: 'late', strikes: 1, decision: 'turn' } },
      { kind: 'timeout', seat: 1, data: { reason: 'late', strikes: 2, decision: 'turn' } },
      { kind: 'timeout', seat: 3, data: { reason: 'illegal', strikes: 1, decision: 'turn' } },
    ];
    expect(strikesOf(evs, 4)).toEqual([0, 2, 0, 1]);
  });
});

describe('ratingHistory', () => {
  const summary = (id: string, delta: number | null, status: MatchSummary['status'] = 'completed'): MatchSummary => ({
    id,
    game: 'pioneers',
    status,
    startedAt: 't',
    endedAt: 't',
    players: [
      { seat: 0, botId: 'b1', botName: 'one', placement: 1, ratingDelta: delta },
      { seat: 1, botId: 'b2', botName: 'two', placement: 2, ratingDelta: 0 },
      { seat: 2, botId: 'b3', botName: 'three', placement: 3, ratingDelta: 0 },
    ],
  });
  const newestFirst = [
    summary('m4', 0, 'running'),
    summary('m3', -1.5),
    summary('m2', null, 'aborted'),
    summary('m1', 4),
  ];

  it('sums deltas from 0 when every match was read, oldest first, skipping running and aborted ones', () => {
    const h = ratingHistory('b1', newestFirst, { complete: true, currentRating: 99 });
    expect(h.start).toBe(0);
    expect(h.points.map((p) => [p.matchId, p.rating])).toEqual([
      ['m1', 4],
      ['m3', 2.5],
    ]);
  });

  it('anchors at the current rating when older matches were not read', () => {
    const h = ratingHistory('b1', newestFirst, { complete: false, currentRating: 10 });
    expect(h.start).toBeCloseTo(7.5);
    expect(h.points[h.points.length - 1].rating).toBeCloseTo(10);
  });
});

describe('small things', () => {
  it('the key form offers exactly the protocol scopes, in its order', () => {
    expect(SCOPE_TEXT.map(([s]) => s)).toEqual([...SCOPES]);
  });

  it('formats ratings, deltas and places', () => {
    expect(formatRating(3.14159)).toBe('3.1');
    expect(formatRating(-0.04)).toBe('0.0');
    expect(formatRating(-1.26)).toBe('-1.3');
    expect(formatDelta(1.26)).toBe('+1.3');
    expect(formatDelta(-0.3)).toBe('−0.3');
    expect(formatDelta(0.01)).toBe('±0.0');
    expect([1, 2, 3, 4, 11, 12, 13, 21].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
    ]);
  });
});
