import { describe, expect, it } from 'vitest';
import { abortOnSigint } from '../../src/cli/interrupt';

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

  it('a second signal quits at once with 130 (SIGINT) or 143 (SIGTERM)', () => {
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      const listeners = new Map<string, (s: NodeJS.Signals) => void>();
      const exits: number[] = [];
      const source = {
        on: (s: NodeJS.Signals, l: (s: NodeJS.Signals) => void) => listeners.set(s, l),
        off: (s: NodeJS.Signals) => listeners.delete(s),
        exit: ((c: number) => {
          exits.push(c);
        }) as (code: number) => never,
      };
      const notes: string[] = [];
      const release = abortOnSigint(new AbortController(), (t) => notes.push(t), source);
      listeners.get(signal)!(signal);
      expect(exits).toEqual([]);
      listeners.get(signal)!(signal);
      expect(exits).toEqual([code]);
      expect(notes[1]).toMatch(/quitting now/);
      release();
      expect(listeners.size).toBe(0);
    }
  });
});
