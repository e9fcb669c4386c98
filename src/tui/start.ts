// Where the viewer opens: `--turn N|end` or `--event N` (1-based, as the header counts).
import { firstEventOfTurn, type Timeline } from './timeline';

export class StartPointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartPointError';
  }
}

export interface StartPoint {
  turn?: string;
  event?: string;
}

function wholeNumber(text: string, what: string): number {
  if (!/^[0-9]+$/.test(text)) throw new StartPointError(`${what} must be a whole number, got "${text}"`);
  return Number(text);
}

export function resolveStart(t: Timeline, at: StartPoint): number {
  if (at.turn !== undefined && at.event !== undefined) throw new StartPointError('give --turn or --event, not both');
  const last = t.events.length - 1;
  if (at.event !== undefined) {
    if (at.event === 'end') return last;
    const n = wholeNumber(at.event, '--event');
    if (n < 1 || n > t.events.length)
      throw new StartPointError(`--event ${n} is out of range: the match has events 1-${t.events.length}`);
    return n - 1;
  }
  if (at.turn !== undefined) {
    if (at.turn === 'end') return last;
    const n = wholeNumber(at.turn, '--turn');
    if (n > t.lastTurn)
      throw new StartPointError(
        `--turn ${n} is past the end: the match has turns 0 (setup) to ${t.lastTurn}; use --turn end for the final state`,
      );
    return firstEventOfTurn(t, n);
  }
  return 0;
}
