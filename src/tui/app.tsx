// The interactive viewer: Ink draws the lines composeScreen produces, and
// feeds keys and playback ticks to the pure controls.
import { useEffect, useMemo, useState } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import { eventsPerSecond, initialState, reduceInput, strikeIndexes, tick, type ViewerState } from './controls';
import { useTerminalSize, type OnQuit } from './full-screen';
import { composeScreen, footerLine, helpOverlay } from './render/screen';
import { span, type Line } from './render/style';
import type { Timeline } from './timeline';

export interface ReplayAppProps {
  timeline: Timeline;
  initialIndex?: number;
  /** Start with vertex and hex ids on the board. */
  showIds?: boolean;
  /** False under NO_COLOR: shapes and letters only. */
  colour?: boolean;
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  width?: number;
  height?: number;
  onQuit?: OnQuit;
}

function footerFor(s: ViewerState, t: Timeline, keys: { strikes: boolean; width: number }): Line {
  if (s.mode === 'goto')
    return [
      span('jump to turn: ', { bold: true }),
      span(`${s.typed}_`),
      span(`  (0-${t.lastTurn}, Enter to go, Esc to cancel)`, { dim: true }),
    ];
  if (s.mode === 'seat')
    return [
      span('next action of seat: ', { bold: true }),
      span(`(0-${t.seatCount - 1}, Esc to cancel)`, { dim: true }),
    ];
  if (s.note) return [span(s.note, { color: 'yellow', bold: true })];
  return footerLine(keys);
}

function StyledLine({ line, colour }: { line: Line; colour: boolean }) {
  if (!line.length) return <Text> </Text>;
  return (
    <Text wrap="truncate">
      {line.map((s, i) => (
        <Text key={i} color={colour ? s.color : undefined} bold={s.bold} dimColor={s.dim} inverse={s.inverse}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}

export function ReplayApp({
  timeline,
  initialIndex = 0,
  showIds = false,
  colour = true,
  width,
  height,
  onQuit,
}: ReplayAppProps) {
  const { exit } = useApp();
  const size = useTerminalSize(width, height);
  const [state, setState] = useState<ViewerState>(() => initialState(initialIndex, showIds));
  const hasStrikes = useMemo(() => strikeIndexes(timeline).length > 0, [timeline]);

  useInput((input, key) => setState((s) => reduceInput(timeline, s, input, key)));

  useEffect(() => {
    if (!state.playing) return;
    const timer = setInterval(() => setState((s) => tick(timeline, s)), 1000 / eventsPerSecond(state));
    return () => clearInterval(timer);
  }, [state.playing, state.speed, timeline]);

  useEffect(() => {
    if (!state.quit) return;
    onQuit?.({ interrupted: state.interrupted });
    exit();
  }, [state.quit]);

  const status = state.playing ? `playing ${eventsPerSecond(state)}/s` : `paused (${eventsPerSecond(state)}/s)`;
  // One row short of the terminal: Ink clears the whole screen when output fills it.
  const lines = composeScreen(timeline, state.index, {
    width: size.width,
    height: Math.max(8, size.height - 1),
    status,
    footer: footerFor(state, timeline, { strikes: hasStrikes, width: size.width }),
    overlay: state.mode === 'help' ? helpOverlay() : undefined,
    showIds: state.showIds,
    showNotes: state.showNotes,
  });
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <StyledLine key={i} line={line} colour={colour} />
      ))}
    </Box>
  );
}
