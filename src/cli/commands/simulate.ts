// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { type Command, InvalidArgumentError, Option } from 'commander';
import { BUILTIN_BOTS } from '../../../engine/bots/names';
import { seedProblem } from '../../arena/seeds';
import type { SimulateResult } from '../../sim/simulate';
import { createProgress } from '../progress';
import { CliError, usageError } from '../errors';
import type { CliIO } from '../io';

export function register(program: Command, io: CliIO): void {
  program
    .command('simulate')
    .summary('play built-in bots against each other in-process and report win rates')
    .description('play games between built-in bots in-process, as fast as the engine goes, and report win rates.')
    .option('-n, --games <N>', 'number of games', parsePositiveInt, 100)
    .option(
      '-b, --bots <list>',
      `comma-separated built-in bots, one per seat (3 or 4): ${BUILTIN_BOTS.join(', ')}`,
      'greedy,random,random,random',
    )
    .option('-s, --seed <S>', 'seed of the run; game i uses "<S>/<i>" (default: a fresh random seed, printed)')
    .option(
      '-w, --workers <N>',
      'threads to play on (default: the number of cores, or 1 for a run too short to pay for starting threads: under about 2,500 random x4 games); results do not depend on it',
      parsePositiveInt,
    )
    .option(
      '--duplicate',
      'play each seed once per seat rotation (3 or 4 games a seed): every bot meets the same dice and board from every seat, so luck cancels; --games rounds up to whole rotations',
    )
    .option('--json', 'print one JSON object instead of the table')
    .addOption(new Option('-q, --quiet', 'no progress display'))
    .addHelpText(
      'after',
      `
Seats rotate between games: bot b sits at seat (b + i) mod seats in game i.
With --duplicate, game i plays seed "<S>/<floor(i / seats)>": each group of
one game per seat shares a seed, and the rotation seats every bot once in
every seat of it, so the luck of the draw cancels.
The same --seed and bots give the same results on any machine, with any
number of --workers: game i depends on the seed and i only, and the workers'
tallies are exact sums.

--json prints: {games, seed, seconds, gamesPerSecond, avgTurns, wonGames, decisions, duplicate,
  bots: [{bot, wins, winRate, winRateCi95: [low, high], avgVp, avgPlacement, avgPlacementCi95: [low, high]}],
  ci: {method, confidence, resamples},
  headToHead: [{a, b, games, aAbove, ci95: [low, high]}], interrupted}  (bots in the order given)

Statistics: as arena play prints them, under the table: each bot's mean
placement and win rate with 95% confidence intervals (a percentile bootstrap
over the seeds: each game alone, or with --duplicate each seed's group of
games together; the resampling is seeded by --seed, so the same run
prints the same intervals; a share seen at 0% or 100% gets Wilson's
interval over the seeds), and the head-to-head table: for each pair, how
often the first placed above the second (a tie counts half). A repeated bot
is named by its seat, e.g. random#2.

Ctrl-C (or SIGTERM) stops the run after the games in play and prints the
results of the games finished, marked as interrupted; exit 130 (143 for
SIGTERM). A second Ctrl-C quits at once.

Examples:
  $ arena simulate --games 1000 --bots greedy,random,random,random --seed 42
  $ arena simulate -n 200 -b random,random,random --json | jq .gamesPerSecond
  $ arena simulate -n 2000 -b search,greedy,greedy,greedy --duplicate --json | jq '.headToHead[0]'   is search better than greedy?
  $ arena simulate -n 5000 --workers 1 --seed 7     one core, for comparing engine speed`,
    )
    .action(
      async (opts: {
        games: number;
        bots: string;
        seed?: string;
        workers?: number;
        json?: boolean;
        quiet?: boolean;
        duplicate?: boolean;
      }) => {
        const [
          { SimulateError },
          { defaultWorkers, simulateParallel, threadCount },
          { simWorkerScript },
          { randomBytes },
          { availableParallelism },
          { onStopSignals, signalExitCode },
        ] = await Promise.all([
          import('../../sim/simulate'),
          import('../../sim/parallel'),
          import('../sim-worker-script'),
          import('node:crypto'),
          import('node:os'),
          import('../interrupt'),
        ]);
        const badSeed = opts.seed === undefined ? null : seedProblem(opts.seed);
        if (badSeed) throw usageError(badSeed);
        const seed = opts.seed ?? randomBytes(6).toString('hex');
        const bots = opts.bots
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean);
        // Duplicate play comes in whole rotations (validateBots refuses a seat count other than 3 or 4 below).
        if (opts.duplicate && (bots.length === 3 || bots.length === 4) && opts.games % bots.length !== 0) {
          const rounded = Math.ceil(opts.games / bots.length) * bots.length;
          io.stderr.write(
            `arena: --duplicate plays whole rotations of ${bots.length} games: ${opts.games} rounded up to ${rounded}\n`,
          );
          opts.games = rounded;
        }
        const cores = availableParallelism();
        const workers = opts.workers ?? defaultWorkers(opts.games, bots, cores);
        if (workers > cores && opts.games > cores) {
          io.stderr.write(
            `arena: --workers ${workers} on ${cores} core${cores === 1 ? '' : 's'}: threads beyond the cores only add start-up time and memory\n`,
          );
        }
        const progress = createProgress({ quiet: opts.quiet, stream: io.stderr });
        const controller = new AbortController();
        let stoppedBy: NodeJS.Signals | null = null;
        const release = onStopSignals(
          process,
          (signal) => {
            stoppedBy = signal;
            progress.note(
              `arena: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}, finishing the games in play (${signal === 'SIGINT' ? 'Ctrl-C' : 'signal'} again to quit at once)`,
            );
            controller.abort();
          },
          (signal) => process.exit(signalExitCode(signal)),
        );
        let result: SimulateResult;
        try {
          const start = Date.now();
          result = await simulateParallel(
            {
              games: opts.games,
              duplicate: opts.duplicate === true,
              bots,
              seed,
              workers,
              signal: controller.signal,
              onProgress: (done) => {
                const secs = (Date.now() - start) / 1000;
                progress.update(
                  `simulate: ${done}/${opts.games} games · ${secs > 0 ? Math.round(done / secs) : 0} games/s`,
                );
              },
            },
            simWorkerScript,
          );
        } catch (err) {
          if (err instanceof SimulateError) throw usageError(err.message);
          throw err;
        } finally {
          progress.done();
          release();
        }
        if (result.interrupted && result.games === 0)
          throw new CliError(
            'stopped before the first game finished; nothing to report',
            signalExitCode(stoppedBy ?? 'SIGINT'),
          );
        const report = await withStatistics(result);
        io.stdout.write(
          opts.json
            ? JSON.stringify(report, null, 2) + '\n'
            : formatResult(result, threadCount(workers, opts.games), opts.games) + (await intervalsText(report)),
        );
        // The interruption was reported as it happened: the exit code says the rest.
        if (result.interrupted) throw new CliError('', signalExitCode(stoppedBy ?? 'SIGINT'));
      },
    );
}

