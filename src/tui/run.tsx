// Runs the interactive viewer in the terminal until the user quits, on the
// alternate screen so the shell's scrollback is left as it was.
import React from 'react';
import { render } from 'ink';
import { ReplayApp } from './app';
import type { Timeline } from './timeline';

export interface RunOptions {
  initialIndex: number;
  colour: boolean;
  showIds?: boolean;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';

export async function runViewer(t: Timeline, opts: RunOptions): Promise<void> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  stdout.write(ENTER_ALT_SCREEN);
  try {
    const app = render(<ReplayApp timeline={t} initialIndex={opts.initialIndex} colour={opts.colour} showIds={opts.showIds} />, {
      stdout, stdin, exitOnCtrlC: false, patchConsole: false,
    });
    await app.waitUntilExit();
    app.cleanup();
  } finally {
    stdout.write(LEAVE_ALT_SCREEN);
  }
}

/** NO_COLOR (no-color.org): present and not empty turns colour off. */
export function colourWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return !(env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}
