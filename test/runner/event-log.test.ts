// EventLog writes each replay event as an explicit literal instead of { seq, at, ...e }:
// this checks, on whole games and on the events the runner adds itself (strikes,
// resignations, aborts), that the result has the same keys in the same order and the same values;
// and that the replay built at the end stamps each event with the time of the flush that brought it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  abortGame,
  createBuiltinBot,
  gameEvents,
  isOver,
  newGame,
  pendingDecisions,
  recordStrike,
  resignSeat,
  submit,
} from '../../engine';
import type { GameEvent } from '../../engine/types';
import type { MatchEvent } from '../../src/protocol';
import { EventLog } from '../../src/runner/event-log';

function spreadForm(e: GameEvent, seq: number, at: string): MatchEvent {
  return { seq, at, ...e } as MatchEvent;
}

function expectSameAsSpread(events: readonly MatchEvent[], all: readonly GameEvent[]): void {
  expect(events.length).toBe(all.length);
  events.forEach((ev, i) => {
    const want = spreadForm(all[i], i, ev.at);
    expect(Object.keys(ev)).toEqual(Object.keys(want));
    expect(JSON.stringify(ev)).toBe(JSON.stringify(want));
  });
}

describe('EventLog', () => {
  it('writes the same events as { seq, at, ...e } over whole games, in order, to the log and the listener', () => {
    for (const [seed, n] of [
      ['event-log/1', 4],
      ['event-log/2', 3],
    ] as const) {
      const g = newGame(seed, n);
      const bots = Array.from({ length: n }, (_, s) => createBuiltinBot('random', `${seed}:${s}`));
      const heard: MatchEvent[] = [];
      let flushes = 0;
      const log = new EventLog(
        (e) => heard.push(e),
        () => flushes++,
      );
      log.flush(gameEvents(g));
      while (!isOver(g)) {
        for (const d of [...pendingDecisions(g)]) {
          const r = submit(g, d.seat, bots[d.seat].decide(g, d.seat));
          expect(r.ok).toBe(true);
        }
        log.flush(gameEvents(g));
      }
      expectSameAsSpread(log.events(), gameEvents(g));
      expect(heard).toEqual(log.events());
      expect(flushes).toBeGreaterThan(1);
      expect(new Set(log.events().map((e) => e.kind))).toContain('end');
    }
  });

  it("keeps the runner's own events (strike, resignation, abort) exactly as well", () => {
    const g = newGame('event-log/3', 4);
    const log = new EventLog();
    log.flush(gameEvents(g));
    const d = pendingDecisions(g)[0];
    recordStrike(g, d.seat, 'illegal', 1, d.kind, { code: 'not_your_decision', message: 'x' });
    recordStrike(g, d.seat, 'late', 2, d.kind);
    resignSeat(g, d.seat);
    abortGame(g);
    log.flush(gameEvents(g));
    const kinds = log.events().map((e) => e.kind);
    expect(kinds).toEqual(['start', 'timeout', 'timeout', 'resign', 'end']);
    // 'end' from an abort has no seat key at all; 'start' neither.
    expect('seat' in log.events()[0]).toBe(false);
    expect('seat' in log.events()[4]).toBe(false);
    expectSameAsSpread(log.events(), gameEvents(g));
  });

  describe('stamps', () => {
    afterEach(() => vi.useRealTimers());

    it('gives each event the time of its flush, in the replay built later as in what the listener heard', () => {
      vi.useFakeTimers();
      const g = newGame('event-log/4', 4);
      const bots = Array.from({ length: 4 }, (_, s) => createBuiltinBot('random', `event-log/4:${s}`));
      const heard: MatchEvent[] = [];
      const log = new EventLog((e) => heard.push(e));
      const step = () => {
        const d = pendingDecisions(g)[0];
        expect(submit(g, d.seat, bots[d.seat].decide(g, d.seat)).ok).toBe(true);
        log.flush(gameEvents(g));
      };
      const times = [
        '2026-01-01T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z',
        '2026-01-01T00:00:00.007Z',
        '2026-01-01T00:01:00.000Z',
      ];
      const firstOfFlush: number[] = [];
      vi.setSystemTime(new Date(times[0]));
      log.flush(gameEvents(g));
      for (const t of times.slice(1)) {
        vi.setSystemTime(new Date(t));
        firstOfFlush.push(gameEvents(g).length);
        step();
      }
      const events = log.events();
      expect(events).toEqual(heard);
      const bounds = [0, ...firstOfFlush, events.length];
      for (let f = 0; f < times.length; f++) {
        for (let i = bounds[f]; i < bounds[f + 1]; i++) expect(events[i].at).toBe(times[f]);
      }
      expect(new Set(events.map((e) => e.at)).size).toBe(3);
      // A flush with nothing new adds no stamp and changes nothing.
      vi.setSystemTime(new Date('2026-01-02T00:00:00.000Z'));
      log.flush(gameEvents(g));
      expect(log.events()).toEqual(events);
    });
  });
});
