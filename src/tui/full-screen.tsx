// What the replay and live viewers share around their Ink apps: the
// alternate screen (the shell's scrollback is left as it was), signals that
// end the app like Ctrl-C does, and the terminal size, following resizes.
import type React from 'react';
import { useEffect, useState } from 'react';
import { render, useStdout } from 'ink';

export interface FullScreenOptions {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** Where SIGINT and SIGTERM arrive (the process; tests pass their own emitter). */
  signals?: Pick<NodeJS.EventEmitter, 'once' | 'off'>;
}

export interface ViewerExit {
  /** Ctrl-C, SIGINT or SIGTERM ended the viewer, not q: the command exits 130. */
  interrupted: boolean;
}

/** Called by the app once when the user quits: `interrupted` when by Ctrl-C. */
export type OnQuit = (how: ViewerExit) => void;

const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Renders `app(onQuit)` on the alternate screen until it exits; `beforeLeave`
 * runs after it has, while the alternate screen is still up.
 */
export async function runFullScreen(
  app: (onQuit: OnQuit) => React.ReactElement,
  opts: FullScreenOptions,
  beforeLeave?: () => Promise<void>,
): Promise<ViewerExit> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  const signals = opts.signals ?? process;
  let interrupted = false;
  stdout.write(ENTER_ALT_SCREEN);
  try {
    const ink = render(
      app((how) => {
        interrupted = how.interrupted;
      }),
      { stdout, stdin, exitOnCtrlC: false, patchConsole: false },
    );
    // In raw mode Ctrl-C arrives as a key; a signal (kill, a closing terminal)
    // still has to leave the alternate screen and restore the terminal.
    const onSignal = () => {
      interrupted = true;
      ink.unmount();
    };
    for (const s of STOP_SIGNALS) signals.once(s, onSignal);
    try {
      await ink.waitUntilExit();
    } finally {
      for (const s of STOP_SIGNALS) signals.off(s, onSignal);
      ink.cleanup();
    }
  } finally {
    await beforeLeave?.();
    stdout.write(LEAVE_ALT_SCREEN);
  }
  return { interrupted };
}

/** The terminal's size, following resizes, or a fixed one (tests). */
export function useTerminalSize(fixedWidth?: number, fixedHeight?: number): { width: number; height: number } {
  const { stdout } = useStdout();
  const read = () => ({ width: fixedWidth ?? stdout.columns ?? 80, height: fixedHeight ?? stdout.rows ?? 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixedWidth, fixedHeight]);
  return size;
}
