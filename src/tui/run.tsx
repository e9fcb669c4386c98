import { ReplayApp } from './app';
import { runFullScreen, type FullScreenOptions, type ViewerExit } from './full-screen';
import type { Timeline } from './timeline';

export interface RunOptions extends FullScreenOptions {
  initialIndex: number;
  colour: boolean;
  showIds?: boolean;
}

export function runViewer(t: Timeline, opts: RunOptions): Promise<ViewerExit> {
  return runFullScreen(
    (onQuit) => (
      <ReplayApp
        timeline={t}
        initialIndex={opts.initialIndex}
        colour={opts.colour}
        showIds={opts.showIds}
        onQuit={onQuit}
      />
    ),
    opts,
  );
}

/** NO_COLOR (no-color.org): present and not empty turns colour off. */
export function colourWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return !(env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}
