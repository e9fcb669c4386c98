// What each bot receives holds only what its seat may know: every frame the
// bots saw in a real match is checked against the exact (strict) view schema
// and against each other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newGame, pendingDecisions, seatView, stepReplay, type Game } from '../../engine';
import { generateKeyPair } from '../../src/keys';
import {
  DEV_CARD_NAMES,
  PioneersViewSchema,
  RESOURCE_NAMES,
  type DecisionRequest,
  type PioneersView,
} from '../../src/protocol';
import { runMatch, type MatchResult } from '../../src/runner';
import { wellBehaved } from '../support/policies';
import { startTestBot, type TestBot } from '../support/test-bot';

const SEED = 'SEED-secret-8731';
const { privateKey } = generateKeyPair();
let bots: TestBot[];
let result: MatchResult;

beforeAll(async () => {
  bots = await Promise.all(
    [0, 1, 2, 3].map(() => startTestBot({ behaviour: wellBehaved({ openOfferEachTurn: true }) })),
  );
  result = await runMatch({
    matchId: 'leak-1',
    seed: SEED,
    platformKey: privateKey,
    deadlineMs: 2000,
    entrants: bots.map((b, i) => ({ botId: `b${i}`, botName: `b${i}`, source: { type: 'ws' as const, url: b.url } })),
  });
});
afterAll(async () => {
  await Promise.all(bots.map((b) => b.close()));
});

const handTotal = (v: PioneersView) => RESOURCE_NAMES.reduce((n, r) => n + (v.hand[r] ?? 0), 0);
/** The parts of a view that are the same for every seat at one moment. */
function publicPart(v: PioneersView) {
  const { seat: _s, hand: _h, devCards: _d, devBoughtThisTurn: _b, myScore: _m, ...rest } = v;
  return rest;
}

/** JSON with sorted keys, so views compare regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

describe('the view each bot receives', () => {
  it("is exactly the engine's view for that seat at some point of this very game", () => {
    // Replaying the record, collect seatView(g, seat) for every seat owing a decision at every step;
    // every frame a bot received must be one of its own seat's views.
    const owed = new Map<number, Set<string>>();
    const collect = (g: Game) => {
      for (const d of pendingDecisions(g)) {
        if (!owed.has(d.seat)) owed.set(d.seat, new Set());
        owed.get(d.seat)!.add(canonical(seatView(g, d.seat)));
      }
    };
    collect(newGame(SEED, 4));
    expect(stepReplay(SEED, 4, result.match.replay, (g) => collect(g))).toMatchObject({ ok: true });
    let checked = 0;
    for (const b of bots) {
      for (const f of b.frames) {
        expect(owed.get(f.seat)?.has(canonical(f.view)), `frame ${f.id} (seat ${f.seat}, ${f.kind})`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('the match completed and every bot got frames', () => {
    expect(result.match.status).toBe('completed');
    for (const b of bots) expect(b.frames.length).toBeGreaterThan(0);
  });

  it('is exactly a PioneersView: no extra field anywhere', () => {
    for (const b of bots) for (const f of b.frames) expect(PioneersViewSchema.parse(f.view)).toEqual(f.view);
  });

  it('is always for the seat the bot sits in', () => {
    for (const [i, b] of bots.entries()) {
      // Bot i entered as `b${i}`; the runner's seat stats say where the seed sat it.
      const seat = result.seats.find((s) => s.botId === `b${i}`)!.seat;
      for (const f of b.frames) {
        expect(f.seat).toBe(seat);
        expect(f.view.seat).toBe(seat);
      }
    }
  });

  it('holds its own hand and dev cards only: they match its own counts', () => {
    for (const b of bots) {
      for (const { view } of b.frames) {
        expect(handTotal(view)).toBe(view.handCounts[view.seat]);
        expect(view.devCards.length + view.devBoughtThisTurn.length).toBe(view.devCounts[view.seat]);
        expect(view.myScore).toBeGreaterThanOrEqual(view.scores[view.seat]);
      }
    }
  });

  it('never names a dev card outside its own cards, and never carries the seed', () => {
    for (const b of bots) {
      for (const f of b.frames) {
        const { devCards: _d, devBoughtThisTurn: _b, ...rest } = f.view;
        const text = JSON.stringify({ ...f, view: rest });
        for (const card of DEV_CARD_NAMES) expect(text).not.toContain(`"${card}"`);
        expect(JSON.stringify(f)).not.toContain(SEED);
      }
    }
  });

  it('seats asked at the same moment see the same public state and differ only in private fields', () => {
    const frames: DecisionRequest[] = bots.flatMap((b) => b.frames).sort((a, b) => a.id - b.id);
    let pairs = 0;
    for (let i = 1; i < frames.length; i++) {
      const [a, b] = [frames[i - 1], frames[i]];
      const together =
        a.id + 1 === b.id && a.kind === b.kind && (a.kind === 'trade' || a.kind === 'discard') && a.seat !== b.seat;
      if (!together) continue;
      pairs++;
      expect(publicPart(b.view)).toEqual(publicPart(a.view));
    }
    // The bots make an open offer every turn, so trade rounds are many.
    expect(pairs).toBeGreaterThan(10);
  });
});
