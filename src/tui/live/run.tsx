// Runs the live viewer in the terminal (alternate screen) while the session
// follows the match; returns when the user quits.
import React from 'react';
import { render } from 'ink';
import { LiveApp } from './app';
import type { LiveSession } from './session';

export interface RunLiveOptions {
  colour: boolean;
  showIds?: boolean;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  signals?: Pick<NodeJS.EventEmitter, 'once' | 'off'>;
}

const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export async function runLiveViewer(session: LiveSession, opts: RunLiveOptions): Promise<{ interrupted: boolean }> {
  const stdout = opts.stdout ?? process.stdout;
  const stdin = opts.stdin ?? process.stdin;
  const signals = opts.signals ?? process;
  let interrupted = false;
  // Errors show on the screen (the footer); the command reads session.error after.
  const following = session.run().catch(() => {});
  stdout.write(ENTER_ALT_SCREEN);
  try {
    const app = render(
      <LiveApp session={session} colour={opts.colour} showIds={opts.showIds} onQuit={(how) => { interrupted = how.interrupted; }} />,
      { stdout, stdin, exitOnCtrlC: false, patchConsole: false },
    );
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
    session.stop();
    await following;
    stdout.write(LEAVE_ALT_SCREEN);
  }
  return { interrupted };
}
