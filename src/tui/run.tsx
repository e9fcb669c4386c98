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
  /** Where SIGINT and SIGTERM arrive (the process; tests pass their own emitter). */
  signals?: Pick<NodeJS.EventEmitter, 'once' | 'off'>;
}

export interface ViewerExit {
  /** Ctrl-C, SIGINT or SIGTERM ended the viewer, not q: the command exits 130. */
  interrupted: boolean;
}

const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export async function runViewer(t: Timeline, opts: RunOptions): Promise<ViewerExit> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  const signals = opts.signals ?? process;
  let interrupted = false;
  stdout.write(ENTER_ALT_SCREEN);
  try {
    const app = render(
      <ReplayApp timeline={t} initialIndex={opts.initialIndex} colour={opts.colour} showIds={opts.showIds} onQuit={(how) => { interrupted = how.interrupted; }} />,
      { stdout, stdin, exitOnCtrlC: false, patchConsole: false },
    );
    // In raw mode Ctrl-C arrives as a key; a signal (kill, a closing terminal)
    // still has to leave the alternate screen and restore the terminal.
    const onSignal = () => {
      interrupted = true;
      app.unmount();
    };
    for (const s of STOP_SIGNALS) signals.once(s, onSignal);
    try {
      await app.waitUntilExit();
    } finally {
      for (const s of STOP_SIGNALS) signals.off(s, onSignal);
      app.cleanup();
    }
  } finally {
    stdout.write(LEAVE_ALT_SCREEN);
  }
  return { interrupted };
}

/** NO_COLOR (no-color.org): present and not empty turns colour off. */
export function colourWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return !(env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}
