// `arena bots strikes BOT`: the owner's strike log of one of their bots on
// the server (GET /bots/{id}/strikes), newest first: each strike's code,
// message, decision and the first 200 bytes of what the bot sent.
import type { Command } from 'commander';
import type { ApiTarget } from '../../client/api';
import { usageError } from '../errors';
import type { CliIO } from '../io';
import { emit, SERVER_HELP, serverOptions, withServer, type ServerFlags } from '../server-call';

export function registerStrikes(bots: Command, io: CliIO, botArg: readonly [string, string]): void {
  serverOptions(
    bots
      .command('strikes')
      .description(
        "your bot's strike log on the server, newest first: each strike's code, message, decision and the first 200 bytes of its answer (only you see it)",
      )
      .argument(...botArg)
      .option('--limit <N>', 'strikes per page, 1-100', '20')
      .option('--cursor <CURSOR>', 'the page after the one that printed this cursor'),
    'print {"strikes": BotStrike[], "next": CURSOR|null} as JSON',
  )
    .addHelpText(
      'after',
      `
The same words as \`arena play --verbose\` prints locally. Spectators and other
owners see only a strike's reason in the public record. Needs bots.read.

Examples:
  $ arena bots strikes greedy
  $ arena bots strikes b_Xy3AbCdEfGhIjKlM --limit 100 --json
${SERVER_HELP}`,
    )
    .action(async (ref: string, flags: ServerFlags & { limit: string; cursor?: string }) => {
      const limit = Number(flags.limit);
      if (!/^[0-9]+$/.test(flags.limit) || limit < 1 || limit > 100)
        throw usageError('--limit must be a whole number from 1 to 100');
      const owner = await import('../../client/owner');
      const page = await withServer(io, flags, async (t: ApiTarget) =>
        owner.listBotStrikes(t, await owner.resolveBotId(t, ref), { limit, cursor: flags.cursor ?? null }),
      );
      const { strikeLogText } = await import('../../term/strike-log');
      await emit(io, flags.json, page, () => strikeLogText(page.strikes));
      if (!flags.json) {
        if (page.strikes.length === 0 && !flags.cursor) io.stderr.write(`${ref} has no strikes\n`);
        if (page.next) io.stderr.write(`more: arena bots strikes ${ref} --cursor ${page.next}\n`);
      }
    });
}
