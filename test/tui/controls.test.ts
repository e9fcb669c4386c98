// Key bindings as pure state transitions over the known match.
import { describe, expect, it } from 'vitest';
import {
  SPEEDS,
  initialState,
  nextActionOf,
  reduceInput,
  reduceKey,
  tick,
  type ViewerState,
} from '../../src/tui/controls';
import { colourWanted } from '../../src/tui/run';
import { firstEventOfTurn } from '../../src/tui/timeline';
import { FIXTURE_4P, fixtureTimeline } from './helpers';

const t = fixtureTimeline(FIXTURE_4P);
const last = t.events.length - 1;
const at = (index: number): ViewerState => initialState(index);

describe('reduceKey', () => {
  it('→ and ← step one event and stop at both ends', () => {
    expect(reduceKey(t, at(5), '', { rightArrow: true }).index).toBe(6);
    expect(reduceKey(t, at(5), '', { leftArrow: true }).index).toBe(4);
    expect(reduceKey(t, at(0), '', { leftArrow: true }).index).toBe(0);
    expect(reduceKey(t, at(last), '', { rightArrow: true }).index).toBe(last);
  });

  it("↓ goes to the next turn's roll; ↑ to the start of this turn, then the one before", () => {
    const t10 = firstEventOfTurn(t, 10);
    expect(reduceKey(t, at(t10), '', { downArrow: true }).index).toBe(firstEventOfTurn(t, 11));
    expect(reduceKey(t, at(t10 + 3), '', { upArrow: true }).index).toBe(t10);
    expect(reduceKey(t, at(t10), '', { upArrow: true }).index).toBe(firstEventOfTurn(t, 9));
    expect(reduceKey(t, at(firstEventOfTurn(t, t.lastTurn)), '', { downArrow: true }).index).toBe(last);
  });

  it('g then digits and Enter jumps to that turn; past the end it says so and stays', () => {
    const typed = reduceInput(t, at(0), 'g42\r', {});
    expect(typed.index).toBe(firstEventOfTurn(t, 42));
    expect(typed.mode).toBe('normal');
    const past = reduceInput(t, at(7), 'g999\r', {});
    expect(past.index).toBe(7);
    expect(past.note).toContain('past the end');
    const cancelled = reduceKey(t, reduceInput(t, at(7), 'g4', {}), '', { escape: true });
    expect(cancelled).toMatchObject({ index: 7, mode: 'normal' });
  });

  it("s then a seat digit jumps to that seat's next action", () => {
    const from = firstEventOfTurn(t, 20);
    for (let seat = 0; seat < t.seatCount; seat++) {
      const s = reduceInput(t, at(from), `s${seat}`, {});
      expect(s.index).toBeGreaterThan(from);
      expect(t.events[s.index]).toMatchObject({ kind: 'action', seat });
      expect(s.index).toBe(nextActionOf(t, seat, from));
    }
    const bad = reduceInput(t, at(from), 's7', {});
    expect(bad.mode).toBe('seat');
    expect(bad.note).toContain('0-3');
  });

  it('[ and ] change speed within bounds; space plays and pauses', () => {
    let s = at(0);
    for (let i = 0; i < 20; i++) s = reduceKey(t, s, ']', {});
    expect(SPEEDS[s.speed]).toBe(SPEEDS[SPEEDS.length - 1]);
    for (let i = 0; i < 20; i++) s = reduceKey(t, s, '[', {});
    expect(SPEEDS[s.speed]).toBe(1);
    s = reduceKey(t, s, ' ', {});
    expect(s.playing).toBe(true);
    expect(tick(t, s).index).toBe(1);
    expect(reduceKey(t, s, ' ', {}).playing).toBe(false);
  });

  it('playback stops at the last event, and space there restarts from the first', () => {
    const playing = { ...at(last - 1), playing: true };
    const end = tick(t, playing);
    expect(end).toMatchObject({ index: last, playing: false });
    expect(reduceKey(t, end, ' ', {})).toMatchObject({ index: 0, playing: true });
  });

  it('i toggles the id labels', () => {
    const on = reduceKey(t, at(3), 'i', {});
    expect(on.showIds).toBe(true);
    expect(reduceKey(t, on, 'i', {}).showIds).toBe(false);
  });

  it('q quits; Ctrl-C quits as an interruption (exit 130); ? opens help and any key closes it', () => {
    expect(reduceKey(t, at(3), 'q', {})).toMatchObject({ quit: true, interrupted: false });
    expect(reduceKey(t, reduceKey(t, at(3), 'g', {}), 'c', { ctrl: true })).toMatchObject({
      quit: true,
      interrupted: true,
    });
    expect(reduceKey(t, reduceKey(t, at(3), '?', {}), 'c', { ctrl: true })).toMatchObject({
      quit: true,
      interrupted: true,
    });
    const help = reduceKey(t, at(3), '?', {});
    expect(help.mode).toBe('help');
    expect(reduceKey(t, help, 'q', {})).toMatchObject({ mode: 'normal', quit: false });
  });
});

describe('colourWanted', () => {
  it('follows NO_COLOR: set and not empty turns colour off', () => {
    expect(colourWanted({})).toBe(true);
    expect(colourWanted({ NO_COLOR: '' })).toBe(true);
    expect(colourWanted({ NO_COLOR: '1' })).toBe(false);
  });
});
