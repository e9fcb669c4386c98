// The replay event schemas (src/protocol/events.ts) against what the engine
// really emits: every event of many games with strikes, defaults and
// resignations validates, per kind; its public form validates as public and
// no longer as private; a stamped event is a MatchEvent.
import { describe, expect, it } from 'vitest';
import {
  REJECTION_MESSAGES,
  abortGame,
  defaultAction,
  gameEvents,
  isOver,
  legalActions,
  newGame,
  pendingDecisions,
  publicEvent,
  recordStrike,
  resignSeat,
  seededRandom,
  submit,
  type GameEvent,
} from '../../engine';
import { REJECTION_CODES as ENGINE_CODES } from '../../engine/rejections';
import {
  GameEventSchema,
  MatchEventSchema,
  PublicGameEventSchema,
  PublicMatchEventSchema,
  REJECTION_CODES,
  describeIssues,
} from '../../src/protocol';

/** A game of random legal moves with occasional junk answers, struck like the runner does; some seats resign. */
function playWithStrikes(seed: string, n: 3 | 4): GameEvent[] {
  const g = newGame(seed, n);
  const rand = seededRandom(seed, 'driver');
  const strikes = new Array<number>(n).fill(0);
  const junk: unknown[] = [
    { type: 'play_knight', hex: 3 },
    { type: 'build_city', vertex: 10 },
    { type: 'buy_dev' },
    { type: 'play_windfall', take: { ore: 2 } },
    { type: 'play_roadworks', edges: [5] },
    { type: 'play_embargo', resource: 'ore' },
    { cards: { brick: 9 } },
    { hex: 40 },
    'pass',
  ];
  while (!isOver(g)) {
    const { seat } = pendingDecisions(g)[0];
    const resigned = strikes[seat] >= 3;
    if (!resigned && rand() < 0.04) {
      const r = submit(g, seat, junk[Math.floor(rand() * junk.length)]);
      if (!r.ok) {
        recordStrike(g, seat, 'illegal', ++strikes[seat], pendingDecisions(g).find((p) => p.seat === seat)!.kind, {
          code: r.reason.code,
          message: r.reason.message,
        });
        expect(submit(g, seat, defaultAction(g, seat)).ok).toBe(true);
        if (strikes[seat] === 3) resignSeat(g, seat);
      }
      continue;
    }
    if (!resigned && rand() < 0.01) {
      recordStrike(g, seat, rand() < 0.5 ? 'late' : 'malformed', ++strikes[seat], pendingDecisions(g)[0].kind);
      expect(submit(g, seat, defaultAction(g, seat)).ok).toBe(true);
      if (strikes[seat] === 3) resignSeat(g, seat);
      continue;
    }
    const options = resigned
      ? [defaultAction(g, seat)]
      : legalActions(g, seat).filter((a) => !('type' in a && a.type === 'offer_trade') || rand() < 0.1);
    const pick = options[Math.floor(rand() * options.length)];
    const talk = 'type' in pick && pick.type === 'end_turn' && rand() < 0.2;
    expect(submit(g, seat, talk ? { type: 'end_turn', talk: 'well played' } : pick).ok).toBe(true);
  }
  return [...gameEvents(g)];
}

describe('replay event schemas', () => {
  const events = ['ev-a', 'ev-b', 'ev-c', 'ev-d', 'ev-e', 'ev-f'].flatMap((s, i) => playWithStrikes(s, i % 2 ? 3 : 4));
  const aborted = newGame('ev-aborted', 4);
  abortGame(aborted);
  events.push(...gameEvents(aborted));

  it('the games produce every kind, buys, steals and illegal strikes', () => {
    const kinds = new Set(events.map((e) => e.kind));
    expect([...kinds].sort()).toEqual(
      [
        'action',
        'award',
        'bandit',
        'build',
        'dev',
        'discard',
        'end',
        'payout',
        'resign',
        'roll',
        'start',
        'talk',
        'timeout',
        'trade',
      ].sort(),
    );
    expect(events.some((e) => e.kind === 'timeout' && e.data.code !== undefined)).toBe(true);
    expect(events.some((e) => e.kind === 'dev' && e.data.action === 'buy')).toBe(true);
  });

  it('every emitted event validates, and validation keeps it as it is', () => {
    for (const e of events) {
      const r = GameEventSchema.safeParse(JSON.parse(JSON.stringify(e)));
      if (!r.success) throw new Error(`${JSON.stringify(e).slice(0, 300)}: ${describeIssues(r.error)}`);
      expect(r.data).toEqual(e);
    }
  });

  it('the public form validates as public; the private kinds no longer validate as private', () => {
    for (const e of events) {
      const p = publicEvent(e);
      const r = PublicGameEventSchema.safeParse(JSON.parse(JSON.stringify(p)));
      if (!r.success) throw new Error(`${JSON.stringify(p)}: ${describeIssues(r.error)}`);
      const hidesSomething =
        (e.kind === 'dev' && e.data.action === 'buy') || (e.kind === 'bandit' && 'victim' in e.data);
      expect(GameEventSchema.safeParse(p).success).toBe(!hidesSomething);
      if (p.kind === 'timeout') expect(Object.keys(p.data).sort()).toEqual(['decision', 'reason', 'strikes']);
    }
  });

  it('a stamped event is a MatchEvent (and a public one a public MatchEvent)', () => {
    events.forEach((e, seq) => {
      const at = '2026-01-01T00:00:00.000Z';
      expect(MatchEventSchema.safeParse({ seq, at, ...e }).success).toBe(true);
      expect(PublicMatchEventSchema.safeParse({ seq, at, ...publicEvent(e) }).success).toBe(true);
    });
  });

  it('refuses what the engine never emits', () => {
    const bad: unknown[] = [
      {
        kind: 'start',
        seat: 0,
        data: { rulesVersion: 'pioneers/1', seatCount: 4, board: { hexes: [], ports: [], bandit: 0 } },
      },
      { kind: 'roll', seat: 0, data: { dice: [0, 7], produced: [{}, {}, {}] } },
      { kind: 'roll', data: { dice: [1, 2], produced: [{}, {}, {}] } },
      { kind: 'dev', seat: 1, data: { action: 'buy' } },
      { kind: 'dev', seat: 1, data: { action: 'play', card: 'victory_point' } },
      { kind: 'timeout', seat: 2, data: { reason: 'illegal', strikes: 1, decision: 'turn', code: 'made_up' } },
      { kind: 'action', seat: 0, data: { kind: 'turn', action: { type: 'end_turn', debug: 1 } } },
      { kind: 'action', seat: 0, data: { kind: 'trade', action: { type: 'end_turn' } } },
      { kind: 'talk', seat: 0, data: { message: 'x'.repeat(241) } },
      { kind: 'party', seat: 0, data: {} },
    ];
    for (const b of bad) expect(GameEventSchema.safeParse(b).success, JSON.stringify(b).slice(0, 120)).toBe(false);
  });

  it('lists the same rejection codes as the engine, each with a message', () => {
    expect([...REJECTION_CODES]).toEqual(ENGINE_CODES);
    expect(Object.keys(REJECTION_MESSAGES)).toEqual([...REJECTION_CODES]);
  });
});
