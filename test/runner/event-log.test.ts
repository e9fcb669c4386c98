// EventLog writes each replay event as an explicit literal instead of { seq, at, ...e }:
// this checks, on whole games and on the events the runner adds itself (strikes,
// resignations, aborts), that the result has the same keys in the same order and the same values.
import { describe, expect, it } from 'vitest';
import {
  abortGame, createBuiltinBot, gameEvents, isOver, newGame, pendingDecisions, recordStrike, resignSeat, submit,
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
    for (const [seed, n] of [['event-log/1', 4], ['event-log/2', 3]] as const) {
      const g = newGame(seed, n);
      const bots = Array.from({ length: n }, (_, s) => createBuiltinBot('random', `${seed}:${s}`));
      const heard: MatchEvent[] = [];
      let flushes = 0;
      const log = new EventLog((e) => heard.push(e), () => flushes++);
      log.flush(gameEvents(g));
      while (!isOver(g)) {
        for (const d of [...pendingDecisions(g)]) {
          const r = submit(g, d.seat, bots[d.seat].decide(g, d.seat));
          expect(r.ok).toBe(true);
        }
        log.flush(gameEvents(g));
      }
      expectSameAsSpread(log.events, gameEvents(g));
      expect(heard).toEqual(log.events);
      expect(flushes).toBeGreaterThan(1);
      expect(new Set(log.events.map((e) => e.kind))).toContain('end');
    }
  });

  it('keeps the runner\'s own events (strike, resignation, abort) exactly as well', () => {
    const g = newGame('event-log/3', 4);
    const log = new EventLog();
    log.flush(gameEvents(g));
    const d = pendingDecisions(g)[0];
    recordStrike(g, d.seat, 'illegal', 1, d.kind, { code: 'not_your_decision', message: 'x' });
    recordStrike(g, d.seat, 'late', 2, d.kind);
    resignSeat(g, d.seat);
    abortGame(g);
    log.flush(gameEvents(g));
    const kinds = log.events.map((e) => e.kind);
    expect(kinds).toEqual(['start', 'timeout', 'timeout', 'resign', 'end']);
    // 'end' from an abort has no seat key at all; 'start' neither.
    expect('seat' in log.events[0]).toBe(false);
    expect('seat' in log.events[4]).toBe(false);
    expectSameAsSpread(log.events, gameEvents(g));
  });
});
