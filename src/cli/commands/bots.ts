// `arena bots register|list|show|update|pause|resume|remove|strikes|versions|requalify`: the owner's bots
// on the arena server (not to be confused with `arena bot check`, the local
// conformance check for bot authors).
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { Option, type Command } from 'commander';
import type { ApiTarget } from '../../client/api';
import { formatFields } from '../../term/fields';
import type { Bot, OpponentRow } from '../../protocol/api';
import { usageError } from '../errors';
import type { CliIO } from '../io';
import { checkName, emit, SERVER_HELP, serverOptions, withServer, type ServerFlags } from '../server-call';
import { registerStrikes } from './bots-strikes';
import { registerVersions } from './bots-versions';

/** Rows `bots show --opponents` prints at most (10 pages of the API). */
export const MAX_OPPONENTS = 1000;

const BOT_ARG = ['<BOT>', 'the bot: its id, or its name if no other bot of yours has that name'] as const;

export function register(program: Command, io: CliIO): void {
  const bots = program
    .command('bots')
    // main.ts sets exitOverride after commands exist, so they do not inherit it;
    // without this commander exits 1 itself on a usage error instead of 2.
    .exitOverride()
    .summary('register and manage your bots on the arena server')
    .description(
      "your bots on the arena server: register a URL, list and inspect them, rename or move them, pause and resume matchmaking, remove them. Registering and every URL change run the server's URL check and deploy check (GET <url>/ping answers pong, then a signed WebSocket upgrade). A new bot, and each new version (a URL change, or update --new-version), first plays one unrated qualifier against the server's built-in bots (status qualifying, then active or failed) unless the server runs with --qualify off. Scopes: bots.read to list and show bots and read their strike logs and versions, bots.write for the rest.",
    );

  serverOptions(
    bots
      .command('register')
      .description(
        'register a bot: the server checks the URL and runs the deploy check, then the bot plays its qualifier and joins matchmaking',
      )
      .argument('<NAME>', 'bot name, 1-64 characters')
      .argument('<URL>', 'where the bot listens: https in production (wss for matches)'),
    'print the new Bot as JSON',
  )
    .addHelpText(
      'after',
      `
A refused URL is HTTP 422 (url_rejected or deploy_check_failed) with the reason.

Examples:
  $ arena bots register greedy https://bot.example.com/ws
  $ arena bots register local http://127.0.0.1:8080 --url http://127.0.0.1:7070   a --dev server
  $ arena bots register greedy https://bot.example.com/ws --json | jq -r .id
${SERVER_HELP}`,
    )
    .action(async (name: string, url: string, flags: ServerFlags) => {
      checkName(name, 'bot');
      const { registerBot } = await import('../../client/owner');
      const bot = await withServer(io, flags, (t) => registerBot(t, { name, url }));
      await emit(io, flags.json, bot, () => botText(bot));
      if (!flags.json) {
        io.stderr.write(
          bot.status === 'qualifying'
            ? `registered ${bot.name} (${bot.id}); it plays its qualifier at the next tick, then joins rated matchmaking if it passes (arena bots show ${bot.name})\n`
            : `registered ${bot.name} (${bot.id}); it joins matchmaking at the next tick\n`,
        );
      }
    });

  serverOptions(
    bots
      .command('list')
      .description('list your bots (removed ones are gone from the list)')
      .option('--game <GAME>', 'only bots of this game (the only game is pioneers)'),
    'print {"bots": Bot[]} as JSON',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ arena bots list
  $ arena bots list --json | jq -r '.bots[] | select(.status == "paused") | .name'
${SERVER_HELP}`,
    )
    .action(async (flags: ServerFlags & { game?: string }) => {
      if (flags.game !== undefined && flags.game !== 'pioneers')
        throw usageError(`unknown game "${flags.game}"; the only game is pioneers`);
      const { listBots } = await import('../../client/owner');
      const list = await withServer(io, flags, (t) => listBots(t, flags.game as 'pioneers' | undefined));
      await emit(io, flags.json, { bots: list }, () => (list.length ? botTable(list) : ''));
      if (!flags.json && list.length === 0)
        io.stderr.write('you have no bots yet; register one with `arena bots register NAME URL`\n');
    });

  serverOptions(
    bots
      .command('show')
      .description('show one of your bots')
      .argument(...BOT_ARG)
      .option(
        '--opponents',
        'show its record against each opponent instead: games together, how often it placed above, mean placements',
      )
      .addOption(
        new Option('--sort <KEY>', 'with --opponents: games (most first), above (best share first) or name').choices([
          'games',
          'above',
          'name',
        ]),
      )
      .option('--reverse', 'with --opponents: the other order'),
    'print the Bot as JSON (with --opponents: {"botId", "opponents": OpponentRow[], "next"})',
  )
    .addHelpText(
      'after',
      `
With --opponents: one row per bot it met in completed matches (rated or not;
aborted ones do not count): GAMES together, ABOVE = how many of those it
finished strictly above that bot (a tie counts for neither) and the share,
MEAN = its mean placement there, THEIRS = the opponent's. Up to ${MAX_OPPONENTS} rows.
The same numbers are public: GET /bots/ID/opponents.

Examples:
  $ arena bots show greedy
  $ arena bots show b_Xy3AbCdEfGhIjKlM --json
  $ arena bots show greedy --opponents --sort above
  $ arena matches list --bot b_Xy3AbCdEfGhIjKlM --vs b_Ab3CdEfGhIjKlMnO   their matches together
${SERVER_HELP}`,
    )
    .action(
      async (
        ref: string,
        flags: ServerFlags & { opponents?: boolean; sort?: 'games' | 'above' | 'name'; reverse?: boolean },
      ) => {
        if (!flags.opponents && (flags.sort !== undefined || flags.reverse))
          throw usageError('--sort and --reverse go with --opponents');
        if (flags.opponents) {
          const sort = flags.sort ?? 'games';
          const order = (sort === 'name') !== Boolean(flags.reverse) ? 'asc' : 'desc';
          const page = await withBot(io, flags, ref, async (t, id) =>
            (await import('../../client/public')).listOpponentsUpTo(
              { baseUrl: t.baseUrl },
              id,
              { sort, order },
              MAX_OPPONENTS,
            ),
          );
          await emit(io, flags.json, page, () => opponentTable(page.opponents));
          if (!flags.json && page.opponents.length === 0)
            io.stderr.write('no completed matches yet, so no opponents\n');
          if (!flags.json && page.next)
            io.stderr.write(
              `more opponents exist than the ${MAX_OPPONENTS} shown; GET /bots/${page.botId}/opponents pages through them all\n`,
            );
          return;
        }
        const bot = await withBot(io, flags, ref, async (t, id) => (await import('../../client/owner')).getBot(t, id));
        await emit(io, flags.json, bot, () => botText(bot));
      },
    );

  serverOptions(
    bots
      .command('update')
      .description(
        'rename a bot, move it to a new URL (checked like a new bot; starts a new version), or let other accounts challenge it or not',
      )
      .argument(...BOT_ARG)
      .option('--name <NAME>', 'new name, 1-64 characters')
      .option('--bot-url <URL>', "new bot URL (--url is the server's); starts a new version")
      .option(
        '--new-version',
        'start a new version at the same URL (you deployed new code there): the rating carries over with its sigma widened, and the bot qualifies again',
      )
      .option(
        '--challengeable <true|false>',
        'whether other accounts may challenge the bot to unrated matches (arena challenge); false also refuses their pending ones',
      ),
    'print the updated Bot as JSON',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ arena bots update greedy --name greedy_v2
  $ arena bots update greedy --bot-url https://bot2.example.com/ws
  $ arena bots update greedy --new-version        new code deployed at the same URL
  $ arena bots update greedy --challengeable false
${SERVER_HELP}`,
    )
    .action(
      async (
        ref: string,
        flags: ServerFlags & { name?: string; botUrl?: string; newVersion?: boolean; challengeable?: string },
      ) => {
        if (
          flags.name === undefined &&
          flags.botUrl === undefined &&
          !flags.newVersion &&
          flags.challengeable === undefined
        )
          throw usageError('nothing to change: give --name, --bot-url, --new-version, --challengeable or a mix');
        if (flags.name !== undefined) checkName(flags.name, 'bot');
        if (flags.challengeable !== undefined && flags.challengeable !== 'true' && flags.challengeable !== 'false')
          throw usageError('--challengeable is true or false');
        const patch = {
          ...(flags.name !== undefined && { name: flags.name }),
          ...(flags.botUrl !== undefined && { url: flags.botUrl }),
          ...(flags.newVersion && { newVersion: true as const }),
          ...(flags.challengeable !== undefined && { challengeable: flags.challengeable === 'true' }),
        };
        const bot = await withBot(io, flags, ref, async (t, id) =>
          (await import('../../client/owner')).updateBot(t, id, patch),
        );
        await emit(io, flags.json, bot, () => botText(bot));
      },
    );

  for (const [verb, description, done] of [
    ['pause', 'take a bot out of matchmaking (a running match finishes)', 'paused'],
    ['resume', 'put a paused bot back into matchmaking (or its qualifier, if it has not passed one)', 'active again'],
  ] as const) {
    serverOptions(
      bots
        .command(verb)
        .description(description)
        .argument(...BOT_ARG),
      'print the updated Bot as JSON',
    )
      .addHelpText(
        'after',
        `
Examples:
  $ arena bots ${verb} greedy
  $ arena bots ${verb} b_Xy3AbCdEfGhIjKlM --json
${SERVER_HELP}`,
      )
      .action(async (ref: string, flags: ServerFlags) => {
        const owner = await import('../../client/owner');
        const bot = await withBot(io, flags, ref, (t, id) =>
          verb === 'pause' ? owner.pauseBot(t, id) : owner.resumeBot(t, id),
        );
        await emit(io, flags.json, bot, () => botText(bot));
        if (!flags.json)
          io.stderr.write(`${bot.name} is ${verb === 'resume' && bot.status !== 'active' ? bot.status : done}\n`);
      });
  }

  serverOptions(
    bots
      .command('remove')
      .description(
        'remove a bot: it leaves matchmaking at once, a running match finishes, old match records keep its name',
      )
      .argument(...BOT_ARG),
    'print {"removed": ID} as JSON',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ arena bots remove greedy
${SERVER_HELP}`,
    )
    .action(async (ref: string, flags: ServerFlags) => {
      const id = await withBot(io, flags, ref, async (t, botId) => {
        await (await import('../../client/owner')).removeBot(t, botId);
        return botId;
      });
      await emit(io, flags.json, { removed: id }, () => '');
      if (!flags.json) io.stderr.write(`removed ${ref === id ? id : `${ref} (${id})`}\n`);
    });

  registerStrikes(bots, io, BOT_ARG);
  registerVersions(bots, io, BOT_ARG, botText);
}

/** Resolves BOT (id or name) on the server, then runs fn with its id. */
async function withBot<T>(
  io: CliIO,
  flags: ServerFlags,
  ref: string,
  fn: (t: ApiTarget, id: string) => Promise<T>,
): Promise<T> {
  const { resolveBotId } = await import('../../client/owner');
  return withServer(io, flags, async (t) => fn(t, await resolveBotId(t, ref)));
}

function botText(b: Bot): string {
  const q = b.qualification;
  return formatFields([
    ['id', b.id],
    ['name', b.name],
    ['status', b.status],
    ...(b.version !== undefined ? [['version', `v${b.version}`] as const] : []),
    ...(q ? qualificationFields(q) : []),
    ['game', b.game],
    ['url', b.url],
    ['challenges', b.challengeable ? 'accepted' : 'refused'],
    ['created', b.createdAt],
  ]);
}

/** The qualification in a few lines: its state, the match, and each strike's reason (failed). */
function qualificationFields(q: NonNullable<Bot['qualification']>): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [
    ['qualification', `${q.state} (v${q.version}, ${q.at})${q.reason ? `: ${q.reason}` : ''}`],
  ];
  if (q.matchId)
    out.push(['qualifier', `${q.matchId} (arena matches show ${q.matchId}; what the bot sent: arena bots strikes)`]);
  q.strikes.forEach((s, i) => out.push([`strike ${i + 1}`, `${s.reason}${s.code ? ` ${s.code}` : ''}: ${s.message}`]));
  return out;
}

async function botTable(list: Bot[]): Promise<string> {
  const { formatTable } = await import('../../term/table');
  return formatTable(
    ['ID', 'NAME', 'STATUS', 'GAME', 'URL', 'CREATED'],
    list.map((b) => [b.id, b.name, b.status, b.game, b.url, b.createdAt]),
  );
}

/** Placements to two decimals; a share as a whole percent. */
export function opponentRows(list: OpponentRow[]): string[][] {
  return list.map((o) => [
    o.name,
    o.owner || '-',
    o.botId,
    String(o.games),
    `${o.above} (${Math.round(o.aboveShare * 100)}%)`,
    o.meanPlacement.toFixed(2),
    o.opponentMeanPlacement.toFixed(2),
  ]);
}

async function opponentTable(list: OpponentRow[]): Promise<string> {
  if (list.length === 0) return '';
  const { formatTable } = await import('../../term/table');
  return formatTable(['OPPONENT', 'OWNER', 'ID', 'GAMES', 'ABOVE', 'MEAN', 'THEIRS'], opponentRows(list));
}
