// The engine's view writer (engine/view-bytes.ts) against seatView: the bytes
// it writes are JSON.stringify(seatView(g, seat)) for every seat at every
// decision of whole games (trades, talk, awards and the end included).
import { describe, expect, it } from 'vitest';
import { createBuiltinBot, isOver, newGame, pendingDecisions, seatView, submit, type Game } from '../../engine';
import { beginFrame, SeatViewBytes, takeFrame } from '../../engine/view-bytes';

const viewText = (w: SeatViewBytes, g: Game, seat: number) =>
  takeFrame(w.write(beginFrame(), g, seat)).toString('utf8');

describe('SeatViewBytes', () => {
  it('writes exactly JSON.stringify(seatView) for every seat of whole games', () => {
    let compared = 0;
    let differ = 0;
    for (const [seed, n] of [
      ['view-bytes/1', 4],
      ['view-bytes/2', 3],
    ] as const) {
      const g = newGame(seed, n);
      const bots = Array.from({ length: n }, (_, s) => createBuiltinBot('random', `${seed}:${s}`));
      const w = new SeatViewBytes();
      for (;;) {
        for (let seat = 0; seat < n; seat++) {
          compared++;
          if (viewText(w, g, seat) !== JSON.stringify(seatView(g, seat))) differ++;
        }
        if (isOver(g)) break;
        for (const d of [...pendingDecisions(g)]) submit(g, d.seat, bots[d.seat].decide(g, d.seat));
      }
    }
    // Counted rather than compared one by one: a failure would print megabytes.
    expect(compared).toBeGreaterThan(1000);
    expect(differ).toBe(0);
  });

  it('follows a new game given to the same writer (its board, roads and towns)', () => {
    const w = new SeatViewBytes();
    const a = newGame('view-bytes/a', 4);
    const b = newGame('view-bytes/b', 3);
    expect(viewText(w, a, 1)).toBe(JSON.stringify(seatView(a, 1)));
    expect(viewText(w, b, 2)).toBe(JSON.stringify(seatView(b, 2)));
    expect(viewText(w, a, 0)).toBe(JSON.stringify(seatView(a, 0)));
  });

  it('refuses a seat the game does not have, as seatView does', () => {
    const g = newGame('view-bytes/c', 3);
    const w = new SeatViewBytes();
    expect(() => seatView(g, 3)).toThrow(RangeError);
    expect(() => w.write(beginFrame(), g, 3)).toThrow(RangeError);
    expect(() => w.write(beginFrame(), g, -1)).toThrow(RangeError);
  });
});
