import { runFullScreen, type FullScreenOptions, type ViewerExit } from '../full-screen';
import { LiveApp } from './app';
import type { LiveSession } from './session';

export interface RunLiveOptions extends FullScreenOptions {
  colour: boolean;
  showIds?: boolean;
}

export function runLiveViewer(session: LiveSession, opts: RunLiveOptions): Promise<ViewerExit> {
  // Errors show on the screen (the footer); the command reads session.error after.
  const following = session.run().catch(() => {});
  return runFullScreen(
    (onQuit) => <LiveApp session={session} colour={opts.colour} showIds={opts.showIds} onQuit={onQuit} />,
    opts,
    async () => {
      session.stop();
      await following;
    },
  );
}
