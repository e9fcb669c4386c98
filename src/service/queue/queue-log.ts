// graphile-worker's log lines into the service log: its warnings and errors
// only (its info lines say every job it starts and ends; /metrics counts those).
import { Logger } from 'graphile-worker';
import type { ServiceLog } from '../ops/log-format';

export function queueLogger(log: ServiceLog): Logger {
  return new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') log({ event: 'queue.log', level, message });
  });
}
