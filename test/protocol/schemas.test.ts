import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../engine/board';
import { DEV_CARDS } from '../../engine/types';
import {
  DEV_CARD_NAMES,
  DecisionRequestSchema,
  DecisionResponseSchema,
  LeaderboardRowSchema,
  MatchRecordSchema,
  MatchSummarySchema,
  PioneersViewSchema,
  PublicViewSchema,
  RESOURCE_NAMES,
  parseAction,
  type MatchRecord,
  type PioneersView,
  type PublicView,
} from '../../src/protocol';

function sampleView(): PioneersView {
  return {
    seat: 1,
    seatCount: 4,
    phase: 'main',
    turn: 7,
    dice: [3, 4],
    board: {
      hexes: Array.from({ length: 19 }, (_, id) => ({
        id,
        resource: id === 9 ? ('desert' as const) : ('ore' as const),
        token: id === 9 ? null : 8,
      })),
      ports: [
        { vertices: [0, 3], rate: 3 },
        { vertices: [11, 16], rate: 2, resource: 'brick' },
      ],
      bandit: 9,
    },
    roads: [{ edge: 0, seat: 1 }],
    towns: [{ vertex: 3, seat: 1, city: false }],
    hand: { brick: 1, ore: 2 },
    handCounts: [0, 3, 5, 1],
    devCards: ['knight'],
    devBoughtThisTurn: [],
    devCounts: [0, 1, 2, 0],
    knightsPlayed: [0, 0, 1, 0],
    scores: [2, 2, 3, 2],
    myScore: 2,
    awards: { largestArmy: null, longestRoad: 2 },
    deckRemaining: 20,
    openTrade: { from: 2, give: { wool: 1 }, get: { ore: 1 } },
    talkLog: [{ seat: 2, message: 'anyone?', turn: 7 }],
  };
}

describe('name lists match the engine', () => {
  it('resources and dev cards', () => {
    expect([...RESOURCE_NAMES]).toEqual([...RESOURCES]);
    expect([...DEV_CARD_NAMES]).toEqual([...DEV_CARDS]);
  });
});

