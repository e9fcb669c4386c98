import { describe, expect, it } from 'vitest';
import {
  createBuiltinBot,
  isOver,
  newGame,
  pendingDecisions,
  seatView,
  submit,
  type AnyAction,
  type Game,
} from '../../engine';
import type { DecisionRequest } from '../../src/protocol';
import { SeatFrameWriter } from '../../src/runner/seat-frame';

// Talk that exercises escaping: quotes, controls, non-ASCII, a lone surrogate,
// line separators, one over the string cache's length and one at the limit.
const TALK = [
  'say "hi" \\ there',
  'tab\tnew\nline\u0001',
  'ünïcödé ✓ 🎲',
  'lone \ud800 surrogate',
  '\u2028\u2029',
  'x'.repeat(65),
  '✓'.repeat(240),
  'ok',
];

interface Seen {
  frames: number;
  setup: number;
  main: number;
  tradeTo: number;
  tradeOpen: number;
  tradeTalk: number;
  talkLog: number;
  bandits: Set<number>;
  devCards: number;
  devBought: number;
  largestArmy: number;
  longestRoad: number;
  over: number;
}

/** Every seat's frame from the writer, against JSON.stringify of the request seatView gives (bytes compared). */
function checkAllSeats(
  writer: SeatFrameWriter,
  g: Game,
  id: number,
  matchId: string,
  kind: DecisionRequest['kind'],
  seen: Seen,
): void {
  for (let seat = 0; seat < g.n; seat++) {
    const deadlineMs = 1 + ((id * 7 + seat) % 6000);
    const req: DecisionRequest = { id, matchId, game: 'pioneers', seat, kind, deadlineMs, view: seatView(g, seat) };
    const got = writer.encode(id, matchId, seat, kind, deadlineMs, g);
    const want = Buffer.from(JSON.stringify(req));
    if (!got.equals(want)) expect(got.toString('utf8')).toBe(want.toString('utf8'));
    expect(got.equals(want)).toBe(true);
    seen.frames++;
    const v = req.view;
    if (v.phase === 'setup') seen.setup++;
    else seen.main++;
    if (v.openTrade?.to !== undefined) seen.tradeTo++;
    if (v.openTrade && v.openTrade.to === undefined) seen.tradeOpen++;
    if (v.openTrade?.talk !== undefined) seen.tradeTalk++;
    if (v.talkLog.length > 0) seen.talkLog++;
    seen.bandits.add(v.board.bandit);
    if (v.devCards.length > 0) seen.devCards++;
    if (v.devBoughtThisTurn.length > 0) seen.devBought++;
    if (v.awards.largestArmy !== null) seen.largestArmy++;
    if (v.awards.longestRoad !== null) seen.longestRoad++;
  }
}

/**
 * Random bots, with talk and targeted offers mixed in (random bots never talk):
 * a copy of the bot's action with `talk` (and, for offers, `to`) when the engine takes it.
 */
function withTalk(g: Game, seat: number, action: AnyAction, k: number): AnyAction {
  if (typeof action !== 'object' || action === null || k % 3 === 0) return action;
  const talk = TALK[k % TALK.length];
  const a = action as unknown as Record<string, unknown>;
  const dressed: Record<string, unknown> = { ...a, talk };
  if (a.type === 'offer_trade' && k % 2 === 0) dressed.to = (seat + 1 + (k % (g.n - 1))) % g.n;
  if (a.type === 'offer_trade' && k % 5 === 0) delete dressed.talk;
  return dressed as unknown as AnyAction;
}

function playChecked(writer: SeatFrameWriter, seed: string, n: 3 | 4, matchId: string, seen: Seen): void {
  const g = newGame(seed, n);
  const bots = Array.from({ length: n }, (_, s) => createBuiltinBot('random', `${seed}:${s}`));
  let id = 1;
  let k = 0;
  while (!isOver(g)) {
    const pending = [...pendingDecisions(g)];
    for (const d of pending) checkAllSeats(writer, g, id++, matchId, d.kind, seen);
    for (const d of pending) {
      const plain = bots[d.seat].decide(g, d.seat);
      const dressed = withTalk(g, d.seat, plain, k++);
      if (dressed === plain || !submit(g, d.seat, dressed).ok) {
        const r = submit(g, d.seat, plain);
        expect(r.ok).toBe(true);
      }
    }
  }
  // The game over: the last state still encodes for every seat.
  seen.over++;
  checkAllSeats(writer, g, id, matchId, 'turn', seen);
}

const emptySeen = (): Seen => ({
  frames: 0,
  setup: 0,
  main: 0,
  tradeTo: 0,
  tradeOpen: 0,
  tradeTalk: 0,
  talkLog: 0,
  bandits: new Set(),
  devCards: 0,
  devBought: 0,
  largestArmy: 0,
  longestRoad: 0,
  over: 0,
});

