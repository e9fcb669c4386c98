// `arena position REF --event N [--seat S]`: the request frame a seat was sent
// at one moment of a recorded match, rebuilt from the seed and the replay with
// the runner's own frame writer. Feed it to your bot under a debugger.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import { PLAY_DEFAULTS } from '../../arena/play-defaults';
import { CliError, usageError } from '../errors';
import type { CliIO } from '../io';
import { loadRecordRef, rebuildFromRecord, whole } from '../record-ref';

interface PositionFlags {
  event?: string;
  seat?: string;
  json?: boolean;
  url?: string;
  deadlineMs?: string;
  timeBank?: string;
}

export function register(program: Command, io: CliIO): void {
  program
    .command('position')
    .summary('print the exact request frame a seat was sent at one event of a recorded match')
    .description(
      'print the DecisionRequest frame a seat got at event N of a recorded match: the same bytes the runner sent ' +
        "(id, matchId, kind, deadlineMs and the seat's view), rebuilt from the seed and the replay. REF is what " +
        '`arena replay` takes: a match file, a directory (its newest record), - for stdin, or a match id on a server.',
    )
    .argument('<ref>', 'match.json file, directory of records, - for stdin, or match id on the server')
    .requiredOption(
      '--event <N>',
      'the event (1-based, as arena replay counts): the answer of a seat, or with --seat any event',
    )
    .option(
      '--seat <S>',
      "the seat (0-based); with it, an event that is not this seat's answer gives the seat's next request",
    )
    .option(
      '--json',
      'print {matchId, event, seat, id, kind, turn, deadlineExact, notes, recordedAnswer, frame} (frame parsed) instead of the bytes',
    )
    .option(
      '--deadline-ms <MS>',
      `the deadline the match was played with (default ${PLAY_DEFAULTS.deadlineMs}, arena play's)`,
    )
    .option(
      '--time-bank <SECONDS>',
      `the time bank the match was played with (default ${PLAY_DEFAULTS.timeBankSeconds}, arena play's)`,
    )
    .option('--url <URL>', 'server to fetch a match id from (default: $ARENA_URL, then the login profile)')
    .addHelpText(
      'after',
      `
The frame is printed as one line of JSON on stdout, byte for byte as the
runner sent it; what it answered and how exact it is go to stderr. So you can
hand the very input of a bad decision to your bot's decide function, in a test
or under a debugger:
  $ arena position runs/ --event 412 > frame.json

Which request: event N is usually an "action" event (arena replay shows its
number in the header): the request it answered. With --seat S, any event: the
first request of seat S answered at that event or after it.

What a record does not keep: the deadline the match ran with (give
--deadline-ms if it was not arena play's default). Records with decisions
(arena play's) keep each frame's timeBankMs and lastRttMs as sent, so the frame
is exact (deadlineMs is the smaller of the deadline and that bank). Older
records keep no per-decision time: give --time-bank if it was not the default;
when the seat's total thinking time leaves at least one deadline in the bank,
the bank never fell below the deadline and the frame is exact; otherwise arena
says so. Built-in bots are
asked in-process: for their seats this is the frame a socket bot would have got.

Examples:
  $ arena position runs/ --event 412
  $ arena position runs/m-20261127-ab12-0003.json --event 80 --seat 2 --json | jq .frame.view.hand
  $ arena position runs/ --event 412 > frame.json && node --inspect-brk my-bot-once.js frame.json`,
    )
    .action(async (ref: string, flags: PositionFlags) => {
      const event = whole('--event', flags.event, 1, 1, Number.MAX_SAFE_INTEGER);
      const seat = flags.seat === undefined ? undefined : whole('--seat', flags.seat, 0, 0, 3);
      const { record, origin } = await loadRecordRef(ref, io, flags.url);
      if (event > record.replay.length)
        throw usageError(`--event ${event}: the record has ${record.replay.length} events`);
      const rebuilt = await rebuildFromRecord(record, flags, { seat });
      const { requestAt } = await import('../../arena/recorded-requests');
      const { describeRecorded } = await import('../../arena/feed');
      const request = requestAt(rebuilt.requests, event, seat);
      if (!request) {
        const ev = record.replay[event - 1] as { kind: string; seat?: number };
        throw new CliError(
          seat === undefined
            ? `event ${event} (${ev.kind}${ev.seat === undefined ? '' : `, seat ${ev.seat}`}) is not the answer to a request; give --seat S for that seat's next request`
            : `seat ${seat} got no request answered at event ${event} or later`,
        );
      }
      const exact = rebuilt.deadlineExact[request.seat];
      const notes = rebuilt.notes;
      if (flags.json) {
        io.stdout.write(
          JSON.stringify(
            {
              matchId: record.id,
              event: request.event,
              seat: request.seat,
              id: request.id,
              kind: request.kind,
              turn: request.turn,
              deadlineExact: exact,
              notes,
              recordedAnswer: request.answer,
              frame: JSON.parse(request.frame.toString('utf8')),
            },
            null,
            2,
          ) + '\n',
        );
        return;
      }
      io.stdout.write(request.frame.toString('utf8') + '\n');
      io.stderr.write(
        `arena: ${origin}: seat ${request.seat}, decision ${request.id} (${request.kind}, turn ${request.turn}), answered at event ${request.event}: ${describeRecorded(request.answer)}\n`,
      );
      for (const note of notes) io.stderr.write(`arena: ${note}\n`);
    });
}
