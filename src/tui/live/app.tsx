// The live viewer: Ink draws composeLiveScreen for the session's state, at
// most every FRAME_MS however fast the match runs (a frame costs Ink tens of
// milliseconds of text measuring; five a second keep a watcher's CPU low and
// are as fast as anyone reads a log). Keys: q quits, i toggles
// ids, l jumps to live when a paced session is behind, ? shows the keys, Ctrl-C quits as an interruption. At `end` it
// stays on the final
// position until the user quits.
import { useEffect, useState } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import { useTerminalSize, type OnQuit } from '../full-screen';
import { span, type Line } from '../render/style';
import { lineToAnsi } from './ansi';
import { composeLiveScreen, liveFooter, liveHelp } from './screen';
import type { LiveSession } from './session';

export const FRAME_MS = 200;

export interface LiveAppProps {
  session: LiveSession;
  showIds?: boolean;
  colour?: boolean;
  width?: number;
  height?: number;
  onQuit?: OnQuit;
}

/** The session's state, redrawn at most every FRAME_MS (a fast match sends hundreds of events a second). */
function useSessionState(session: LiveSession) {
  const [state, setState] = useState(() => ({ live: session.state, error: session.error }));
  useEffect(() => {
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      timer = null;
      setState({ live: session.state, error: session.error });
    };
    const unsubscribe = session.subscribe(() => {
      timer ??= setTimeout(flush, FRAME_MS);
    });
    flush();
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [session]);
  return state;
}

/** One <Text> per line (see ansi.ts: one per span is too slow to redraw live). */
function AnsiLine({ line, colour }: { line: Line; colour: boolean }) {
  return <Text wrap="truncate">{line.length ? lineToAnsi(line, colour) : ' '}</Text>;
}

export function LiveApp({ session, showIds: initialIds = false, colour = true, width, height, onQuit }: LiveAppProps) {
  const { exit } = useApp();
  const size = useTerminalSize(width, height);
  const { live, error } = useSessionState(session);
  const [showIds, setShowIds] = useState(initialIds);
  const [quit, setQuit] = useState<{ interrupted: boolean } | null>(null);
  const [help, setHelp] = useState(false);

  useInput((input, key) => {
    if (key.ctrl && input === 'c') setQuit({ interrupted: true });
    else if (help)
      setHelp(false); // any key closes the help
    else if (input === '?') setHelp(true);
    else if (input === 'q' || key.escape) setQuit({ interrupted: false });
    else if (input === 'i') setShowIds((x) => !x);
    else if (input === 'l') session.jumpToLive();
  });

  useEffect(() => {
    if (!quit) return;
    session.stop();
    onQuit?.(quit);
    exit();
  }, [quit]);

  const footer: Line = error
    ? [
        span(`stopped following: ${error.message}  `, { color: 'red', bold: true }),
        span('q', { bold: true }),
        span(' quit'),
      ]
    : liveFooter(live);
  // One row short of the terminal: Ink clears the whole screen when output fills it.
  const lines = help
    ? liveHelp()
    : composeLiveScreen(live, { width: size.width, height: Math.max(8, size.height - 1), footer, showIds });
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <AnsiLine key={i} line={line} colour={colour} />
      ))}
    </Box>
  );
}
