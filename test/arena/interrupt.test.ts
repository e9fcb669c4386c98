import { describe, expect, it } from 'vitest';
import { abortOnSigint } from '../../src/arena/interrupt';

describe('stopping a run by signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} aborts the run once, says so, and stops listening when released`, () => {
      const controller = new AbortController();
      const notes: string[] = [];
      const release = abortOnSigint(controller, (t) => notes.push(t));
      const before = process.listenerCount(signal);
      process.emit(signal, signal);
      expect(controller.signal.aborted).toBe(true);
      expect(notes[0]).toMatch(signal === 'SIGINT' ? /interrupted, aborting running matches/ : /terminated, aborting running matches/);
      release();
      expect(process.listenerCount(signal)).toBe(before - 1);
    });
  }
});
