// The event log in words, newest last. Long matches have thousands of events:
// only the last LOG_WINDOW up to the current one are in the page.
import { useEffect, useRef } from 'react';
import { eventParts, type DescribeContext, type EventLike } from '../lib/describe';

export const LOG_WINDOW = 100;

export interface EventLogProps {
  events: readonly EventLike[];
  /** Index into events of the current event (replay); the last one when absent. */
  current?: number;
  ctx: DescribeContext;
  /** A live match: announce new lines to screen readers. */
  live?: boolean;
}

export function EventLog({ events, current, ctx, live = false }: EventLogProps) {
  const end = current === undefined ? events.length - 1 : current;
  const start = Math.max(0, end - LOG_WINDOW + 1);
  const shown = events.slice(start, end + 1);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [end, events.length]);
  return (
    <div
      className="log"
      ref={box}
      tabIndex={0}
      role="log"
      aria-live={live ? 'polite' : 'off'}
      aria-label={`Event log, ${events.length} events${start > 0 ? `, showing the last ${shown.length}` : ''}`}
      data-count={events.length}
      data-last-seq={events.length ? (events[events.length - 1].seq ?? events.length - 1) : -1}
    >
      <ol>
        {shown.map((ev, i) => {
          const idx = start + i;
          const cls = [
            idx === end && current !== undefined ? 'current' : '',
            ev.kind === 'timeout' || ev.kind === 'resign' ? 'strike' : '',
          ]
            .filter(Boolean)
            .join(' ');
          return (
            <li key={ev.seq ?? idx} className={cls || undefined} data-seq={ev.seq ?? idx} data-kind={ev.kind}>
              <span className="seq" aria-hidden="true">
                {ev.seq ?? idx}
              </span>
              <span>
                {eventParts(ev, ctx).map((p, k) =>
                  p.seat !== undefined ? (
                    <span key={k} className="who" data-seat={p.seat}>
                      <span className={`swatch seat${p.seat}`} aria-hidden="true" /> {p.text}
                    </span>
                  ) : p.mark ? (
                    <span key={k} className={`mark-${p.mark}`}>
                      {p.text}
                    </span>
                  ) : (
                    p.text
                  ),
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
