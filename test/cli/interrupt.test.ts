import { describe, expect, it } from 'vitest';
import { abortOnSigint, onStopSignals, SIGNAL_ECHO_MS } from '../../src/cli/interrupt';

describe('stopping a run by signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} aborts the run once, says so, and stops listening when released`, () => {
      const controller = new AbortController();
      const notes: string[] = [];
      const release = abortOnSigint(controller, (t) => notes.push(t));
      const before = process.listenerCount(signal);
      process.emit(signal, signal);
      expect(controller.signal.aborted).toBe(true);
      expect(notes[0]).toMatch(
        signal === 'SIGINT' ? /interrupted, aborting running matches/ : /terminated, aborting running matches/,
      );
      release();
      expect(process.listenerCount(signal)).toBe(before - 1);
    });
  }

  /** A signal source with its own clock, as `process` with a controllable performance.now(). */
  function fakeSource() {
    const listeners = new Map<string, (s: NodeJS.Signals) => void>();
    const exits: number[] = [];
    let ms = 1000;
    const source = {
      on: (s: NodeJS.Signals, l: (s: NodeJS.Signals) => void) => listeners.set(s, l),
      off: (s: NodeJS.Signals) => listeners.delete(s),
      exit: ((c: number) => {
        exits.push(c);
      }) as (code: number) => never,
      now: () => ms,
    };
    return {
      source,
      listeners,
      exits,
      send: (s: NodeJS.Signals) => listeners.get(s)!(s),
      wait: (d: number) => (ms += d),
    };
  }

  it('a second signal quits at once with 130 (SIGINT) or 143 (SIGTERM)', () => {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const f = fakeSource();
      const notes: string[] = [];
      const release = abortOnSigint(new AbortController(), (t) => notes.push(t), f.source);
      f.send(signal);
      expect(f.exits).toEqual([]);
      f.wait(SIGNAL_ECHO_MS);
      f.send(signal);
      expect(f.exits).toEqual([code]);
      expect(notes[1]).toMatch(/quitting now/);
      release();
      expect(f.listeners.size).toBe(0);
    }
  });

  it('the same signal again within the echo window is the echo `timeout` sends to the process group: ignored', () => {
    const f = fakeSource();
    const controller = new AbortController();
    const notes: string[] = [];
    abortOnSigint(controller, (t) => notes.push(t), f.source);
    f.send('SIGTERM');
    f.wait(SIGNAL_ECHO_MS - 1);
    f.send('SIGTERM');
    expect([controller.signal.aborted, f.exits, notes.length]).toEqual([true, [], 1]);
    // A different signal is never an echo.
    f.send('SIGINT');
    expect(f.exits).toEqual([130]);
  });

  it('serve, demo --serve and play share it: onStopSignals calls first once and again on a real second signal', () => {
    const f = fakeSource();
    const calls: string[] = [];
    const release = onStopSignals(
      f.source,
      (s) => calls.push(`first ${s}`),
      (s) => calls.push(`again ${s}`),
    );
    f.send('SIGINT');
    f.send('SIGINT');
    f.wait(500);
    f.send('SIGINT');
    expect(calls).toEqual(['first SIGINT', 'again SIGINT']);
    release();
    expect(f.listeners.size).toBe(0);
  });
});
