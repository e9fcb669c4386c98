import { describe, expect, it } from 'vitest';
import {
  fillLegalActions,
  isOver,
  newGame,
  pendingDecisions,
  randInt,
  randomLegalAction,
  stream,
  submit,
} from '../../engine';
import type { AnyAction } from '../../engine';

describe('randomLegalAction', () => {
  it('picks exactly what a uniform draw over fillLegalActions picks, with the same random draws', () => {
    const list: AnyAction[] = [];
    const scratch: AnyAction[] = [];
    let checked = 0;
    for (const seed of ['rla-1', 'rla-2', 'rla-3', 'rla-4', 'rla-5']) {
      const g = newGame(seed, seed === 'rla-3' ? 3 : 4, { events: false });
      const fast = stream(seed, 'pick');
      const reference = stream(seed, 'pick');
      while (!isOver(g)) {
        const seat = pendingDecisions(g)[0].seat;
        const n = fillLegalActions(g, seat, list);
        const expected = list[randInt(reference, n)];
        const got = randomLegalAction(g, seat, scratch, fast);
        // Same answer (offers are built on demand, so compare by value) and the streams stay in step.
        expect(got).toEqual(expected);
        expect([...fast]).toEqual([...reference]);
        expect(submit(g, seat, got).ok).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });
});
