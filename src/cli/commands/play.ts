// `arena play`: a local tournament between bot URLs and built-in bots.
// Thin layer: options -> src/arena planPlay -> deploy check -> runTournament.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import { ArenaInputError, BUILTIN_NAMES } from '../../arena/bots';
import { PLAY_DEFAULTS } from '../../arena/play-defaults';
import type { PlayPlan } from '../../arena/play-options';
import type { TournamentSummary } from '../../arena/summary';
import type { PlatformKey } from '../../config/platform-key';
import { KeyError } from '../../keys/errors';
import { CliError, EXIT, usageError } from '../errors';
import { arenaCommand, shellWord } from '../invocation';
import type { CliIO } from '../io';
import type { LocalGames } from '../../web-local/server';

interface PlayFlags {
  games?: string;
  seed?: string;
  seats?: string;
  concurrency?: string;
  deadlineMs?: string;
  timeBank?: string;
  out?: string;
  json?: boolean;
  verbose?: boolean;
  printPlatformKey?: boolean;
  duplicate?: boolean;
  untilDecided?: boolean;
  web?: boolean;
  port?: string;
}

export function register(program: Command, io: CliIO): void {
  program
    .command('play')
    .summary('run a local tournament between bot URLs and built-in bots, with ratings')
    .description('run a local tournament between bot URLs and built-in bots, with ratings.')
    .argument(
      '[bots...]',
      `bot URLs (http, https, ws, wss) or ${BUILTIN_NAMES.map((b) => `builtin:${b}`).join(' / ')}; name one with name=URL`,
    )
    .option('-n, --games <N>', `games to play (default ${PLAY_DEFAULTS.games})`)
    .option(
      '-s, --seed <S>',
      'seed of the tournament: the same seed plays the same games (default: 128 random bits, printed)',
    )
    .option('--seats <3|4>', 'seats per table (default 4 with 4+ bots, else 3)')
    .option('-c, --concurrency <C>', `games played at once (default ${PLAY_DEFAULTS.concurrency})`)
    .option('--deadline-ms <MS>', `time a bot has per decision (default ${PLAY_DEFAULTS.deadlineMs})`)
    .option(
      '--time-bank <SECONDS>',
      `thinking time a bot has per match; once spent, every decision is late (default ${PLAY_DEFAULTS.timeBankSeconds})`,
    )
    .option(
      '--duplicate',
      'play each seed once per seat rotation (3 or 4 games a seed), so every bot meets the same dice and board from every seat: luck cancels',
    )
    .option(
      '--until-decided',
      "stop once the first two bots' difference is decided at 95% (a sequential test); --games is the cap",
    )
    .option(
      '-o, --out <DIR>',
      'write each match as DIR/<matchId>.json (a MatchRecord, one replay event per line) and the summary as DIR/summary.json',
    )
    .option('--json', 'print the summary as one JSON document on stdout (progress stays on stderr)')
    .option(
      '-v, --verbose',
      'print each strike as it happens (stderr): game, turn, seat, decision, reason, why, and the first 200 bytes of the answer',
    )
    .option(
      '--web',
      "serve the games in the browser on 127.0.0.1 (port printed): the list, a live board for games in play, the replay with each decision's time and bot notes; keeps serving after the games until Ctrl-C",
    )
    .option('--port <N>', 'with --web: the port (default 0: a free one)')
    .option('--print-platform-key', "print the local arena's platform public key (base64, 32 raw bytes) and exit")
    .addHelpText(
      'after',
      `
Before the first game every URL bot must pass the deploy check: GET <url>/ping
answers "pong" and a signed WebSocket upgrade is accepted. If one fails,
nothing starts.

Tables: with more bots than seats, tables are drawn so every bot plays about
equally often and seat positions rotate. With fewer bots than seats the table
is filled with builtin:random (and you are told).

Seeds: without --seed the tournament seed is 128 random bits. Game n's seed is
HMAC-SHA-256(key = tournament seed, message = n) in hex (first 128 bits), so a
published game seed tells nothing about the others. The same --seed plays the
same tables and games.

Duplicate play (--duplicate): games come in groups, one per seed; the group
plays the seed once per seat rotation (4 seats: 4 games, 3 seats: 3), the
same bots at the table, each moved one seat along every game. Every bot then
meets the same board, dice and deck from every seat, so the luck of the draw
cancels and far fewer games tell two bots apart. --games counts games and is
rounded up to whole rotations. The same --seed gives the same games for any
--concurrency.

Statistics: under the table, each bot's mean placement and win rate with
95% confidence intervals, and a head-to-head table: for each pair, how often
the first placed above the second (a tie counts half), with its interval.
The intervals are percentile bootstraps over seeds: whole seed groups are
resampled, which keeps the pairing of duplicate games; the resampling is
seeded by the tournament seed, so the same --seed prints the same intervals.
A share seen at 0% or 100% (nothing to resample) gets Wilson's score
interval over the seed groups instead.

--until-decided: after each seed group (in game order, whatever finished
first), a sequential test asks whether the first two bots given differ: a
betting confidence sequence (a mixture of test martingales on A's score
against B, stopped at 20 = 1/0.05 by Ville's inequality), whose chance of
ever deciding when the two are equal stays under 5% however often it looks.
It stops starting games once decided (games already running finish and
count) or at --games, and prints one line:
  A places above B in 58% ± 3% of games (decided after 640 games)
where ± is half the head-to-head 95% interval over the games played.

Ratings: openskill Weng-Lin, ranks = placements, shown as mu - 3*sigma.
Match ids: m-<yyyymmddhhmmss UTC>-<tag>-<game>, sortable by time.

Handshakes are signed with the local platform key (<config dir>/platform-key.pem,
created on first use; ARENA_CONFIG_DIR overrides the directory). Bots that
verify handshakes need its public half: arena play --print-platform-key.

--json prints {version, rulesVersion, seed, seats, deadlineMs, gamesPlanned, games,
  aborted, interrupted, startedAt, endedAt,
  duplicate, ci: {method, confidence, resamples},
  bots: [{name, source, games, aborted, wins, winRate, winRateCi95: [low, high] | null,
          avgPlacement, avgPlacementCi95: [low, high] | null, avgVp, rating,
          mu, sigma, strikes: {late, malformed, oversize, dropped, illegal},
          resigned, latencyMs: {p50, p95, late} | null, slowestMs}],   (best rating first)
  matches: [{id, game, seed, status, ended: win|cap|aborted, turns,
             players: [{bot, seat, placement, vp, ratingDelta,
                        strikes?: {late, ...}}]}],   (strikes: only when struck)
  headToHead: [{a, b, games, aAbove, ci95: [low, high] | null}],   (every pair, bots in the order given)
  verdict: {a, b, test, decided, better, games, aAbove, ci95, text} | null}   (--until-decided)
latencyMs covers every decision asked: a late one (no answer in time) counts
as the full deadline, and late says how many there were. slowestMs (the table's
"slowest") is the bot's slowest single decision.

Progress: one line per finished game, numbered like its match id and file
(game 3 is m-...-0003), saying who won or that the turn cap ended it.

Strikes: the table has a column per reason (late, malformed, oversize,
dropped, illegal) and the games lost to three strikes (resigned). --verbose
prints each strike as it happens: the game and match id, turn, seat and bot,
the decision kind, the reason and the strike count, why (the engine's
rejection code and message for an illegal answer), and the first 200 bytes of
the frame the bot sent. Match files (--out) keep each strike's reason and
rejection code as a timeout event; arena replay jumps to the next one with n.

Ctrl-C aborts running matches (recorded as aborted), prints the summary so far
and exits 130; a second Ctrl-C quits at once.

Exit codes: 0 done, 1 a bot failed the deploy check or a run error, 2 usage, 130 interrupted (Ctrl-C or SIGTERM).

Examples:
  $ arena play http://127.0.0.1:8080 builtin:random builtin:random
  $ arena play mine=http://127.0.0.1:8080 builtin:greedy builtin:random builtin:random --games 40 --seed 7
  $ arena play http://127.0.0.1:8080 http://127.0.0.1:8081 builtin:random --out matches/ && arena replay matches/
  $ arena play ws://127.0.0.1:8080 builtin:random builtin:random --json | jq '.bots[] | {name, rating}'
  $ arena play mine=http://127.0.0.1:8080 builtin:random builtin:random --verbose --out runs/
  $ arena play new=http://127.0.0.1:8080 old=http://127.0.0.1:8081 builtin:greedy builtin:random --duplicate --until-decided --games 2000
  $ arena play mine=http://127.0.0.1:8080 builtin:greedy builtin:random --duplicate --games 60 --json | jq .headToHead
  $ arena play --print-platform-key`,
    )
    .action(async (bots: string[], flags: PlayFlags) => {
      const { planPlay } = await import('../../arena/play-options');
      if (flags.printPlatformKey) {
        io.stdout.write(`${(await platformKeyOrFail(io)).publicKeyBase64}\n`);
        return;
      }
      let plan: PlayPlan;
      try {
        plan = planPlay({
          bots,
          games: flags.games,
          seed: flags.seed,
          seats: flags.seats,
          concurrency: flags.concurrency,
          deadlineMs: flags.deadlineMs,
          timeBank: flags.timeBank,
          outDir: flags.out,
          duplicate: flags.duplicate === true,
          untilDecided: flags.untilDecided === true,
        });
      } catch (err) {
        if (err instanceof ArenaInputError) throw usageError(err.message);
        throw err;
      }
      const port = flags.web ? (await import('../local-web')).parsePort(flags.port) : null;
      // Only once the usage is right: a usage error leaves nothing behind, not even a new key.
      const key = await platformKeyOrFail(io);
      const web = port === null ? null : await (await import('../local-web')).startLocalWebSession(io, port);
      const summary = await playTournament(plan, key, io, {
        json: flags.json === true,
        verbose: flags.verbose === true,
        web: web?.games,
      });
      if (web && !summary.interrupted) await web.serveUntilStopped();
      else await web?.web.close();
      // The interruption was already reported; exit 130 without another message.
      if (summary.interrupted) throw new CliError('', EXIT.interrupted);
    });
}

