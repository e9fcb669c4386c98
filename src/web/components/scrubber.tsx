// Replay controls: play/pause, step, speed, a slider over every event, jump
// to a turn, and a link that opens the match at the current event. Every
// control is a native element with a visible or aria label, so it works with
// the keyboard alone.
import { useEffect, useState, type FormEvent } from 'react';
import { eventOfTurn } from '../lib/replay';
import { paths } from '../router';

export const SPEEDS = [1, 2, 4, 8, 16] as const;
/** Events per second at speed 1×. */
const BASE_RATE = 4;

export interface ScrubberProps {
  matchId: string;
  index: number;
  count: number;
  turns: readonly number[];
  onChange: (index: number) => void;
}

export function Scrubber({ matchId, index, count, turns, onChange }: ScrubberProps) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(4);
  const [turnInput, setTurnInput] = useState('');
  const last = count - 1;
  const maxTurn = turns.length ? turns[turns.length - 1] : 0;

  useEffect(() => {
    if (!playing) return;
    if (index >= last) {
      setPlaying(false);
      return;
    }
    const t = setTimeout(() => onChange(Math.min(last, index + 1)), 1000 / (BASE_RATE * speed));
    return () => clearTimeout(t);
  }, [playing, index, last, speed, onChange]);

  const jump = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(turnInput);
    if (!Number.isInteger(n)) return;
    setPlaying(false);
    onChange(eventOfTurn(turns, Math.max(0, Math.min(maxTurn, n))));
  };

  const link = paths.match(matchId, index);
  return (
    <div className="scrubber" role="group" aria-label="Replay controls">
      <input
        type="range"
        min={0}
        max={last}
        value={index}
        aria-label="Event"
        aria-valuetext={`Event ${index} of ${last}, turn ${turns[index] ?? 0}`}
        onChange={(e) => {
          setPlaying(false);
          onChange(Number(e.target.value));
        }}
      />
      <button
        type="button"
        onClick={() => {
          setPlaying(false);
          onChange(0);
        }}
        disabled={index === 0}
        aria-label="First event"
      >
        «
      </button>
      <button
        type="button"
        onClick={() => {
          setPlaying(false);
          onChange(Math.max(0, index - 1));
        }}
        disabled={index === 0}
        aria-label="Step back"
      >
        ◀
      </button>
      <button
        type="button"
        className="primary"
        onClick={() => {
          if (!playing && index >= last) onChange(0);
          setPlaying(!playing);
        }}
        aria-label={playing ? 'Pause' : 'Play'}
        aria-pressed={playing}
      >
        {playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <button
        type="button"
        onClick={() => {
          setPlaying(false);
          onChange(Math.min(last, index + 1));
        }}
        disabled={index >= last}
        aria-label="Step forward"
      >
        ▶
      </button>
      <button
        type="button"
        onClick={() => {
          setPlaying(false);
          onChange(last);
        }}
        disabled={index >= last}
        aria-label="Last event"
      >
        »
      </button>
      <label className="inline">
        Speed
        <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
      <form className="row" onSubmit={jump}>
        <label className="inline">
          Turn
          <input
            type="number"
            min={0}
            max={maxTurn}
            value={turnInput}
            onChange={(e) => setTurnInput(e.target.value)}
            placeholder={String(turns[index] ?? 0)}
          />
        </label>
        <button type="submit">Go to turn</button>
      </form>
      <span aria-live={playing ? 'off' : 'polite'} className="muted" data-testid="position">
        Event {index} of {last} · turn {turns[index] ?? 0}
      </span>
      <a href={link} data-testid="event-link">
        Link to event {index}
      </a>
    </div>
  );
}
