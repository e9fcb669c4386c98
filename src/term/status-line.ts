// One redrawn status line on a terminal: each draw replaces the previous text
// (carriage return + erase line), cut to the terminal's width so it never wraps.
export interface LineSink {
  write(text: string): unknown;
  columns?: number;
}

export interface StatusLine {
  draw(text: string): void;
  /** Erases the line if something is shown, so normal output starts clean. */
  clear(): void;
}

export function createStatusLine(stream: LineSink): StatusLine {
  let shown = false;
  return {
    draw(text) {
      stream.write(`\r\x1b[2K${text.slice(0, Math.max(20, (stream.columns || 100) - 1))}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