/** What --json prints: the run's result with the intervals in place of the per-game list. */
export async function withStatistics(r: SimulateResult) {
  const { packedStatistics } = await import('../../arena/verdict-report');
  const names = botLabels(r);
  // Duplicate games of one seed are one group, so the bootstrap keeps them together (games come in game order).
  const seats = r.bots.length;
  const { games, codes } = r.outcomes;
  const starts: number[] = [];
  games.forEach((game, j) => {
    if (j === 0 || !r.duplicate || Math.floor(game / seats) !== Math.floor(games[j - 1] / seats)) starts.push(j);
  });
  starts.push(games.length);
  const stats = packedStatistics(names, { entrants: seats, codes, groupStart: Int32Array.from(starts) }, r.seed);
  const { outcomes: _perGame, interrupted, bots, ...rest } = r;
  return {
    ...rest,
    bots: bots.map((b, i) => ({
      bot: b.bot,
      wins: b.wins,
      winRate: b.winRate,
      winRateCi95: stats.bots[i].winRateCi95,
      avgVp: b.avgVp,
      avgPlacement: b.avgPlacement,
      avgPlacementCi95: stats.bots[i].avgPlacementCi95,
    })),
    ci: stats.ci,
    headToHead: stats.headToHead,
    interrupted,
  };
}

