// `arena replay <match.json | DIR | match-id>`: verify a recorded match by
// rebuilding it with the engine, then step through it in the terminal (or
// print one moment with --plain). The work lives in src/tui.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { openSync } from 'node:fs';
import { ReadStream } from 'node:tty';
import type { Command } from 'commander';
import { CliError, EXIT, noServerError, usageError } from '../errors';
import type { CliIO } from '../io';
import { configuredServer } from '../public-server';
import { PLAIN_DEFAULT_WIDTH } from '../../tui/plain-width';
import { RECORD_LIMITS } from '../../arena/record-limits';
import type { Timeline } from '../../tui/timeline';

interface ReplayOptions {
  turn?: string;
  event?: string;
  plain?: boolean;
  width?: string;
  json?: boolean;
  ids?: boolean;
  url?: string;
  feed?: string;
  seat?: string;
  fromTurn?: string;
  waitMs?: string;
  deadlineMs?: string;
  timeBank?: string;
  web?: boolean;
  port?: string;
}

export function register(program: Command, io: CliIO): void {
  program
    .command('replay')
    .summary('step through a recorded match in the terminal')
    .description(
      'replay a match recorded by `arena play --out DIR`. The record is rebuilt from its seed and replay ' +
        'with the engine (a record that does not reproduce exactly is refused), then shown as the board, ' +
        'one panel per seat and the event log. REF is a match file, a directory (its newest record is ' +
        'opened), - for a record piped into stdin, or the id of a finished match on an arena server (fetched from --url, $ARENA_URL or the login profile).',
    )
    .argument('<ref>', 'match.json file, directory of records, - for stdin, or match id on the server')
    .option('--turn <N|end>', 'open at the start of turn N (0 = setup) or at the end')
    .option('--event <N|end>', 'open at event N (1-based, as the header counts)')
    .option('--plain', 'print one moment as plain text and exit (for pipes, diffs and tests)')
    .option(
      '--width <COLS>',
      `width of the --plain rendering (default: the terminal's, or ${PLAIN_DEFAULT_WIDTH} in a pipe)`,
    )
    .option('--ids', 'label vertices and hexes with their ids (the numbers the log uses); key i toggles')
    .option('--json', 'print the verified outcome and the state at --turn/--event as JSON, and exit')
    .option(
      '--url <URL>',
      'server to fetch a match id from (default: $ARENA_URL, then the login profile); no key needed',
    )
    .option(
      '--web',
      "show the replay in the browser instead (the dashboard's match page with the scrubber, each decision's time and the bots' notes) on 127.0.0.1, until Ctrl-C",
    )
    .option('--port <N>', 'with --web: the port (default 0: a free one)')
    .option(
      '--feed <BOT_URL>',
      "send --seat's recorded requests, in order, to the bot running at BOT_URL and compare its answers with the recorded ones",
    )
    .option('--seat <S>', 'with --feed: the seat (0-based) whose requests to send')
    .option('--from-turn <T>', 'with --feed: start at the first request of turn T (default 0, the setup)')
    .option(
      '--wait-ms <MS>',
      'with --feed: how long to wait for each answer (default 30000; the frames keep their recorded deadlineMs)',
    )
    .option('--deadline-ms <MS>', "with --feed: the deadline the match was played with (default arena play's, 5000)")
    .option('--time-bank <SECONDS>', "with --feed: the time bank the match was played with (default arena play's, 120)")
    .addHelpText(
      'after',
      `
Keys: space play/pause · ←/→ one event · ↑/↓ one turn · [ ] slower/faster · g jump to a turn
      s jump to a seat's next action · n/N next/previous strike · Home/End first/last event
      i ids · d bots' notes · ? help · q quit
Under the event: the acting seat's decision, its time (ms) and the bot's own note (debug), for
records that carry decisions (arena play's); --plain prints the note in full after the screen.
A strike's line says why: the reason (late, malformed, oversize, dropped, illegal), the decision
and, for an illegal answer, the engine's rejection code and message.

Board: letters are resources (B brick, L lumber, W wool, G grain, O ore, - desert), the number
under each letter is its token (6 and 8 marked *), X beside it is the bandit, (n) a settlement
and [n] a city of seat n, digits along the sides are seat n's roads, 2B / 3? on the coast are
ports. With --ids (key i) the corners show vertex ids and, on the small board, hex ids #n (Xn
under the bandit) take the place of the tokens. Colour only repeats what the characters say;
set NO_COLOR to turn it off.

When stdin is not a terminal (no keys), the viewer prints the --plain rendering instead.
q quits (exit 0); Ctrl-C quits as an interrupted run (exit 130).

REF - reads the record from stdin; the viewer then takes its keys from the terminal (/dev/tty).
A record is read only from a regular file, a pipe or stdin, of at most ${RECORD_LIMITS.fileBytes / (1024 * 1024)} MiB, nested at most
${RECORD_LIMITS.depth} levels, with no string over ${RECORD_LIMITS.stringChars / 1024} Ki characters; anything else is refused (exit 1).
The header (status, placements, VP, seats) must agree with the replayed game.

Regression test (--feed): arena replay REF --feed BOT_URL --seat S sends seat S's
recorded requests (rebuilt byte for byte, see arena position) to a running bot,
in order, on one WebSocket with a signed handshake as the runner makes it, and
compares each answer with the recorded one (as the engine reads answers:
unknown fields dropped). It prints the first decision where they differ (turn,
kind, event, recorded answer, new answer) and the counts; exit 0 when every
decision agrees, 1 otherwise. A decision struck for time or connection is not
compared (the record has no answer for it); one struck as illegal agrees when
the engine refuses the new answer with the same code. A bot that is
deterministic given its input should agree with its own records.

Examples:
  $ arena replay matches/                         newest match in matches/
  $ arena replay matches/m-0003.json --turn 40    open at turn 40
  $ arena replay matches/m-0003.json --plain --turn end > final.txt
  $ arena replay matches/m-0003.json --plain --ids --event 120   which vertex was that?
  $ arena replay matches/m-0003.json --json | jq .outcome
  $ gunzip -c m-0003.json.gz | arena replay - --turn end   a record from a pipe
  $ arena replay m_Xy3AbCdEfGhIjKlM --url https://arena.example.com   a finished match on a server
  $ arena replay runs/ --feed http://127.0.0.1:8080 --seat 1   does my bot still decide the same?
  $ arena replay runs/m-0003.json --feed http://127.0.0.1:8080 --seat 2 --from-turn 40 --wait-ms 600000   under a debugger`,
    )
    .action(async (ref: string, opts: ReplayOptions) => {
      if (opts.feed !== undefined) return feed(ref, opts, io);
      for (const flag of ['seat', 'fromTurn', 'waitMs', 'deadlineMs', 'timeBank'] as const) {
        if (opts[flag] !== undefined)
          throw usageError(`--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} goes with --feed`);
      }
      if (!ref.trim())
        throw usageError(
          'REF is empty: give a match.json file, a directory of records, - for stdin, or a match id on the server',
        );
      if (opts.web) return replayWeb(ref, opts, io);
      const width = parseWidth(opts.width);
      const ciSet = inCi(io.env);
      // A record piped into stdin (`-`) leaves the keys to the terminal itself, as `less` does.
      const keys =
        ref === '-' && !opts.plain && !opts.json && !ciSet && io.stdout.isTTY === true ? openTerminalKeys() : null;
      try {
        await replay(ref, opts, width, ciSet, keys ?? (io.stdin as NodeJS.ReadStream));
      } finally {
        keys?.destroy();
      }
    });

  async function replay(
    ref: string,
    opts: ReplayOptions,
    width: number | undefined,
    ciSet: boolean,
    keys: NodeJS.ReadStream,
  ): Promise<void> {
    // All at once: one after another, each waits for its own file reads.
    const [{ renderPlain }, { resolveStart, StartPointError }, { replaySummary }] = await Promise.all([
      import('../../tui/plain'),
      import('../../tui/start'),
      import('../../tui/summary'),
    ]);
    const terminal = keys.isTTY === true && io.stdout.isTTY === true;
    // One moment (--plain, --json, or no terminal for the viewer) needs one frame: build just that one.
    const oneMoment = opts.plain === true || opts.json === true || !terminal || ciSet;
    const timeline = await loadTimeline(ref, io, opts.url, oneMoment ? 'lazy' : 'all');
    let index: number;
    try {
      index = resolveStart(timeline, { turn: opts.turn, event: opts.event });
    } catch (err) {
      if (err instanceof StartPointError) throw usageError(err.message);
      throw err;
    }
    if (opts.json) {
      io.stdout.write(JSON.stringify(replaySummary(timeline, index), null, 2) + '\n');
      return;
    }
    // Ink draws only the final frame when it thinks it runs in CI (CI or
    // CONTINUOUS_INTEGRATION set), which would leave a blank screen.
    const interactive = !opts.plain && terminal && !ciSet;
    if (!opts.plain && !interactive) {
      io.stderr.write(
        ciSet && terminal
          ? 'arena: CI is set in the environment, so the live viewer cannot draw; printing --plain instead (unset CI to use the viewer)\n'
          : 'arena: not a terminal (keys need raw mode on stdin and a screen on stdout); printing --plain instead\n',
      );
    }
    if (!interactive) {
      io.stdout.write(
        renderPlain(
          timeline,
          index,
          width ?? (io.stdout.isTTY && io.stdout.columns ? io.stdout.columns : PLAIN_DEFAULT_WIDTH),
          { showIds: opts.ids },
        ),
      );
      return;
    }
    // Both are terminals here (checked above): Ink needs the real tty streams for raw mode and resizes.
    const { colourWanted, runViewer } = await import('../../tui/run');
    const exit = await runViewer(timeline, {
      initialIndex: index,
      colour: colourWanted(io.env),
      showIds: opts.ids,
      stdin: keys,
      stdout: io.stdout as NodeJS.WriteStream,
    });
    // Ctrl-C is an interruption, as for every command (README: exit codes); the screen already says nothing more.
    if (exit.interrupted) throw new CliError('', EXIT.interrupted);
  }
}

