import { describe, expect, it } from 'vitest';
import { defaultAction, isOver, newGame, pendingDecisions, seatView, submit } from '../../engine';
import { DecisionRequestSchema, type DecisionRequest } from '../../src/protocol';
import { RequestFrameWriter } from '../../src/runner/request-frame';

describe('RequestFrameWriter', () => {
  it('every frame of a whole match parses back to exactly its request', () => {
    const g = newGame('frames-1', 4);
    const writer = new RequestFrameWriter();
    let id = 1;
    const banditMoves = new Set<number>();
    while (!isOver(g)) {
      for (const d of [...pendingDecisions(g)]) {
        const req: DecisionRequest = {
          id: id++, matchId: 'm "quoted" \\ id', game: 'pioneers', seat: d.seat, kind: d.kind, deadlineMs: 5000, view: seatView(g, d.seat),
        };
        const parsed: unknown = JSON.parse(writer.write(req));
        expect(parsed).toEqual(req);
        expect(DecisionRequestSchema.parse(parsed)).toEqual(req);
        banditMoves.add(req.view.board.bandit);
        submit(g, d.seat, defaultAction(g, d.seat));
      }
    }
    // The bandit moved during the game, and the frames followed it.
    expect(banditMoves.size).toBeGreaterThan(1);
  });
});

describe('RequestFrameWriter bytes', () => {
  const base = (): DecisionRequest => {
    const g = newGame('frames-2', 4);
    // Into the main game, so roads, towns and dice are all there.
    while (pendingDecisions(g)[0]?.kind === 'setup') {
      const d = pendingDecisions(g)[0];
      submit(g, d.seat, defaultAction(g, d.seat));
    }
    return { id: 7, matchId: 'm-2', game: 'pioneers', seat: 1, kind: 'trade', deadlineMs: 5000, view: seatView(g, 1) };
  };

  it('are exactly JSON.stringify(request), frame after frame, for every frame of a match', () => {
    const g = newGame('frames-3', 3);
    const writer = new RequestFrameWriter();
    let id = 1;
    let frames = 0;
    while (!isOver(g)) {
      for (const d of [...pendingDecisions(g)]) {
        const req: DecisionRequest = { id: id++, matchId: 'frames-3', game: 'pioneers', seat: d.seat, kind: d.kind, deadlineMs: 250, view: seatView(g, d.seat) };
        expect(writer.encode(req).toString('utf8')).toBe(JSON.stringify(req));
        frames++;
        submit(g, d.seat, defaultAction(g, d.seat));
      }
    }
    expect(frames).toBeGreaterThan(100);
  });

  it('escape talk and ids as JSON.stringify does (quotes, controls, non-ASCII, lone surrogates) and grow for long talk', () => {
    const writer = new RequestFrameWriter();
    const weird = ['say "hi" \\ there', 'tab\tnew\nline\u0001', 'ünïcödé ✓ 🎲', 'lone \ud800 surrogate', '\u2028\u2029', ''];
    const req = base();
    req.matchId = 'm "3" \\ ✓';
    req.view.openTrade = { from: 2, give: { brick: 1, ore: 2 }, get: { wool: 1 }, to: 1, talk: weird[0] };
    // Lines far longer than talk may be (the writer does not judge, it serialises): ~84 KB, over its first buffer.
    req.view.talkLog = [...weird.map((message, i) => ({ seat: i % 4, message, turn: i })), ...Array.from({ length: 14 }, (_, i) => ({ seat: 0, message: '✓'.repeat(2000), turn: 6 + i }))];
    expect(writer.write(req)).toBe(JSON.stringify(req));
    // An open offer to everyone with no talk leaves both keys out, as JSON.stringify does.
    req.view.openTrade = { from: 0, give: { grain: 2 }, get: {} };
    req.view.talkLog = [];
    expect(writer.write(req)).toBe(JSON.stringify(req));
  });

  it('follow the bandit, new roads, towns and cities between frames of one writer', () => {
    const writer = new RequestFrameWriter();
    const req = base();
    expect(writer.write(req)).toBe(JSON.stringify(req));
    req.view.board.bandit = (req.view.board.bandit + 1) % 19;
    req.view.roads = [...req.view.roads, { edge: 71, seat: 3 }];
    expect(writer.write(req)).toBe(JSON.stringify(req));
    req.view.roads = req.view.roads.map((r, i) => (i === 0 ? { edge: r.edge, seat: (r.seat + 1) % 4 } : r));
    req.view.towns = req.view.towns.map((t, i) => (i === 0 ? { ...t, city: !t.city } : t));
    expect(writer.write(req)).toBe(JSON.stringify(req));
    req.view.towns = req.view.towns.slice(1);
    expect(writer.write(req)).toBe(JSON.stringify(req));
  });
});
