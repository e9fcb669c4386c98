// Where the viewer opens (--turn / --event) and what --json reports.
import { describe, expect, it } from 'vitest';
import { resolveStart, StartPointError } from '../../src/tui/start';
import { replaySummary } from '../../src/tui/summary';
import { firstEventOfTurn } from '../../src/tui/timeline';
import { FIXTURE_4P, fixtureTimeline, readFixture } from './helpers';

const t = fixtureTimeline(FIXTURE_4P);
const last = t.events.length - 1;

describe('resolveStart', () => {
  it("opens at the start by default, at a turn's roll, at an event (1-based) or at the end", () => {
    expect(resolveStart(t, {})).toBe(0);
    expect(resolveStart(t, { turn: '0' })).toBe(0);
    expect(resolveStart(t, { turn: '50' })).toBe(firstEventOfTurn(t, 50));
    expect(t.events[resolveStart(t, { turn: '50' })].kind).toBe('roll');
    expect(resolveStart(t, { turn: 'end' })).toBe(last);
    expect(resolveStart(t, { event: '1' })).toBe(0);
    expect(resolveStart(t, { event: String(t.events.length) })).toBe(last);
  });

  it('refuses what is not there, saying what is', () => {
    const msg = (at: { turn?: string; event?: string }) => {
      try {
        resolveStart(t, at);
      } catch (err) {
        expect(err).toBeInstanceOf(StartPointError);
        return (err as Error).message;
      }
      throw new Error('expected a StartPointError');
    };
    expect(msg({ turn: '9999' })).toContain(`turns 0 (setup) to ${t.lastTurn}`);
    expect(msg({ turn: 'abc' })).toContain('whole number');
    expect(msg({ turn: '-3' })).toContain('whole number');
    expect(msg({ event: '0' })).toContain(`events 1-${t.events.length}`);
    expect(msg({ turn: '3', event: '4' })).toContain('not both');
  });
});

describe('replaySummary (--json)', () => {
  it('reports the verified outcome and the state at the chosen moment', () => {
    const record = readFixture(FIXTURE_4P);
    const doc = JSON.parse(JSON.stringify(replaySummary(t, resolveStart(t, { turn: '50' })))) as ReturnType<
      typeof replaySummary
    >;
    expect(doc.verified).toBe(true);
    expect(doc.outcome?.vp).toEqual(record.vp);
    expect(doc.at).toMatchObject({ turn: 50, kind: 'roll' });
    expect(doc.at.state.roads.length).toBeGreaterThan(0);
    expect(doc.seats.map((s) => s.name)).toEqual(t.names);
  });
});