/** `--feed`: a seat's recorded requests to a running bot, answers compared (src/arena/feed.ts). */
async function feed(ref: string, opts: ReplayOptions, io: CliIO): Promise<void> {
  if (opts.seat === undefined) throw usageError('--feed needs --seat S: whose requests to send');
  const [
    { loadRecordRef, rebuildFromRecord, whole },
    { platformKeyOrFail },
    { FeedConnectError, feedSeat, describeNew, describeRecorded },
  ] = await Promise.all([import('../record-ref'), import('./play'), import('../../arena/feed')]);
  const seat = whole('--seat', opts.seat, 0, 0, 3);
  const fromTurn = whole('--from-turn', opts.fromTurn, 0, 0, 1000);
  const waitMs = whole('--wait-ms', opts.waitMs, 30_000, 1, 3_600_000);
  const url = opts.feed!.trim();
  if (!/^(https?|wss?):\/\/[^\s]+$/i.test(url)) throw usageError('--feed needs a bot URL (http, https, ws or wss)');
  const { record } = await loadRecordRef(ref, io, opts.url);
  const rebuilt = await rebuildFromRecord(record, opts, { seat, keepGames: true });
  const requests = rebuilt.requests.filter((r) => r.turn >= fromTurn);
  if (requests.length === 0)
    throw new CliError(`seat ${seat} got no request${fromTurn ? ` from turn ${fromTurn} on` : ''} in this match`);
  for (const note of rebuilt.notes) io.stderr.write(`arena: ${note}\n`);
  io.stderr.write(
    `arena: sending seat ${seat}'s ${requests.length} recorded request${requests.length === 1 ? '' : 's'} of ${record.id}${fromTurn ? ` from turn ${fromTurn}` : ''} to the bot\n`,
  );
  const key = await platformKeyOrFail(io);
  const report = await feedSeat(requests, { url, matchId: record.id, platformKey: key.privateKey, waitMs }).catch(
    (err: unknown) => {
      // A bot that cannot be reached is not a difference of decisions.
      if (err instanceof FeedConnectError)
        throw new CliError(`${err.message}; is the bot running? check it with: arena bot check <url>`);
      throw err;
    },
  );
  const first = report.firstDifference;
  const lines: string[] = [];
  if (first) {
    const r = first.request;
    lines.push(
      `first difference: turn ${r.turn}, ${r.kind}, decision ${r.id} (event ${r.event})${first.why ? `: ${first.why}` : ''}`,
    );
    lines.push(`  recorded: ${describeRecorded(r.answer)}`);
    lines.push(`  new:      ${describeNew(first.answer)}`);
  }
  const skipped = report.skipped ? `, ${report.skipped} not compared (struck for time or connection)` : '';
  lines.push(
    `${report.decisions} decision${report.decisions === 1 ? '' : 's'}: ${report.agreed} agree, ${report.differed} differ${skipped}`,
  );
  io.stdout.write(lines.join('\n') + '\n');
  if (report.differed > 0) throw new CliError('', EXIT.failure);
}