export async function platformKeyOrFail(io: CliIO): Promise<PlatformKey> {
  const { loadOrCreatePlatformKey } = await import('../../config/platform-key');
  try {
    const key = loadOrCreatePlatformKey(io.env);
    if (key.created)
      io.stderr.write(`arena: created the local platform key ${key.path} (public: ${key.publicKeyBase64})\n`);
    return key;
  } catch (err) {
    if (err instanceof KeyError) throw new CliError(`platform key: ${err.message} (delete it to make a new one)`);
    throw err;
  }
}

/**
 * Preflights (built-ins, deploy check, --out), runs the tournament with progress and Ctrl-C handling, prints the
 * result.
 */
export async function playTournament(
  plan: PlayPlan,
  key: PlatformKey,
  io: CliIO,
  out: { json: boolean; verbose?: boolean; web?: LocalGames },
): Promise<TournamentSummary> {
  const { ResultWriteError, runTournament } = await import('../../arena/tournament');
  const { createPlayProgress } = await import('../../term/play-progress');
  const { formatTable } = await import('../../term/tournament-table');
  const { strikeReport } = await import('../../term/strike-report');
  const { abortOnSigint } = await import('../interrupt');
  const { preflight } = await import('../preflight');
  const note = (text: string) => void io.stderr.write(text + '\n');
  if (plan.filled.length) {
    note(
      `arena: ${plan.seats} seats need ${plan.seats} bots; added ${plan.filled.map((b) => b.name).join(', ')} (builtin:random)`,
    );
  }
  const problems = await preflight(plan, key.privateKey);
  if (problems.length) {
    const hint = problems.some((p) => p.includes('deploy check failed'))
      ? `\nA bot must answer GET <url>/ping with "pong" and accept a WebSocket upgrade; check one with: ${arenaCommand(io)} bot check <url>`
      : '';
    throw new CliError(`nothing was started:\n${problems.map((p) => `  ${p}`).join('\n')}${hint}`);
  }
  if (plan.gamesAsked !== null)
    note(
      `arena: --duplicate plays whole rotations of ${plan.seats} games: ${plan.gamesAsked} rounded up to ${plan.games}`,
    );
  note(
    `arena: ${plan.untilDecided ? 'up to ' : ''}${plan.games} game${plan.games === 1 ? '' : 's'}${plan.duplicate ? ` (${plan.games / plan.seats} seeds x ${plan.seats} seat rotations)` : ''}, ${plan.seats} seats, ${plan.bots.length} bots, seed ${plan.seed}${plan.seedGenerated ? ' (rerun with --seed to reproduce)' : ''}`,
  );

  const progress = createPlayProgress(io.stderr, plan.bots, { planned: plan.games });
  const controller = new AbortController();
  const release = abortOnSigint(controller, progress.note);
  let summary: TournamentSummary;
  // A result file that could not be written stops the tournament; the games played are still shown.
  let writeError: InstanceType<typeof ResultWriteError> | null = null;
  try {
    summary = await runTournament({
      bots: plan.bots,
      games: plan.games,
      seats: plan.seats,
      seed: plan.seed,
      concurrency: plan.concurrency,
      duplicate: plan.duplicate,
      untilDecided: plan.untilDecided,
      deadlineMs: plan.deadlineMs,
      timeBankMs: plan.timeBankMs,
      platformKey: key.privateKey,
      outDir: plan.outDir,
      signal: controller.signal,
      onGame: (game, p) => progress.gameDone(game, p),
      onStrike: out.verbose ? (s) => progress.note(strikeReport(s)) : undefined,
      // Live turn counts only matter on a terminal; skip the per-event callback otherwise.
      onMatchEvent: io.stderr.isTTY ? (id, e) => progress.matchEvent(id, e) : undefined,
      // --web: every game listed and streamed live as it plays.
      playMatch: out.web ? out.web.wrap((await import('../../runner/index')).runMatch) : undefined,
    }).catch((err: unknown) => {
      if (!(err instanceof ResultWriteError)) throw err;
      writeError = err;
      return err.summary;
    });
  } finally {
    progress.finish();
    release();
  }
  if (out.json) io.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  else {
    const { formatIntervals } = await import('../../term/verdict-table');
    const intervals = formatIntervals(summary.bots, summary.headToHead, summary.ci);
    io.stdout.write(
      formatTable(summary) + '\n\n' + intervals + '\n' + (summary.verdict ? `\n${summary.verdict.text}\n` : ''),
    );
  }
  const failed = writeError as InstanceType<typeof ResultWriteError> | null;
  if (failed) {
    const files = `${failed.written} match file${failed.written === 1 ? '' : 's'}`;
    throw new CliError(
      `${failed.message}; stopped after ${summary.matches.length} game${summary.matches.length === 1 ? '' : 's'} (shown above); ${files} and no summary.json were written to ${plan.outDir}`,
    );
  }
  if (plan.outDir)
    note(
      `arena: wrote ${summary.matches.length} match file${summary.matches.length === 1 ? '' : 's'} and summary.json to ${plan.outDir}; replay with: ${arenaCommand(io)} replay ${shellWord(plan.outDir)}`,
    );
  return summary;
}
