// `arena leaderboard`: the server's ranking of bots by rating (mu - 3*sigma,
// one decimal), every bot with at least one completed match. Public.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import type { CliIO } from '../io';
import { PUBLIC_HELP, urlOption, withPublic } from '../public-server';

export function register(program: Command, io: CliIO): void {
  urlOption(
    program
      .command('leaderboard')
      .exitOverride()
      .summary("the server's ranking of bots by rating")
      .description(
        'every bot with at least one completed match, ranked by its rating: mu - 3*sigma of the Weng-Lin (openskill) model, one decimal; equal ratings share a rank. New bots start near 0. Public: no key needed.',
      )
      .option('--json', 'print {"game": "pioneers", "rows": LeaderboardRow[]} as JSON'),
  )
    .addHelpText(
      'after',
      `
Columns: rank, bot name, owner's handle, rating, completed matches, bot id
(for \`arena matches list --bot ID\`).

Examples:
  $ arena leaderboard
  $ arena leaderboard --url https://arena.example.com
  $ arena leaderboard --json | jq -r '.rows[0].name'
${PUBLIC_HELP}`,
    )
    .action(async (flags: { json?: boolean; url?: string }) => {
      const { getLeaderboard } = await import('../../client/public');
      const rows = await withPublic(io, flags.url, (baseUrl) => getLeaderboard({ baseUrl }));
      if (flags.json) {
        io.stdout.write(JSON.stringify({ game: 'pioneers', rows }) + '\n');
        return;
      }
      if (rows.length === 0) {
        io.stderr.write('no bot has completed a match yet\n');
        return;
      }
      const { formatTable } = await import('../../term/table');
      io.stdout.write(
        formatTable(
          ['RANK', 'BOT', 'OWNER', 'RATING', 'GAMES', 'ID'],
          rows.map((r) => [
            String(r.rank),
            r.name,
            r.owner ? `@${r.owner}` : '-',
            r.rating.toFixed(1),
            String(r.gamesPlayed),
            r.botId,
          ]),
        ),
      );
    });
}