describe('answers a bot sends', () => {
  it('accepts each spec action shape', () => {
    expect(parseAction('setup', { settlement: 53, road: 71 }).ok).toBe(true);
    for (const a of [
      { type: 'build_road', edge: 0 },
      { type: 'build_settlement', vertex: 53 },
      { type: 'build_city', vertex: 0 },
      { type: 'buy_dev' },
      { type: 'play_knight', hex: 18 },
      { type: 'play_knight', hex: 0, victim: 3 },
      { type: 'play_roadworks', edges: [1] },
      { type: 'play_roadworks', edges: [1, 2] },
      { type: 'play_windfall', take: { ore: 2 } },
      { type: 'play_windfall', take: { ore: 1, wool: 1 } },
      { type: 'play_embargo', resource: 'grain' },
      { type: 'bank_trade', give: 'brick', get: 'ore' },
      { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 } },
      { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 }, to: 2, talk: 'deal?' },
      { type: 'end_turn' },
      { type: 'end_turn', talk: 'gg' },
    ]) {
      expect(parseAction('turn', a), JSON.stringify(a)).toEqual({ ok: true, action: a });
    }
    expect(parseAction('discard', { cards: { wool: 4 } }).ok).toBe(true);
    expect(parseAction('bandit', { hex: 4, victim: 0, talk: 'sorry' }).ok).toBe(true);
    expect(parseAction('trade', { accept: false }).ok).toBe(true);
  });

  it('refuses out-of-range ids with a message naming the field', () => {
    expect(parseAction('setup', { settlement: 54, road: 0 })).toMatchObject({
      ok: false,
      message: expect.stringContaining('settlement'),
    });
    expect(parseAction('setup', { settlement: 0, road: 72 })).toMatchObject({
      ok: false,
      message: expect.stringContaining('road'),
    });
    expect(parseAction('setup', { settlement: 1.5, road: 0 }).ok).toBe(false);
    expect(parseAction('turn', { type: 'build_road', edge: -1 }).ok).toBe(false);
    expect(parseAction('turn', { type: 'play_knight', hex: 19 }).ok).toBe(false);
    expect(parseAction('turn', { type: 'play_knight', hex: 1, victim: 4 }).ok).toBe(false);
    expect(parseAction('bandit', { hex: 1, victim: -1 }).ok).toBe(false);
  });

  it('enforces roadworks 1..2 edges and windfall exactly 2', () => {
    expect(parseAction('turn', { type: 'play_roadworks', edges: [] }).ok).toBe(false);
    expect(parseAction('turn', { type: 'play_roadworks', edges: [1, 2, 3] }).ok).toBe(false);
    expect(parseAction('turn', { type: 'play_windfall', take: { ore: 1 } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('exactly 2'),
    });
    expect(parseAction('turn', { type: 'play_windfall', take: { ore: 2, wool: 1 } }).ok).toBe(false);
  });

  it('enforces the 240-character talk bound', () => {
    expect(parseAction('turn', { type: 'end_turn', talk: 'x'.repeat(240) }).ok).toBe(true);
    expect(parseAction('turn', { type: 'end_turn', talk: 'x'.repeat(241) }).ok).toBe(false);
    expect(parseAction('trade', { accept: true, talk: 'x'.repeat(241) }).ok).toBe(false);
    expect(parseAction('bandit', { hex: 0, talk: 'x'.repeat(241) }).ok).toBe(false);
  });

  it('refuses unknown resources and negative or fractional counts', () => {
    expect(parseAction('discard', { cards: { gold: 1 } }).ok).toBe(false);
    expect(parseAction('discard', { cards: { ore: -1 } }).ok).toBe(false);
    expect(parseAction('discard', { cards: { ore: 0.5 } }).ok).toBe(false);
    expect(parseAction('turn', { type: 'bank_trade', give: 'gold', get: 'ore' }).ok).toBe(false);
  });

  it('refuses a wrong discriminator or the wrong shape for the kind', () => {
    expect(parseAction('turn', { type: 'win_now' }).ok).toBe(false);
    expect(parseAction('turn', { settlement: 1, road: 1 }).ok).toBe(false);
    expect(parseAction('trade', { accept: 'yes' }).ok).toBe(false);
    expect(parseAction('setup', null).ok).toBe(false);
  });

  it('tolerates extra fields and strips them before the engine sees the answer', () => {
    expect(parseAction('turn', { type: 'end_turn', why: 'debug' })).toEqual({ ok: true, action: { type: 'end_turn' } });
    expect(parseAction('setup', { settlement: 1, road: 2, score: 0.7 })).toEqual({
      ok: true,
      action: { settlement: 1, road: 2 },
    });
    const r = DecisionResponseSchema.safeParse({ id: 3, action: { accept: true }, trace: 'x' });
    expect(r.success && r.data).toEqual({ id: 3, action: { accept: true } });
  });

  it('a DecisionResponse needs an integer id and an action', () => {
    expect(DecisionResponseSchema.safeParse({ id: 1, action: null }).success).toBe(true);
    expect(DecisionResponseSchema.safeParse({ id: 1 }).success).toBe(false);
    expect(DecisionResponseSchema.safeParse({ id: '1', action: {} }).success).toBe(false);
    expect(DecisionResponseSchema.safeParse({ id: 1.5, action: {} }).success).toBe(false);
    expect(DecisionResponseSchema.safeParse([1, {}]).success).toBe(false);
  });
});

