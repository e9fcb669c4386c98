// `arena watch MATCH-ID`: follow a match live from the server's stream (GET
// /matches/{id}/live): board, seat panels and the event log, as it happens,
// reconnecting where it left off when the connection drops. At the end it
// stays on the final position until q. --plain prints a line per event.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import { CliError, EXIT, usageError } from '../errors';
import type { CliIO } from '../io';
import { PUBLIC_HELP, urlOption, withPublic } from '../public-server';
import { inCi } from './replay';

interface WatchFlags {
  plain?: boolean;
  ids?: boolean;
  speed?: string;
  url?: string;
}

/** Events a second the viewer shows by default: a few, as fast as anyone follows a log. */
export const DEFAULT_SPEED = 5;

export function register(program: Command, io: CliIO): void {
  urlOption(
    program
      .command('watch')
      .exitOverride()
      .summary('follow a match live in the terminal')
      .description(
        'follow a running match on the arena server as it is played: the board, one panel per seat and the event log, from the public live stream (card and dev card counts, never hands; no seed). If the connection drops, it reconnects and resumes where it left off. When the match ends the final position stays on screen until you quit. A finished match shows its final position.',
      )
      .argument('<MATCH-ID>', 'the match, e.g. from `arena matches list --status running`')
      .option(
        '--plain',
        'print one line per event (and one for the end) instead of the viewer, for pipes and logs; exits when the match ends',
      )
      .option('--ids', 'label vertices and hexes with their ids (the numbers the log uses); key i toggles')
      .option(
        '--speed <EVENTS_PER_SECOND>',
        `the viewer shows at most this many events a second: a match played faster (quick bots finish in under a second) is replayed at this pace, "N events behind live" in the header, and key l jumps to live; 0 shows events as they come (default: ${DEFAULT_SPEED}; --plain is never paced)`,
      ),
  )
    .addHelpText(
      'after',
      `
Keys: q quit · i ids · l jump to live (when behind) · ? help · Ctrl-C quit (exit 130)

Panels: VP is public VP (hidden VP cards are not counted until the end);
cards and dev are how many each seat holds; strikes count late, malformed,
oversized, dropped or illegal answers (three resign the seat).

When stdout is not a terminal the viewer prints --plain lines instead.
Connection notes (lost, reconnecting) go to stderr.

Examples:
  $ arena watch m_Xy3AbCdEfGhIjKlM
  $ arena watch "$(arena matches list --status running --limit 1 --json | jq -r '.matches[0].id')"
  $ arena watch m_Xy3AbCdEfGhIjKlM --plain | grep strike
${PUBLIC_HELP}`,
    )
    .action(async (id: string, flags: WatchFlags) => {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw usageError(`MATCH-ID looks like m_Xy3AbCdEfGhIjKlM, got "${id}"`);
      const speed = flags.speed === undefined ? DEFAULT_SPEED : Number(flags.speed);
      if (!/^\d+(\.\d+)?$/.test(flags.speed ?? '0') || speed > 10_000)
        throw usageError(
          `--speed must be a number of events a second from 0 to 10000 (0: as they come), got "${flags.speed}"`,
        );
      const { LiveSession } = await import('../../tui/live/session');
      const { followLive, LiveStreamError } = await import('../../client/live');
      const terminal = io.stdin.isTTY === true && io.stdout.isTTY === true;
      const ciSet = inCi(io.env);
      const interactive = !flags.plain && terminal && !ciSet;
      await withPublic(io, flags.url, async (baseUrl) => {
        // Only once the server URL is known good: a bad --url says only that.
        if (!flags.plain && !interactive) {
          io.stderr.write(
            ciSet && terminal
              ? 'arena: CI is set in the environment, so the live viewer cannot draw; printing --plain lines instead (unset CI to use the viewer)\n'
              : 'arena: not a terminal (keys need raw mode on stdin and a screen on stdout); printing --plain lines instead\n',
          );
        }
        const note = (line: string) => void io.stderr.write(`arena watch: ${line}\n`);
        if (!interactive) {
          const { PlainPrinter } = await import('../../tui/live/plain');
          const printer = new PlainPrinter((line) => void io.stdout.write(line + '\n'));
          let lost = false;
          const session = new LiveSession({
            baseUrl,
            matchId: id,
            follow: followLive,
            onMessage: (msg, state) => printer.take(msg, state),
            onConnection: (c) => {
              if (c.state === 'reconnecting') {
                lost = true;
                note(`connection lost (${c.reason}); retrying in ${(c.delayMs / 1000).toFixed(1)} s`);
              } else if (c.state === 'open' && lost) {
                lost = false;
                note('reconnected; resuming after the last event shown');
              }
            },
          });
          try {
            await session.run();
          } catch (err) {
            if (err instanceof LiveStreamError)
              throw new CliError(
                err.code === 'not_found'
                  ? `no match ${id} on ${baseUrl}; \`arena matches list\` shows the recent ones`
                  : err.message,
              );
            throw err;
          }
          return;
        }
        // Make sure the match exists before taking over the screen.
        const { getMatch } = await import('../../client/public');
        await getMatch({ baseUrl }, id);
        const { runLiveViewer } = await import('../../tui/live/run');
        const { colourWanted } = await import('../../tui/run');
        const session = new LiveSession({ baseUrl, matchId: id, follow: followLive, eventsPerSecond: speed });
        const exit = await runLiveViewer(session, {
          colour: colourWanted(io.env),
          showIds: flags.ids,
          stdin: io.stdin as NodeJS.ReadStream,
          stdout: io.stdout as NodeJS.WriteStream,
        });
        if (exit.interrupted) throw new CliError('', EXIT.interrupted);
        if (session.error) throw new CliError(`stopped following match ${id}: ${session.error.message}`);
      });
    });
}