/** The controlling terminal as a key stream, or null without one (then the replay prints --plain). */
function openTerminalKeys(): NodeJS.ReadStream | null {
  try {
    return new ReadStream(openSync('/dev/tty', 'r'));
  } catch {
    return null;
  }
}

/** The same test Ink applies (the is-in-ci package): set and not "0" or "false". */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  return ['CI', 'CONTINUOUS_INTEGRATION'].some((k) => k in env && env[k] !== '0' && env[k] !== 'false');
}

function parseWidth(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < 40 || Number(text) > 1000)
    throw usageError(`--width must be a number of columns from 40 to 1000, got "${text}"`);
  return Number(text);
}

/** `--web`: the record's replay in the browser (the dashboard's match page), until Ctrl-C. */
async function replayWeb(ref: string, opts: ReplayOptions, io: CliIO): Promise<void> {
  const { parsePort, startLocalWebSession } = await import('../local-web');
  const port = parsePort(opts.port);
  const { record } = await loadVerified(ref, io, opts.url, 'lazy');
  const session = await startLocalWebSession(io, port, `/match/${encodeURIComponent(record.id)}`);
  session.games.add(record);
  await session.serveUntilStopped();
}

async function loadTimeline(
  ref: string,
  io: CliIO,
  url: string | undefined,
  frames: 'all' | 'lazy',
): Promise<Timeline> {
  return (await loadVerified(ref, io, url, frames)).timeline;
}

async function loadVerified(ref: string, io: CliIO, url: string | undefined, frames: 'all' | 'lazy') {
  const [
    { RecordLoadError, fileSource, directorySource, remoteSource, stdinSource },
    { ReplayVerifyError },
    { openVerifiedRecord },
  ] = await Promise.all([import('../../arena/load'), import('../../tui/timeline'), import('../../tui/open-timeline')]);
  // A match id goes to the server; its URL is looked up only when a reference gets that far.
  const sources = [
    stdinSource(io.stdin as AsyncIterable<Uint8Array> & { isTTY?: boolean }),
    fileSource,
    directorySource,
    remoteSource(() => configuredServer(io, url)),
  ];
  try {
    return await openVerifiedRecord(ref, sources, { frames });
  } catch (err) {
    if (err instanceof RecordLoadError && err.code === 'needs_server') throw noServerError(err.message);
    if (err instanceof RecordLoadError || err instanceof ReplayVerifyError) throw new CliError(err.message);
    throw err;
  }
}
