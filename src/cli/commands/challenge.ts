// `arena challenge BOT OPPONENT...` asks the server for one unrated match
// between one of your bots and named bots (POST /challenges); `arena
// challenges` lists yours with their status (GET /challenges).
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import type { ApiTarget } from '../../client/api';
import {
  CHALLENGE_EXPIRY_MINUTES,
  CHALLENGE_MAX_OPPONENTS,
  CHALLENGE_MAX_PENDING,
  CHALLENGE_MAX_PER_DAY,
} from '../../protocol/challenge-limits';
import type { Challenge } from '../../protocol/challenge';
import { formatFields } from '../../term/fields';
import { usageError } from '../errors';
import type { CliIO } from '../io';
import { emit, SERVER_HELP, serverOptions, withServer, type ServerFlags } from '../server-call';

function challengeText(c: Challenge): string {
  return formatFields([
    ['id', c.id],
    ['bot', c.botId],
    ['opponents', c.opponents.join(' ')],
    ['status', c.status],
    ...(c.matchId ? ([['match', c.matchId]] as [string, string][]) : []),
    ...(c.reason ? ([['reason', c.reason]] as [string, string][]) : []),
    ['created', c.createdAt],
    [c.status === 'pending' ? 'expires' : 'ended', c.status === 'pending' ? c.expiresAt : (c.endedAt ?? '')],
  ]);
}

export function register(program: Command, io: CliIO): void {
  serverOptions(
    program
      .command('challenge')
      .description(
        `challenge 1-${CHALLENGE_MAX_OPPONENTS} bots to one unrated match with one of your bots, played at the next tick they are all idle`,
      )
      .argument('<BOT>', 'your bot: its id, or its name if no other bot of yours has that name')
      .argument('<OPPONENT...>', `1-${CHALLENGE_MAX_OPPONENTS} bot ids (any owner's; names work for your own bots)`),
    'print the Challenge as JSON',
  )
    .addHelpText(
      'after',
      `
The match is unrated and its record says "challenge"; a table of 2 gets a
built-in bot as its third seat. If the bots are never all idle at one tick it
expires after ${CHALLENGE_EXPIRY_MINUTES} minutes. Refused at once: an opponent that is removed,
paused, or whose owner turned challenges off (arena bots update BOT
--challengeable false). An account may have ${CHALLENGE_MAX_PENDING} challenges pending and make
${CHALLENGE_MAX_PER_DAY} a day. Follow them with \`arena challenges\`. Needs bots.write.

Examples:
  $ arena challenge greedy b_Xy3AbCdEfGhIjKlM
  $ arena challenge greedy b_Xy3AbCdEfGhIjKlM b_Q1w2E3r4T5y6U7i8 --json
${SERVER_HELP}`,
    )
    .action(async (ref: string, opponents: string[], flags: ServerFlags) => {
      if (opponents.length > CHALLENGE_MAX_OPPONENTS)
        throw usageError(`name at most ${CHALLENGE_MAX_OPPONENTS} opponents (a table seats 4)`);
      const owner = await import('../../client/owner');
      const made = await withServer(io, flags, async (t: ApiTarget) => {
        const [botId, ...ids] = await owner.resolveBotIds(t, [ref, ...opponents]);
        return owner.createChallenge(t, botId, ids);
      });
      await emit(io, flags.json, made, () => challengeText(made));
      if (!flags.json) io.stderr.write(`pending: played at the next tick its bots are idle; see arena challenges\n`);
    });

  serverOptions(
    program
      .command('challenges')
      .description(
        'your challenges, newest first: pending, played (with the match id), expired or refused (with the reason)',
      )
      .option('--limit <N>', 'challenges to list, 1-100', '20'),
    'print {"challenges": Challenge[]} as JSON',
  )
    .addHelpText(
      'after',
      `
A played challenge names its match: \`arena matches show MATCH\` or the
dashboard's match page. Needs bots.read.

Examples:
  $ arena challenges
  $ arena challenges --limit 100 --json
${SERVER_HELP}`,
    )
    .action(async (flags: ServerFlags & { limit: string }) => {
      const limit = Number(flags.limit);
      if (!/^[0-9]+$/.test(flags.limit) || limit < 1 || limit > 100)
        throw usageError('--limit must be a whole number from 1 to 100');
      const owner = await import('../../client/owner');
      const list = await withServer(io, flags, (t: ApiTarget) => owner.listChallenges(t, limit));
      await emit(io, flags.json, { challenges: list }, async () => {
        if (list.length === 0) return '';
        const { formatTable } = await import('../../term/table');
        return formatTable(
          ['ID', 'BOT', 'OPPONENTS', 'STATUS', 'MATCH OR REASON', 'CREATED'],
          list.map((c) => [c.id, c.botId, c.opponents.join(' '), c.status, c.matchId ?? c.reason ?? '', c.createdAt]),
        );
      });
      if (!flags.json && list.length === 0) io.stderr.write('no challenges yet: arena challenge BOT OPPONENT...\n');
    });
}