describe('SeatFrameWriter', () => {
  it('gives JSON.stringify({ ...header, view: seatView(g, seat) }) byte for byte, every seat at every decision of whole 4- and 3-seat games', () => {
    // One writer for all the games, as it follows a new game by itself.
    const writer = new SeatFrameWriter();
    const seen = emptySeen();
    playChecked(writer, 'seat-frame/4a', 4, 'm-4a', seen);
    playChecked(writer, 'seat-frame/3a', 3, 'm "3a" \\ ✓', seen);
    playChecked(writer, 'seat-frame/4b', 4, 'm-4b', seen);
    playChecked(writer, 'seat-frame/3b', 3, 'm-3b', seen);
    // The games went through everything the view has.
    expect(seen.frames).toBeGreaterThan(2000);
    expect(seen.setup).toBeGreaterThan(0);
    expect(seen.main).toBeGreaterThan(0);
    expect(seen.tradeTo).toBeGreaterThan(0);
    expect(seen.tradeOpen).toBeGreaterThan(0);
    expect(seen.tradeTalk).toBeGreaterThan(0);
    expect(seen.talkLog).toBeGreaterThan(0);
    expect(seen.bandits.size).toBeGreaterThan(1);
    expect(seen.devCards).toBeGreaterThan(0);
    expect(seen.devBought).toBeGreaterThan(0);
    expect(seen.largestArmy + seen.longestRoad).toBeGreaterThan(0);
    expect(seen.over).toBe(4);
  });

  it('re-reads the board when given another game, and throws for a seat seatView refuses', () => {
    const writer = new SeatFrameWriter();
    const a = newGame('seat-frame/x', 4);
    const b = newGame('seat-frame/y', 3);
    for (const g of [a, b, a]) {
      const want = JSON.stringify({
        id: 1,
        matchId: 'x',
        game: 'pioneers',
        seat: 2,
        kind: 'setup',
        deadlineMs: 5,
        view: seatView(g, 2),
      });
      expect(writer.write(1, 'x', 2, 'setup', 5, g)).toBe(want);
    }
    expect(() => writer.encode(1, 'x', 3, 'setup', 5, b)).toThrow(RangeError);
    expect(() => writer.encode(1, 'x', -1, 'setup', 5, a)).toThrow(RangeError);
  });

  it('puts timeBankMs and lastRttMs after deadlineMs when given, as JSON.stringify would', () => {
    const writer = new SeatFrameWriter();
    const g = newGame('seat-frame/bank', 4);
    const head = { id: 7, matchId: 'm', game: 'pioneers', seat: 1, kind: 'setup', deadlineMs: 500 };
    expect(writer.write(7, 'm', 1, 'setup', 500, g, 119_000)).toBe(
      JSON.stringify({ ...head, timeBankMs: 119_000, view: seatView(g, 1) }),
    );
    expect(writer.write(7, 'm', 1, 'setup', 500, g, 0, 12)).toBe(
      JSON.stringify({ ...head, timeBankMs: 0, lastRttMs: 12, view: seatView(g, 1) }),
    );
    expect(writer.write(7, 'm', 1, 'setup', 500, g)).toBe(JSON.stringify({ ...head, view: seatView(g, 1) }));
  });

  it('follows pieces placed and taken back between frames (roadworks places a road for a moment)', () => {
    const writer = new SeatFrameWriter();
    const g = newGame('seat-frame/z', 4);
    const frame = () =>
      JSON.stringify({
        id: 1,
        matchId: 'z',
        game: 'pioneers',
        seat: 0,
        kind: 'turn',
        deadlineMs: 5,
        view: seatView(g, 0),
      });
    expect(writer.write(1, 'z', 0, 'turn', 5, g)).toBe(frame());
    g.roadOwner[10] = 2;
    g.townOwner[20] = 1;
    expect(writer.write(1, 'z', 0, 'turn', 5, g)).toBe(frame());
    g.isCity[20] = 1;
    expect(writer.write(1, 'z', 0, 'turn', 5, g)).toBe(frame());
    g.roadOwner[10] = -1;
    g.townOwner[20] = -1;
    g.isCity[20] = 0;
    g.talkLog.push({ seat: 1, message: 'a', turn: 0 });
    expect(writer.write(1, 'z', 0, 'turn', 5, g)).toBe(frame());
    // Same length, same objects' places, another message.
    g.talkLog[0] = { seat: 1, message: 'b', turn: 0 };
    expect(writer.write(1, 'z', 0, 'turn', 5, g)).toBe(frame());
    // Several of one dev card (random games rarely hold three alike), and big hands.
    g.devOld.set([3, 2, 0, 1, 1], 0);
    g.devNew.set([0, 1, 2, 0, 3], 0);
    g.hand.set([12, 0, 105, 3, 1], 0);
    expect(writer.write(1, 'z', 0, 'turn', 5, g)).toBe(frame());
  });
});
