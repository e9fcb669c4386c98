// The viewer's key handling as a pure function of (timeline, state, key):
// the Ink app only feeds it keys and ticks, so every binding is testable
// without a terminal.
import { firstEventOfTurn, type Timeline } from './timeline';

/** Events per second while playing. */
export const SPEEDS = [1, 2, 4, 8, 16, 32, 64, 128] as const;
const DEFAULT_SPEED = 2;

export type Mode = 'normal' | 'help' | 'goto' | 'seat';

export interface ViewerState {
  index: number;
  playing: boolean;
  speed: number;
  mode: Mode;
  /** Digits typed after `g`. */
  typed: string;
  /** One-line message shown in the footer until the next key. */
  note: string | null;
  /** Board labels vertices and hexes with their ids. */
  showIds: boolean;
  /** The acting bot's notes show under the event (records with notes). */
  showNotes: boolean;
  quit: boolean;
  /** Quit by Ctrl-C: the command exits 130, as an interrupted run does. */
  interrupted: boolean;
}

/** The subset of Ink's Key flags the viewer reads. */
export interface KeyFlags {
  leftArrow?: boolean;
  rightArrow?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
}

export function initialState(index = 0, showIds = false): ViewerState {
  return {
    index,
    playing: false,
    speed: DEFAULT_SPEED,
    mode: 'normal',
    typed: '',
    note: null,
    showIds,
    showNotes: true,
    quit: false,
    interrupted: false,
  };
}

export function eventsPerSecond(s: ViewerState): number {
  return SPEEDS[s.speed];
}

const clamp = (t: Timeline, i: number) => Math.max(0, Math.min(t.events.length - 1, i));

/** One step of playback; stops at the last event. */
export function tick(t: Timeline, s: ViewerState): ViewerState {
  if (!s.playing) return s;
  const index = clamp(t, s.index + 1);
  return { ...s, index, playing: index < t.events.length - 1 };
}

function previousTurnStart(t: Timeline, index: number): number {
  const start = firstEventOfTurn(t, t.turnOf[index]);
  return start < index ? start : firstEventOfTurn(t, t.turnOf[index] - 1);
}

function nextTurnStart(t: Timeline, index: number): number {
  const turn = t.turnOf[index];
  return turn >= t.lastTurn ? t.events.length - 1 : firstEventOfTurn(t, turn + 1);
}

/** The next `action` event of a seat after `index`, or -1. */
export function nextActionOf(t: Timeline, seat: number, index: number): number {
  for (let i = index + 1; i < t.events.length; i++) {
    const ev = t.events[i];
    if (ev.kind === 'action' && ev.seat === seat) return i;
  }
  return -1;
}

/** Indexes of the match's strikes (`timeout` events), in order. */
export function strikeIndexes(t: Timeline): number[] {
  const out: number[] = [];
  for (let i = 0; i < t.events.length; i++) if (t.events[i].kind === 'timeout') out.push(i);
  return out;
}

/**
 * `n` / `N`: the next (or previous) strike after (before) the current event.
 * The event line then describes it (reason, decision, rejection code); the
 * note says which strike of how many it is.
 */
function jumpToStrike(t: Timeline, s: ViewerState, dir: 1 | -1): ViewerState {
  const strikes = strikeIndexes(t);
  if (strikes.length === 0) return { ...s, note: 'no strikes in this match' };
  const k = dir === 1 ? strikes.findIndex((i) => i > s.index) : strikes.findLastIndex((i) => i < s.index);
  if (k === -1)
    return {
      ...s,
      note:
        dir === 1
          ? `no later strike (N: previous; ${countText(strikes.length)})`
          : `no earlier strike (n: next; ${countText(strikes.length)})`,
    };
  return {
    ...s,
    playing: false,
    index: strikes[k],
    note: `strike ${k + 1} of ${strikes.length} in this match (n: next, N: previous)`,
  };
}

function countText(n: number): string {
  return `${n} strike${n === 1 ? '' : 's'} in this match`;
}

