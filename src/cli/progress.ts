// Progress on stderr: a redrawn line on a terminal, sparse plain lines otherwise,
// nothing at all when quiet. Data never goes here; stdout stays clean for pipes.
export interface Progress {
  update(line: string): void;
  /** Clears the live line (terminal) so the final output starts on a clean line. */
  done(): void;
}

export function createProgress(opts: { quiet?: boolean; stream?: NodeJS.WriteStream; intervalMs?: number } = {}): Progress {
  const stream = opts.stream ?? process.stderr;
  if (opts.quiet) return { update() {}, done() {} };
  const tty = stream.isTTY === true;
  // Redraw at most every 100 ms on a terminal; print a plain line at most every 2 s otherwise.
  const interval = opts.intervalMs ?? (tty ? 100 : 2000);
  let last = 0;
  let shown = false;
  return {
    update(line) {
      const now = Date.now();
      if (now - last < interval) return;
      last = now;
      if (tty) {
        stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 80) - 1)}`);
        shown = true;
      } else {
        stream.write(line + '\n');
      }
    },
    done() {
      if (tty && shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
