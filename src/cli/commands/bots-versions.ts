// `arena bots versions BOT` and `arena bots requalify BOT`: a bot's versions
// (GET /bots/{id}/versions: rated games, the rating at each version's end,
// dates) and another try at its qualifier (POST /bots/{id}/requalify).
import type { Command } from 'commander';
import type { ApiTarget } from '../../client/api';
import type { BotVersion } from '../../protocol/api';
import type { CliIO } from '../io';
import { emit, SERVER_HELP, serverOptions, withServer, type ServerFlags } from '../server-call';

export function registerVersions(
  bots: Command,
  io: CliIO,
  botArg: readonly [string, string],
  botText: (b: import('../../protocol/api').Bot) => string,
): void {
  serverOptions(
    bots
      .command('versions')
      .description(
        "list your bot's versions: rated games, the rating at each version's end (now for the current one) and dates",
      )
      .argument(...botArg),
    'print {"botId", "versions": BotVersion[]} as JSON',
  )
    .addHelpText(
      'after',
      `
A version starts at registration, at every URL change (arena bots update BOT
--bot-url URL) and with arena bots update BOT --new-version (new code at the
same URL). The rating carries over to the next version with its sigma widened
halfway back to a new bot's (docs/operating.md), so RATING at a version's end
is before that widening. GAMES counts rated games. Needs bots.read.

Examples:
  $ arena bots versions greedy
  $ arena bots versions b_Xy3AbCdEfGhIjKlM --json | jq '.versions[-1].rating'
${SERVER_HELP}`,
    )
    .action(async (ref: string, flags: ServerFlags) => {
      const owner = await import('../../client/owner');
      const list = await withServer(io, flags, async (t: ApiTarget) =>
        owner.listBotVersions(t, await owner.resolveBotId(t, ref)),
      );
      await emit(io, flags.json, list, () => versionTable(list.versions));
    });

  serverOptions(
    bots
      .command('requalify')
      .description(
        "play your bot's qualifier again: one unrated match against the server's built-in bots; at most 1 strike and no resignation make it active",
      )
      .argument(...botArg),
    'print the updated Bot as JSON',
  )
    .addHelpText(
      'after',
      `
The qualifier plays at the next matchmaking tick; \`arena bots show BOT\` then
says passed or failed, with the match and each strike's reason (the strike log,
arena bots strikes BOT, has what the bot sent). A paused bot stays paused and
qualifies once resumed. An account may requalify 3 times in a row, then once
every 10 minutes (HTTP 429 past that). Needs bots.write.

Examples:
  $ arena bots requalify greedy
  $ arena bots requalify b_Xy3AbCdEfGhIjKlM --json
${SERVER_HELP}`,
    )
    .action(async (ref: string, flags: ServerFlags) => {
      const owner = await import('../../client/owner');
      const bot = await withServer(io, flags, async (t: ApiTarget) =>
        owner.requalifyBot(t, await owner.resolveBotId(t, ref)),
      );
      await emit(io, flags.json, bot, () => botText(bot));
      if (!flags.json)
        io.stderr.write(
          `${bot.name} plays its qualifier at the next tick${bot.status === 'paused' ? ' after it is resumed' : ''}\n`,
        );
    });
}

async function versionTable(list: BotVersion[]): Promise<string> {
  const { formatTable } = await import('../../term/table');
  return formatTable(
    ['VERSION', 'GAMES', 'RATING', 'SIGMA', 'STARTED', 'ENDED'],
    list.map((v) => [
      `v${v.version}`,
      String(v.games),
      v.rating === null ? '-' : v.rating.toFixed(1),
      v.sigma === null ? '-' : v.sigma.toFixed(2),
      v.startedAt,
      v.endedAt ?? 'now',
    ]),
  );
}
