// `arena matches list|show`: matches on an arena server, as tables on a
// terminal or JSON. Public reads: no key needed.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { Option, type Command } from 'commander';
import type { MatchRecord, MatchSummary } from '../../protocol/match';
import { usageError } from '../errors';
import type { CliIO } from '../io';
import { PUBLIC_HELP, urlOption, withPublic } from '../public-server';
import { formatFields } from '../../term/fields';

interface ListFlags {
  bot?: string;
  vs?: string;
  status?: 'running' | 'completed' | 'aborted';
  limit: string;
  json?: boolean;
  url?: string;
}

export const MAX_LIST = 1000;

export function register(program: Command, io: CliIO): void {
  const matches = program
    .command('matches')
    // main.ts sets exitOverride after commands exist, so they do not inherit it.
    .exitOverride()
    .summary('list and inspect matches on the arena server')
    .description(
      'matches the server has played or is playing, newest first. Running matches show who plays; their seed and replay stay hidden until they end. Public: no key needed.',
    );

  urlOption(
    matches
      .command('list')
      .description('list matches, newest first')
      .option('--bot <ID>', 'only matches this bot played (its id, as `arena bots list` or the leaderboard shows)')
      .option('--vs <ID>', 'only matches this bot played too: with --bot, the matches the two played together')
      .addOption(
        new Option('--status <STATUS>', 'only matches in this state').choices(['running', 'completed', 'aborted']),
      )
      .option('--limit <N>', `how many matches at most (1-${MAX_LIST})`, '20')
      .option('--json', 'print {"matches": MatchSummary[], "next": cursor or null} as JSON'),
  )
    .addHelpText(
      'after',
      `
Columns: id, status, when it started, how long it took (or has run), and the
seats in order as NAME#PLACEMENT(rating change), e.g. greedy#1(+2.3).

Examples:
  $ arena matches list
  $ arena matches list --status running
  $ arena matches list --bot b_Xy3AbCdEfGhIjKlM --limit 100 --json | jq '.matches[].id'
  $ arena matches list --bot b_Xy3AbCdEfGhIjKlM --vs b_Ab3CdEfGhIjKlMnO   the two bots' matches together
${PUBLIC_HELP}`,
    )
    .action(async (flags: ListFlags) => {
      const limit = parseLimit(flags.limit);
      if (flags.bot !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(flags.bot))
        throw usageError(`--bot takes a bot id such as b_Xy3AbCdEfGhIjKlM, got "${flags.bot}"`);
      if (flags.vs !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(flags.vs))
        throw usageError(`--vs takes a bot id such as b_Xy3AbCdEfGhIjKlM, got "${flags.vs}"`);
      const { listMatchesUpTo } = await import('../../client/public');
      const page = await withPublic(io, flags.url, (baseUrl) =>
        listMatchesUpTo({ baseUrl }, { botId: flags.bot, vs: flags.vs, status: flags.status }, limit),
      );
      if (flags.json) {
        io.stdout.write(JSON.stringify(page) + '\n');
        return;
      }
      if (page.matches.length === 0) {
        io.stderr.write('no matches yet' + (flags.bot || flags.vs || flags.status ? ' with these filters' : '') + '\n');
        return;
      }
      const { formatTable } = await import('../../term/table');
      io.stdout.write(
        formatTable(
          ['ID', 'STATUS', 'STARTED', 'DURATION', 'SEATS'],
          page.matches.map((m) => summaryRow(m, Date.now())),
        ),
      );
      if (page.next) io.stderr.write(`more matches exist; raise --limit (up to ${MAX_LIST}) to see them\n`);
    });

  urlOption(
    matches
      .command('show')
      .description(
        'show one match: its seats, placements, rating changes and strikes; seed and replay once it has ended',
      )
      .argument('<MATCH-ID>', 'the match id, e.g. from `arena matches list`')
      .option('--json', 'print the Match as the server serves it (seed null and replay empty while it runs)'),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ arena matches show m_Xy3AbCdEfGhIjKlM
  $ arena matches show m_Xy3AbCdEfGhIjKlM --json | jq .seed
  $ arena watch m_Xy3AbCdEfGhIjKlM     follow it live while it runs
  $ arena replay m_Xy3AbCdEfGhIjKlM    step through it once it has ended
${PUBLIC_HELP}`,
    )
    .action(async (id: string, flags: { json?: boolean; url?: string }) => {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw usageError(`MATCH-ID looks like m_Xy3AbCdEfGhIjKlM, got "${id}"`);
      const { getMatch } = await import('../../client/public');
      const match = await withPublic(io, flags.url, (baseUrl) => getMatch({ baseUrl }, id));
      if (flags.json) {
        io.stdout.write(JSON.stringify(match) + '\n');
        return;
      }
      io.stdout.write(formatFields(matchFields(match, Date.now())));
      const { formatTable } = await import('../../term/table');
      io.stdout.write('\n' + formatTable(['SEAT', 'BOT', 'NAME', 'PLACE', 'VP', 'RATING', 'STRIKES'], seatRows(match)));
      io.stderr.write(
        match.status === 'running'
          ? `follow it live: arena watch ${match.id}\n`
          : match.status === 'completed'
            ? `step through it: arena replay ${match.id}\n`
            : '',
      );
    });
}

function parseLimit(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_LIST)
    throw usageError(`--limit must be a whole number from 1 to ${MAX_LIST}, got "${text}"`);
  return n;
}

/** "2026-05-01 12:03:04Z" from an ISO time (the server's are UTC); anything else as given. */
export function shortTime(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z` : iso;
}

/** "1m 05s" between two ISO times (or until now for a running match). */
export function duration(startedAt: string, endedAt: string | null, now: number): string {
  const ms = (endedAt ? Date.parse(endedAt) : now) - Date.parse(startedAt);
  if (!Number.isFinite(ms) || ms < 0) return '-';
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m ${String(s % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

function delta(d: number | null): string {
  return d === null ? '' : `${d >= 0 ? '+' : ''}${d.toFixed(1)}`;
}

function seatText(m: MatchSummary): string {
  return [...m.players]
    .sort((a, b) => a.seat - b.seat)
    .map((p) => {
      const place = p.placement === null ? '' : `#${p.placement}`;
      const d = delta(p.ratingDelta);
      return `${p.botName}${place}${d ? `(${d})` : ''}`;
    })
    .join(' ');
}

export function summaryRow(m: MatchSummary, now: number): string[] {
  return [
    m.id,
    m.challenge
      ? `${m.status} challenge`
      : m.qualification
        ? `${m.status} qualifier`
        : m.rated === false
          ? `${m.status} unrated`
          : m.status,
    shortTime(m.startedAt),
    `${m.endedAt ? '' : 'for '}${duration(m.startedAt, m.endedAt, now)}`,
    seatText(m),
  ];
}

function matchFields(m: MatchRecord, now: number): Array<[string, string]> {
  const fields: Array<[string, string]> = [
    ['id', m.id],
    [
      'status',
      m.challenge
        ? `${m.status}, a challenge (${m.challenge}): unrated, no rating changed`
        : m.qualification
          ? `${m.status}, a qualifier (unrated: a new bot or version against built-in bots)`
          : m.rated === false
            ? `${m.status}, unrated (two bots of one owner at the table: no rating changed)`
            : m.status,
    ],
    ['game', `${m.game} (rules ${m.rulesVersion})`],
    ['started', shortTime(m.startedAt)],
    ['ended', m.endedAt ? shortTime(m.endedAt) : '-'],
    [m.endedAt ? 'duration' : 'running for', duration(m.startedAt, m.endedAt, now)],
    ['seed', m.seed ?? 'hidden until the match ends'],
    ['replay', m.status === 'running' ? 'hidden until the match ends' : `${m.replay.length} events`],
  ];
  const end = m.replay.at(-1);
  if (end?.kind === 'end' && end.data.reason !== 'aborted')
    fields.splice(2, 0, ['result', `${end.data.reason === 'win' ? 'win' : 'turn cap'} after ${end.data.turns} turns`]);
  return fields;
}

function seatRows(m: MatchRecord): string[][] {
  const strikes = new Array<number>(m.players.length).fill(0);
  for (const ev of m.replay) if (ev.kind === 'timeout') strikes[ev.seat] = Math.max(strikes[ev.seat], ev.data.strikes);
  const resigned = new Set(m.replay.filter((e) => e.kind === 'resign').map((e) => e.seat));
  return [...m.players]
    .sort((a, b) => a.seat - b.seat)
    .map((p) => [
      String(p.seat),
      p.botId,
      p.botName,
      p.placement === null ? '-' : String(p.placement),
      m.vp ? String(m.vp[p.seat]) : '-',
      p.ratingDelta === null ? '-' : delta(p.ratingDelta),
      m.status === 'running' ? '-' : `${strikes[p.seat]}${resigned.has(p.seat) ? ' (resigned)' : ''}`,
    ]);
}