describe('what the arena emits is exact', () => {
  it('a full view validates, and any extra field is refused', () => {
    expect(PioneersViewSchema.safeParse(sampleView()).success).toBe(true);
    expect(PioneersViewSchema.safeParse({ ...sampleView(), seed: 'abc' }).success).toBe(false);
    expect(PioneersViewSchema.safeParse({ ...sampleView(), hands: [{}, {}, {}, {}] }).success).toBe(false);
    const v = sampleView();
    expect(PioneersViewSchema.safeParse({ ...v, board: { ...v.board, deck: [] } }).success).toBe(false);
    expect(PioneersViewSchema.safeParse({ ...v, openTrade: { ...v.openTrade, secret: 1 } }).success).toBe(false);
  });

  it('view bounds: seat, seatCount, dice, 19 hexes, talk log of at most 20', () => {
    const v = sampleView();
    expect(PioneersViewSchema.safeParse({ ...v, seat: 4 }).success).toBe(false);
    expect(PioneersViewSchema.safeParse({ ...v, seatCount: 5 }).success).toBe(false);
    expect(PioneersViewSchema.safeParse({ ...v, dice: [0, 7] }).success).toBe(false);
    expect(PioneersViewSchema.safeParse({ ...v, dice: null, phase: 'setup', turn: 0 }).success).toBe(true);
    expect(PioneersViewSchema.safeParse({ ...v, board: { ...v.board, hexes: v.board.hexes.slice(1) } }).success).toBe(
      false,
    );
    const talk = Array.from({ length: 21 }, () => ({ seat: 0, message: 'hi', turn: 1 }));
    expect(PioneersViewSchema.safeParse({ ...v, talkLog: talk }).success).toBe(false);
  });

  it('a public view has counts and resigned flags, not a seat or a hand', () => {
    const { seat: _seat, hand: _hand, devCards: _d, devBoughtThisTurn: _b, myScore: _m, ...rest } = sampleView();
    const pub: PublicView = {
      ...rest,
      phase: 'over',
      current: 0,
      roadLengths: [1, 1, 0, 0],
      resigned: [false, true, false, false],
    };
    expect(PublicViewSchema.safeParse(pub).success).toBe(true);
    expect(PublicViewSchema.safeParse({ ...pub, hand: {} }).success).toBe(false);
  });

  it('a DecisionRequest carries a strict view', () => {
    const req = { id: 1, matchId: 'm1', game: 'pioneers', seat: 1, kind: 'turn', deadlineMs: 5000, view: sampleView() };
    expect(DecisionRequestSchema.safeParse(req).success).toBe(true);
    expect(DecisionRequestSchema.safeParse({ ...req, kind: 'move' }).success).toBe(false);
    expect(DecisionRequestSchema.safeParse({ ...req, game: 'chess' }).success).toBe(false);
    expect(DecisionRequestSchema.safeParse({ ...req, extra: true }).success).toBe(false);
  });

  it('match records, summaries and leaderboard rows', () => {
    const rec: MatchRecord = {
      id: 'm1',
      game: 'pioneers',
      status: 'completed',
      players: [0, 1, 2].map((seat) => ({
        seat,
        botId: `b${seat}`,
        botName: `bot ${seat}`,
        placement: seat + 1,
        ratingDelta: null,
      })),
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:01:00.000Z',
      seed: 's',
      replay: [{ seq: 0, at: '2026-01-01T00:00:00.000Z', kind: 'talk', seat: 1, data: { message: 'gl hf' } }],
      rulesVersion: 'pioneers/1',
      seatCount: 3,
      vp: [10, 7, 5],
    };
    expect(MatchRecordSchema.safeParse(rec).success).toBe(true);
    expect(MatchRecordSchema.safeParse({ ...rec, status: 'done' }).success).toBe(false);
    expect(MatchRecordSchema.safeParse({ ...rec, replay: [{ seq: 0, at: 'x', kind: 'k', seat: 4 }] }).success).toBe(
      false,
    );
    const { seed: _s, replay: _r, rulesVersion: _v, seatCount: _c, vp: _vp, ...summary } = rec;
    expect(MatchSummarySchema.safeParse(summary).success).toBe(true);
    expect(MatchSummarySchema.safeParse(rec).success).toBe(false);
    expect(
      LeaderboardRowSchema.safeParse({ rank: 1, botId: 'b', name: 'n', owner: 'o', rating: 12.3, gamesPlayed: 4 })
        .success,
    ).toBe(true);
  });
});
