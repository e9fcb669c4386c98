// `arena demo`: the README's first command. Starts the two example bots on free
// local ports, runs a short tournament among them and the built-in bots, and
// shows how to replay a match. Everything happens in this one process.
import type { Command } from 'commander';
import { ArenaInputError } from '../../arena/bots';
import { startDemoBots } from '../../arena/demo-bots';
import { planPlay } from '../../arena/play-options';
import { EXIT, usageError } from '../errors';
import { platformKeyOrFail, playTournament } from './play';

interface DemoFlags {
  games?: string;
  out?: string;
  seed?: string;
  concurrency?: string;
  json?: boolean;
}

export const DEMO_DEFAULTS = { games: 12, out: 'arena-demo' } as const;

export function register(program: Command): void {
  program
    .command('demo')
    .description('Start the example bots and run a short tournament against the built-in bots.')
    .option('-n, --games <N>', `games to play (default ${DEMO_DEFAULTS.games})`)
    .option('-o, --out <DIR>', `where to write the match files (default ./${DEMO_DEFAULTS.out})`)
    .option('-s, --seed <S>', 'seed of the tournament (default: random, printed)')
    .option('-c, --concurrency <C>', 'games played at once (default 4)')
    .option('--json', 'print the summary as one JSON document on stdout')
    .addHelpText('after', `
What happens: examples/starter-bot and examples/heuristic-bot start as real
WebSocket servers on free ports of 127.0.0.1, then play 4-seat games against
builtin:greedy and builtin:random through the same protocol a hosted match
uses. The table shows wins, placements, ratings, strikes and latency; every
match is written to the --out directory for replay.

Write your own bot next: copy examples/starter-bot (README inside), run it,
check it with \`arena bot check <url>\`, then \`arena play <url> builtin:greedy ...\`.

Examples:
  $ arena demo
  $ arena demo --games 40 --out /tmp/demo && arena replay /tmp/demo`)
    .action(async (flags: DemoFlags) => {
      const key = platformKeyOrFail();
      const outDir = flags.out ?? DEMO_DEFAULTS.out;
      const bots = await startDemoBots();
      try {
        let plan;
        try {
          plan = planPlay({
            bots: bots.args, games: flags.games ?? DEMO_DEFAULTS.games, seats: 4, seed: flags.seed,
            concurrency: flags.concurrency, outDir,
          });
        } catch (err) {
          if (err instanceof ArenaInputError) throw usageError(err.message);
          throw err;
        }
        process.stderr.write(`arena demo: starter bot on ${bots.starter.url}, heuristic bot on ${bots.heuristic.url}\n`);
        const summary = await playTournament(plan, key, { json: flags.json === true });
        const sample = summary.matches.find((m) => m.status === 'completed') ?? summary.matches[0];
        if (sample) {
          process.stderr.write(`\nReplay a match in the terminal:\n  arena replay ${outDir}              (the newest match)\n  arena replay ${outDir}/${sample.id}.json\n`);
        }
        if (summary.interrupted) process.exitCode = EXIT.interrupted;
      } finally {
        await bots.close();
      }
    });
}
