// Progress on stderr: a redrawn line on a terminal, sparse plain lines otherwise,
// nothing at all when quiet. Data never goes here; stdout stays clean for pipes.
import { createStatusLine } from '../term/status-line';
import type { OutStream } from './io';

export interface Progress {
  update(line: string): void;
  /** Clears the live line (terminal) so the final output starts on a clean line. */
  done(): void;
  /** A message line of its own (shown even when quiet); the live line is redrawn at the next update. */
  note(text: string): void;
}

export function createProgress(opts: { quiet?: boolean; stream?: OutStream; intervalMs?: number } = {}): Progress {
  const stream = opts.stream ?? process.stderr;
  if (opts.quiet) return { update() {}, done() {}, note: (text) => void stream.write(text + '\n') };
  const tty = stream.isTTY === true;
  // Redraw at most every 100 ms on a terminal; print a plain line at most every 2 s otherwise.
  const interval = opts.intervalMs ?? (tty ? 100 : 2000);
  let last = 0;
  const line = createStatusLine(stream);
  return {
    update(text) {
      const now = Date.now();
      if (now - last < interval) return;
      last = now;
      if (tty) line.draw(text);
      else stream.write(text + '\n');
    },
    done() {
      line.clear();
    },
    note(text) {
      line.clear();
      stream.write(text + '\n');
      // Redraw at the next update, however soon.
      last = 0;
    },
  };
}