export function reduceKey(t: Timeline, s: ViewerState, input: string, key: KeyFlags): ViewerState {
  const base: ViewerState = { ...s, note: null };
  if (key.ctrl && input === 'c') return { ...base, quit: true, interrupted: true };

  if (s.mode === 'help') return { ...base, mode: 'normal' };

  if (s.mode === 'goto') {
    if (key.escape) return { ...base, mode: 'normal', typed: '' };
    if (key.backspace || key.delete) return { ...base, typed: s.typed.slice(0, -1) };
    if (key.return) {
      if (!s.typed) return { ...base, mode: 'normal' };
      const turn = Number(s.typed);
      if (turn > t.lastTurn)
        return {
          ...base,
          mode: 'normal',
          typed: '',
          note: `turn ${turn} is past the end: the match has ${t.lastTurn} turns`,
        };
      return { ...base, mode: 'normal', typed: '', playing: false, index: firstEventOfTurn(t, turn) };
    }
    if (/^[0-9]+$/.test(input) && s.typed.length < 4) return { ...base, typed: s.typed + input };
    return base;
  }

  if (s.mode === 'seat') {
    if (key.escape) return { ...base, mode: 'normal' };
    const seat = /^[0-9]$/.test(input) ? Number(input) : -1;
    if (seat < 0 || seat >= t.seatCount)
      return { ...base, note: `type a seat number 0-${t.seatCount - 1} (Esc cancels)` };
    const at = nextActionOf(t, seat, s.index);
    if (at === -1) return { ...base, mode: 'normal', note: `seat ${seat} has no later action` };
    return { ...base, mode: 'normal', playing: false, index: at };
  }

  if (input === 'q') return { ...base, quit: true };
  if (input === ' ') {
    // Playing from the last event restarts from the first.
    const atEnd = s.index >= t.events.length - 1;
    return { ...base, playing: !s.playing, index: !s.playing && atEnd ? 0 : s.index };
  }
  if (key.rightArrow) return { ...base, playing: false, index: clamp(t, s.index + 1) };
  if (key.leftArrow) return { ...base, playing: false, index: clamp(t, s.index - 1) };
  if (key.downArrow) return { ...base, playing: false, index: nextTurnStart(t, s.index) };
  if (key.upArrow) return { ...base, playing: false, index: previousTurnStart(t, s.index) };
  if (key.home) return { ...base, playing: false, index: 0 };
  if (key.end) return { ...base, playing: false, index: t.events.length - 1 };
  if (input === ']') return { ...base, speed: Math.min(SPEEDS.length - 1, s.speed + 1) };
  if (input === '[') return { ...base, speed: Math.max(0, s.speed - 1) };
  if (input === 'g') return { ...base, mode: 'goto', typed: '', playing: false };
  if (input === 's') return { ...base, mode: 'seat', playing: false };
  if (input === '?') return { ...base, mode: 'help', playing: false };
  if (input === 'i') return { ...base, showIds: !s.showIds };
  if (input === 'd')
    return {
      ...base,
      showNotes: !s.showNotes,
      note: s.showNotes ? "bots' notes hidden (d shows them)" : "bots' notes shown (d hides them)",
    };
  if (input === 'n') return jumpToStrike(t, base, 1);
  if (input === 'N') return jumpToStrike(t, base, -1);
  return base;
}

/**
 * Ink hands over a run of plain characters typed (or sent) at once as one
 * input, e.g. "g20\r"; the viewer treats it as the key presses it is.
 */
export function splitTyped(input: string, key: KeyFlags): Array<{ input: string; key: KeyFlags }> {
  if ([...input].length <= 1 || key.ctrl) return [{ input, key }];
  return [...input].map((c) =>
    c === '\r' || c === '\n' ? { input: '', key: { return: true } } : { input: c, key: {} },
  );
}

/** Applies every key press in one input to the state. */
export function reduceInput(t: Timeline, s: ViewerState, input: string, key: KeyFlags): ViewerState {
  return splitTyped(input, key).reduce((acc, p) => (acc.quit ? acc : reduceKey(t, acc, p.input, p.key)), s);
}
