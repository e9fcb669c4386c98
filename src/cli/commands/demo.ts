// `arena demo`: the README's first command. Starts the two example bots as
// their own processes on free local ports, runs a short tournament among them
// and the built-in bots, and shows how to replay a match.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import { ArenaInputError, parseBotArgs } from '../../arena/bots';
import { PLAY_DEFAULTS } from '../../arena/play-defaults';
import type { PlayPlan } from '../../arena/play-options';
import { CliError, EXIT, usageError } from '../errors';
import { arenaCommand, shellWord } from '../invocation';
import type { CliIO } from '../io';
import { platformKeyOrFail, playTournament } from './play';

interface DemoFlags {
  games?: string;
  out?: string;
  seed?: string;
  concurrency?: string;
  json?: boolean;
  serve?: boolean;
  port?: string;
}

export const DEMO_DEFAULTS = { games: 12, out: 'arena-demo' } as const;

export function register(program: Command, io: CliIO): void {
  program
    .command('demo')
    .summary('start the example bots and run a short tournament against the built-ins')
    .description('start the example bots and run a short tournament against the built-in bots.')
    .option('-n, --games <N>', `games to play (default ${DEMO_DEFAULTS.games})`)
    .option('-o, --out <DIR>', `where to write the match files (default ./${DEMO_DEFAULTS.out})`)
    .option('-s, --seed <S>', 'seed of the tournament (default: 128 random bits, printed)')
    .option('-c, --concurrency <C>', `games played at once (default ${PLAY_DEFAULTS.concurrency})`)
    .option('--json', 'print the summary as one JSON document on stdout')
    .option(
      '--serve',
      'instead: run the whole service (serve --dev on a temporary directory) with the example bots registered, and open its dashboard; Ctrl-C stops it',
    )
    .option('--port <PORT>', 'with --serve: port to listen on (default 0, a free one)')
    .addHelpText(
      'after',
      `
What happens: examples/starter-bot and examples/heuristic-bot start as their
own processes (node --import tsx examples/<bot>/bot.ts, as their READMEs run
them), listening on free ports of 127.0.0.1 and verifying the arena's signed
handshake. They play 4-seat games against builtin:greedy and builtin:random
through the same protocol a hosted match uses. The table shows wins,
placements, ratings, strikes and latency; every match is written to the --out
directory for replay.

Write your own bot next: copy examples/starter-bot (README inside), run it,
check it with \`arena bot check <url>\`, then \`arena play <url> builtin:greedy ...\`.

With --serve: \`serve --dev --same-owner allow\` starts on a temporary data
directory with matchmaking every 5 seconds (one account owns every bot, so
its tables are formed and rated as \`--same-owner allow\` does; a real
arena avoids that by default), two of each example bot start and are
registered to the account @demo through the signed API, and the dashboard
address and a sign-in link for @demo are printed (stdout). Watch matches
live, replay them, look at the bots and keys. Ctrl-C stops the service and
the bots and removes the temporary directory.

Examples:
  $ arena demo
  $ arena demo --games 40 --out /tmp/demo && arena replay /tmp/demo
  $ arena demo --serve`,
    )
    .action(async (flags: DemoFlags) => {
      if (flags.serve) {
        const other = (['games', 'out', 'seed', 'concurrency', 'json'] as const).find((f) => flags[f] !== undefined);
        if (other) throw usageError(`--${other} is for the tournament demo, not --serve`);
        const port = flags.port === undefined ? 0 : Number(flags.port);
        if (!/^\d+$/.test(flags.port ?? '0') || port > 65535)
          throw usageError(`--port must be a whole number from 0 to 65535, got "${flags.port}"`);
        const { runDemoServe } = await import('../demo-serve');
        await runDemoServe(io, { port });
        return;
      }
      if (flags.port !== undefined) throw usageError('--port goes with --serve');
      const { planPlay } = await import('../../arena/play-options');
      const { DemoBotError, startDemoBots } = await import('../demo-bots');
      const outDir = flags.out ?? DEMO_DEFAULTS.out;
      let plan: PlayPlan;
      try {
        // Options are checked before any bot starts; the line-up is set once the bots listen.
        const placeholder = Array<string>(4).fill('builtin:random');
        plan = planPlay({
          bots: placeholder,
          games: flags.games ?? DEMO_DEFAULTS.games,
          seats: 4,
          seed: flags.seed,
          concurrency: flags.concurrency,
          outDir,
        });
      } catch (err) {
        if (err instanceof ArenaInputError) throw usageError(err.message);
        throw err;
      }
      // After the usage check, as in play: a usage error leaves no new key behind.
      const key = await platformKeyOrFail(io);
      let bots;
      try {
        bots = await startDemoBots({ platformPublicKey: key.publicKeyBase64 });
      } catch (err) {
        if (err instanceof DemoBotError) throw new CliError(err.message);
        throw err;
      }
      try {
        plan = { ...plan, bots: parseBotArgs(bots.args) };
        io.stderr.write(`arena demo: ${bots.bots.map((b) => `${b.name} bot on ${b.url}`).join(', ')}\n`);
        const summary = await playTournament(plan, key, io, { json: flags.json === true });
        const sample = summary.matches.find((m) => m.status === 'completed') ?? summary.matches[0];
        if (sample) {
          const arena = arenaCommand(io);
          io.stderr.write(
            `\nReplay a match in the terminal:\n  ${arena} replay ${shellWord(outDir)}              (the newest match)\n  ${arena} replay ${shellWord(`${outDir}/${sample.id}.json`)}\n`,
          );
        }
        if (summary.interrupted) throw new CliError('', EXIT.interrupted);
      } finally {
        await bots.close();
      }
    });
}
