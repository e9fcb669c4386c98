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
