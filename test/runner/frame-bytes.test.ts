// Frames are views of shared slabs (engine/json-bytes.ts): a frame taken
// must keep its bytes while later frames are written, across slab changes and
// frames that outgrow the slab mid-way.
import { describe, expect, it } from 'vitest';
import { createBuiltinBot, isOver, newGame, pendingDecisions, seatView, submit } from '../../engine';
import type { DecisionRequest } from '../../src/protocol';
import { SeatFrameWriter } from '../../src/runner/seat-frame';

describe('request frames on shared slabs', () => {
  it('every frame of a whole game still holds its own bytes at the end of the game', () => {
    const g = newGame('frame-bytes/1', 4);
    const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('random', `frame-bytes/1:${s}`));
    const seatFrames = new SeatFrameWriter();
    const kept: Array<[Buffer, string]> = [];
    let id = 1;
    while (!isOver(g)) {
      const pending = [...pendingDecisions(g)];
      for (const d of pending) {
        const req: DecisionRequest = {
          id,
          matchId: 'fb',
          game: 'pioneers',
          seat: d.seat,
          kind: d.kind,
          deadlineMs: 50,
          view: seatView(g, d.seat),
        };
        const want = JSON.stringify(req);
        kept.push([seatFrames.encode(id, 'fb', d.seat, d.kind, 50, g), want]);
        id++;
      }
      for (const d of pending) submit(g, d.seat, bots[d.seat].decide(g, d.seat));
    }
    // Several slabs' worth of frames (~2 KB each; a slab is 128 KB).
    expect(kept.reduce((n, [f]) => n + f.length, 0)).toBeGreaterThan(500_000);
    // Counted rather than compared one by one: a failure would print megabytes.
    expect(kept.filter(([frame, want]) => frame.toString('utf8') !== want).length).toBe(0);
  });

  it('frames larger than what is left of a slab (or than a slab) are whole, and earlier frames untouched', () => {
    const g = newGame('frame-bytes/2', 3);
    const writer = new SeatFrameWriter();
    const kept: Array<[Buffer, string]> = [];
    for (let k = 0; k < 12; k++) {
      // Talk lines far over the limit (the writer serialises what it is given): up to ~300 KB a frame.
      g.talkLog = Array.from({ length: 20 }, (_, i) => ({
        seat: i % 3,
        message: `${k}:${'✓"'.repeat(600 * (1 + (k % 5)) + i)}`,
        turn: i,
      }));
      const want = JSON.stringify({
        id: k,
        matchId: 'big',
        game: 'pioneers',
        seat: k % 3,
        kind: 'turn',
        deadlineMs: 5,
        view: seatView(g, k % 3),
      });
      const frame = writer.encode(k, 'big', k % 3, 'turn', 5, g);
      expect(frame.toString('utf8') === want).toBe(true);
      kept.push([frame, want]);
      // A small frame between the big ones, as frames alternate in a match.
      g.talkLog = [];
      const small = JSON.stringify({
        id: k,
        matchId: 'big',
        game: 'pioneers',
        seat: 0,
        kind: 'turn',
        deadlineMs: 5,
        view: seatView(g, 0),
      });
      kept.push([writer.encode(k, 'big', 0, 'turn', 5, g), small]);
    }
    expect(Math.max(...kept.map(([f]) => f.length))).toBeGreaterThan(262_144);
    expect(kept.filter(([frame, want]) => frame.toString('utf8') !== want).length).toBe(0);
  });
});