async function intervalsText(report: Awaited<ReturnType<typeof withStatistics>>): Promise<string> {
  const { formatIntervals } = await import('../../term/verdict-table');
  const names = labelsOf(report.bots.map((b) => b.bot));
  const rows = report.bots.map((b, i) => ({
    name: names[i],
    games: report.games,
    avgPlacement: b.avgPlacement,
    avgPlacementCi95: b.avgPlacementCi95,
    winRate: b.winRate,
    winRateCi95: b.winRateCi95,
  }));
  return '\n' + formatIntervals(rows, report.headToHead, report.ci) + '\n';
}

/** Bot names as the table shows them: a repeated bot gets a #seat suffix. */
function botLabels(r: SimulateResult): string[] {
  return labelsOf(r.bots.map((b) => b.bot));
}

function labelsOf(bots: readonly string[]): string[] {
  return bots.map((b, i) => (bots.filter((x) => x === b).length > 1 ? `${b}#${i + 1}` : b));
}

function parsePositiveInt(value: string): number {
  const n = Number(value);
  // commander turns this into "option '--games <N>' argument 'x' is invalid. ..." with exit 2.
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('Expected a positive integer.');
  // Past 2^53 counts stop being exact; for a run with no set length, pick a big N and press Ctrl-C.
  if (!Number.isSafeInteger(n))
    throw new InvalidArgumentError(`Expected a positive integer up to ${Number.MAX_SAFE_INTEGER}.`);
  return n;
}

/**
 * `threads`: how many played (the table says so; the JSON stays the same for any number); `asked`: the games asked for.
 */
export function formatResult(r: SimulateResult, threads: number, asked = r.games): string {
  const seats = r.bots.length;
  const lines = [
    r.interrupted
      ? `${r.games} of ${asked} games (interrupted; the table covers the games finished) · ${seats} seats · seed ${r.seed}`
      : `${r.games} games · ${seats} seats · seed ${r.seed}`,
    `${r.seconds.toFixed(2)} s on ${threads === 1 ? '1 thread' : `${threads} threads`} · ${r.gamesPerSecond.toLocaleString('en-US')} games/s · ${r.decisions.toLocaleString('en-US')} decisions · avg ${r.avgTurns} turns · ${r.wonGames} won by 10 VP, ${r.games - r.wonGames} hit the turn cap`,
    '',
  ];
  // Repeated bots get a #seat suffix so each row is told apart.
  const names = r.bots.map((b, i) => (r.bots.filter((x) => x.bot === b.bot).length > 1 ? `${b.bot}#${i + 1}` : b.bot));
  const w = Math.max(3, ...names.map((n) => n.length));
  lines.push(
    `${'bot'.padEnd(w)}  ${'wins'.padStart(6)}  ${'win rate'.padStart(8)}  ${'avg VP'.padStart(6)}  ${'avg place'.padStart(9)}`,
  );
  r.bots.forEach((b, i) => {
    lines.push(
      `${names[i].padEnd(w)}  ${String(b.wins).padStart(6)}  ${(b.winRate * 100).toFixed(1).padStart(7)}%  ${b.avgVp.toFixed(2).padStart(6)}  ${b.avgPlacement.toFixed(2).padStart(9)}`,
    );
  });
  return lines.join('\n') + '\n';
}
