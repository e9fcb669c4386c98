// What a command may touch of its process, passed in (as gh does) so tests
// can run commands in-process with their own streams and environment, and no
// command writes to process.stdout behind the caller's back.

/** A writable stream; `isTTY` and `columns` decide live redraws and widths. */
export interface OutStream {
  write(chunk: string | Uint8Array): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIO {
  /** Data (what --json prints, tables, key material asked for). */
  stdout: OutStream;
  /** Progress, notes and errors. */
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** process.argv as given: argv[1] is the launcher, used to print runnable hints. */
  argv: readonly string[];
}

/** The real process's streams and environment. */
export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // On first use: opening stdin costs start-up time that most commands never need.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    argv: process.argv,
  };
}
