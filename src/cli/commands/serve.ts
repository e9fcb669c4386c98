// `arena serve`: the hosted service (HTTP API, scheduler, live) on a data
// directory. A thin layer over startServer (src/service/server.ts): resolve
// the data directory, take the store (and its lock), start, say where, and
// stop cleanly on SIGINT/SIGTERM.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { Option, type Command } from 'commander';
import { onStopSignals, signalExitCode, type SignalSource } from '../interrupt';
import { CliError, EXIT, usageError } from '../errors';
import type { CliIO } from '../io';
import type { PlatformKey } from '../../config/platform-key';
import type { Store } from '../../service/store/types';
import type { ReplayGuard } from '../../service/http/replay-cache';
import type { Db } from '../../service/store/pg/db';

interface ServeFlags {
  data?: string;
  store?: string;
  migrate?: boolean;
  host: string;
  port: string;
  baseUrl?: string;
  dev?: boolean;
  smtp?: string;
  logFormat: 'json' | 'pretty';
  tick: string;
  matchTimeout?: string;
  maxMatches?: string;
  minTurnMs?: string;
  sameOwner: 'allow' | 'avoid' | 'forbid';
  qualify: 'on' | 'off';
  qualifyOpponents?: string;
  trustProxy?: boolean;
  maxConnections?: string;
  maxConnectionsPerAddress?: string;
  maxLiveStreams?: string;
  init?: boolean;
  role: 'all' | 'api' | 'scheduler' | 'worker';
  concurrency?: string;
  lease?: string;
}

export const DEFAULT_PORT = 8080;

/** The start-up line's words for --same-owner. */
const SAME_OWNER_LINE = {
  allow: 'bots of one owner may share a table, rated (--same-owner allow)',
  avoid: 'bots of one owner are spread over tables; a table with two of them is unrated (--same-owner avoid)',
  forbid: 'bots of one owner never share a table; they wait instead (--same-owner forbid)',
} as const;
export const DEFAULT_HOST = '127.0.0.1';

/** Tests of the signal handling may pass their own; the command uses the process. */
export function register(program: Command, io: CliIO, signals: SignalSource = process): void {
  program
    .command('serve')
    // main.ts sets exitOverride after commands exist, so they do not inherit it;
    // without this commander exits 1 itself on a usage error instead of 2.
    .exitOverride()
    .summary('run the arena service: HTTP API, matchmaking and live matches on a data directory')
    .description(
      'run the hosted service on one data directory (a JSON file store, one file per match, and the platform key that signs bot handshakes; created on first start). Production mode by default: bot URLs must be https and resolve to public addresses, sign-in cookies are Secure. Only one process may use a data directory at a time; with --store (a PostgreSQL database, or $ARENA_DATABASE_URL) there is no data directory, and any number of servers and `arena admin` commands may share the database. Create the first user and key with `arena admin` before starting.',
    )
    .addOption(
      new Option(
        '--role <ROLE>',
        'what this process does: all = API, matchmaking and matches in one process; on a database, a cluster instead: api = HTTP API, dashboard and live streams (run several behind a proxy), scheduler = forms the tables and queues their matches (one leads, others wait), worker = plays queued matches (see docs/operating.md)',
      )
        .choices(['all', 'api', 'scheduler', 'worker'])
        .default('all'),
    )
    .option('--concurrency <N>', 'with --role worker: matches this worker plays at once (default: 10)')
    .option(
      '--lease <SECONDS>',
      "with --role worker: a match stays this worker's while it renews it this often (a third of it); a worker gone this long has its match aborted by the scheduler (default: 15)",
    )
    .option(
      '--data <DIR>',
      'data directory (default: $ARENA_DATA_DIR, else $XDG_DATA_HOME/arena, else ~/.local/share/arena)',
    )
    .option(
      '--store <URL>',
      'run on a PostgreSQL database instead of a data directory: postgres://USER[:PASSWORD]@HOST[:PORT]/DB (default: $ARENA_DATABASE_URL); several servers may share one',
    )
    .option(
      '--no-migrate',
      'with a database: refuse to start when its schema needs migrating (and say what is pending) instead of migrating it; `arena admin migrate-db` migrates',
    )
    .option(
      '--init',
      'start a new, empty store even though the data directory holds match records or a journal but no store.json (otherwise refused: restore it from `arena admin backup` instead)',
    )
    .option('--host <HOST>', 'address to listen on; put a TLS proxy in front for the internet', DEFAULT_HOST)
    .option('--port <PORT>', 'port to listen on; 0 picks a free one (the start-up line names it)', String(DEFAULT_PORT))
    .option(
      '--base-url <URL>',
      'public address users and bots reach the service at, for sign-in links and the same-origin check (default: http://HOST:PORT)',
    )
    .option(
      '--dev',
      'development: allow http/ws and loopback bot URLs, cookies without Secure; never expose such a server',
    )
    .option(
      '--smtp <URL>',
      'send sign-in links by SMTP, e.g. smtps://user:pass@mail.example.com (default: $ARENA_SMTP_URL; without one, links go to the log)',
    )
    .addOption(
      new Option(
        '--log-format <FORMAT>',
        'request log on stderr: one JSON object per line, or short lines for a terminal',
      )
        .choices(['json', 'pretty'])
        .default('json'),
    )
    .option(
      '--trust-proxy',
      "the server is behind a reverse proxy (nginx, Caddy) on this host or the private network: rate limits count each client by the address the proxy appends to X-Forwarded-For, not the proxy's own",
    )
    .option(
      '--tick <SECONDS>',
      'matchmaking: every this many seconds, seat every idle active bot in tables of 4 (and 3); 0 turns matchmaking off',
      '30',
    )
    .option(
      '--max-matches <N>',
      'matches running at once, at most: each holds a socket per seat, and the process has only so many; past it the seats are shared among owners, longest-waiting bots first (default: 100)',
    )
    .option(
      '--max-connections <N>',
      'connections open at once for requests (live streams aside): past it a new connection is answered 429 and closed (default: half of the open-file limit left after 4 sockets per match and 256 files, at most 10000; the start-up line says)',
    )
    .option(
      '--max-connections-per-address <N>',
      "of those, from one client address (IPv6: its /64); the socket's own address, so behind a proxy it caps the proxy (default: an eighth of --max-connections, 8 to 256; with --trust-proxy, all of them)",
    )
    .option(
      '--max-live-streams <N>',
      'live match streams (GET /matches/{id}/live) open at once, apart from --max-connections; one address may hold 32 (default: a quarter of what --max-connections is half of)',
    )
    .addOption(
      new Option(
        '--same-owner <RULE>',
        'bots of one owner at one table: avoid = spread owners over tables, and a table that still has two of one owner is played unrated; forbid = such a table is not formed (those bots wait); allow = seat by rating alone and rate every table',
      )
        .choices(['allow', 'avoid', 'forbid'])
        .default('avoid'),
    )
    .addOption(
      new Option(
        '--qualify <ON_OFF>',
        'qualification: on = a new bot, and each new version of one (URL change), plays one unrated match against built-in bots before rated matchmaking seats it (at most 1 strike and no resignation pass); off = bots are rated at once. Servers sharing a database should agree',
      )
        .choices(['on', 'off'])
        .default('on'),
    )
    .option(
      '--qualify-opponents <LIST>',
      'the 2 or 3 built-in bots a qualifier seats, comma-separated (default: builtin:greedy,builtin:random; also builtin:search)',
    )
    .option(
      '--match-timeout <SECONDS>',
      'wall clock per match: a match still running this long after it started is aborted (default: 600, 10 minutes; lower it for tests)',
    )
    .option(
      '--min-turn-ms <MS>',
      "pace matches for spectators (a showcase server): each turn takes at least this many milliseconds of wall time; the arena waits before the next turn, charging no bot's deadline or time bank and not counting toward --match-timeout (default: 0, as fast as the bots answer)",
    )
    .addHelpText(
      'after',
      `
Start-up lines on stderr name the data directory (or the database), the
mode, the platform public key and the address, the last as "listening on
http://HOST:PORT". On a database one server runs matchmaking; see
docs/operating.md.
A client must send a request's headers within 10 s and the whole request
within 30 s; an idle keep-alive connection is closed after 5 s.
Signed requests stamped before the server started are refused (401, sign
again): the replay memory does not survive a restart (docs/operating.md).
SIGINT or SIGTERM stops accepting, finishes in-flight requests, aborts and
records running matches, flushes the store and exits 0; a second signal
exits at once. \`arena admin backup DIR\` copies the store while it runs.

Examples:
  $ arena admin user add --email ops@example.com && arena admin key add --user ops@example.com --public-key admin.pem
  $ arena serve --base-url https://arena.example.com --smtp smtps://arena:secret@mail.example.com
  $ arena serve --base-url https://arena.example.com --trust-proxy     behind nginx or Caddy on this host
  $ arena serve --dev --port 0 --data /tmp/arena-dev --log-format pretty
  $ arena serve --dev --port 0 --tick 1 --match-timeout 60     quick rounds for testing bots
  $ arena serve --max-matches 500                              more matches at once: 4 sockets each (see ulimit -Hn)
  $ ARENA_DATA_DIR=/srv/arena arena serve --host 0.0.0.0 --port 8080
  $ arena serve --store postgres://arena@db.internal/arena --base-url https://arena.example.com
  $ arena serve --role api --store postgres://arena@db.internal/arena --trust-proxy     a cluster: API processes,
  $ arena serve --role scheduler --store postgres://arena@db.internal/arena             two schedulers (one leads),
  $ arena serve --role worker --store postgres://arena@db.internal/arena --concurrency 50     and workers`,
    )
    .action(async (flags: ServeFlags) => {
      const { existsSync } = await import('node:fs');
      const { openFileStore } = await import('../../service/store/file-store');
      const { StoreLocked } = await import('../../service/store/types');
      const { chooseStore } = await import('../store-choice');
      const { startServer } = await import('../../service/server');
      const { DEFAULT_MAX_MATCHES } = await import('../../service/scheduler/scheduler');

      const port = parsePort(flags.port);
      const tickSeconds = parseSeconds('--tick', flags.tick, 0);
      const matchTimeoutMs =
        flags.matchTimeout === undefined ? undefined : parseSeconds('--match-timeout', flags.matchTimeout, 1) * 1000;
      const maxMatches = flags.maxMatches === undefined ? undefined : parseMaxMatches(flags.maxMatches);
      const minTurnMs = flags.minTurnMs === undefined ? undefined : parseMinTurnMs(flags.minTurnMs);
      const { parseQualifyOpponents, DEFAULT_QUALIFY_OPPONENTS } = await import('../../service/scheduler/qualify');
      let qualifyOpponents;
      try {
        qualifyOpponents =
          flags.qualifyOpponents === undefined ? undefined : parseQualifyOpponents(flags.qualifyOpponents);
      } catch (err) {
        throw usageError(`--qualify-opponents: ${(err as Error).message}`);
      }
      const connectionLimits = {
        ...(flags.maxConnections === undefined
          ? {}
          : { maxConnections: parseCap('--max-connections', flags.maxConnections) }),
        ...(flags.maxConnectionsPerAddress === undefined
          ? {}
          : { maxConnectionsPerAddress: parseCap('--max-connections-per-address', flags.maxConnectionsPerAddress) }),
        ...(flags.maxLiveStreams === undefined
          ? {}
          : { maxLiveStreams: parseCap('--max-live-streams', flags.maxLiveStreams) }),
      };
      if (!flags.host.trim()) throw usageError('--host needs an address, e.g. 127.0.0.1 or 0.0.0.0');
      const baseUrl = flags.baseUrl === undefined ? undefined : parseBaseUrl(flags.baseUrl);
      const smtpUrl = flags.smtp ?? (io.env.ARENA_SMTP_URL?.trim() || undefined);
      const smtpShown =
        smtpUrl === undefined
          ? undefined
          : describeSmtp(smtpUrl, flags.smtp !== undefined ? '--smtp' : '$ARENA_SMTP_URL');
      const choice = chooseStore(io.env, io.cwd, flags);
      const role = flags.role;
      if (role !== 'all' && choice.kind !== 'postgres')
        throw usageError(
          `--role ${role} needs a database (--store or $ARENA_DATABASE_URL): a data directory serves one process, --role all`,
        );
      if (role === 'scheduler' && tickSeconds === 0)
        throw usageError('--role scheduler needs a --tick above 0 (it forms the tables every tick)');
      if (role !== 'worker' && (flags.concurrency !== undefined || flags.lease !== undefined))
        throw usageError('--concurrency and --lease are for --role worker');
      const concurrency =
        flags.concurrency === undefined ? 10 : parseCount('--concurrency', flags.concurrency, 1, 1000);
      const leaseMs = flags.lease === undefined ? 15_000 : parseSeconds('--lease', flags.lease, 1) * 1000;
      const say = (line: string) => void io.stderr.write(`arena serve: ${line}\n`);

      let store: Store;
      let dir = '';
      let storeLine: string;
      let platformKey: PlatformKey | undefined;
      let lease: { held: boolean; release(): Promise<void> } | null = null;
      let replayGuard: (ReplayGuard & { close(): void }) | undefined;
      let pgDb: Db | undefined;
      if (choice.kind === 'postgres') {
        // No data directory: the platform key lives in the database, so every server on it signs alike.
        const { openDatabaseStore } = await import('../open-database');
        const { loadOrCreateDbPlatformKey } = await import('../../service/store/pg/platform-key');
        const db = await openDatabaseStore(choice.url, choice.shown, flags.migrate !== false);
        try {
          platformKey = await loadOrCreateDbPlatformKey(db.db);
        } catch (err) {
          await db.close().catch(() => {});
          throw new CliError(
            `cannot read the platform key from the database at ${choice.shown}: ${(err as Error).message}`,
            EXIT.failure,
          );
        }
        store = db;
        pgDb = db.db;
        // Signatures seen are kept in the database: a second server and a restart refuse a replay too.
        const { PgReplayGuard } = await import('../../service/store/pg-replay-guard');
        const { REQUEST_WINDOW_MS } = await import('../../keys/index');
        if (role === 'scheduler' || role === 'worker') {
          const { describe } = await import('../../service/store/pg/migrations');
          say(
            `database ${choice.shown} (from ${choice.from}${db.applied.length ? `; migrated ${db.applied.map(describe).join(', ')}` : ''})`,
          );
          say(`role ${role}`);
          const { startClusterRole } = await import('../serve-roles');
          let running: Awaited<ReturnType<typeof startClusterRole>>;
          try {
            running = await startClusterRole({
              role,
              store: db,
              platformKey,
              host: flags.host,
              port,
              dev: flags.dev === true,
              logFormat: flags.logFormat,
              logOut: io.stderr,
              tickMs: tickSeconds * 1000,
              matchTimeoutMs: matchTimeoutMs ?? 600_000,
              maxMatches,
              sameOwner: flags.sameOwner,
              minTurnMs,
              qualify: flags.qualify,
              qualifyOpponents,
              concurrency,
              leaseMs,
              say,
            });
          } catch (err) {
            await db.close().catch(() => {});
            throw new CliError(`cannot start the ${role}: ${(err as Error).message}`, EXIT.failure);
          }
          say(`/health and /metrics on ${running.url}`);
          say(`listening on ${running.url}`);
          await untilSignal(signals, say);
          await running.close();
          await db.close();
          say('stopped');
          return;
        }
        replayGuard = new PgReplayGuard(db.db, REQUEST_WINDOW_MS);
        if (tickSeconds > 0 && role === 'all') {
          const { claimMatchmaking } = await import('../../service/store/pg/matchmaker');
          lease = await claimMatchmaking(db.db).catch(async (err: Error) => {
            replayGuard?.close();
            await db.close().catch(() => {});
            throw new CliError(`cannot reach the database at ${choice.shown}: ${err.message}`, EXIT.failure);
          });
        }
        const { describe } = await import('../../service/store/pg/migrations');
        storeLine = `database ${choice.shown} (from ${choice.from}${db.applied.length ? `; migrated ${db.applied.map(describe).join(', ')}` : ''})`;
      } else {
        dir = choice.dir;
        const isNew = !existsSync(dir);
        try {
          store = await openFileStore(dir, { init: flags.init === true });
        } catch (err) {
          if (err instanceof StoreLocked) {
            throw new CliError(
              `the data directory ${dir} is in use by another arena process${err.pid ? ` (pid ${err.pid})` : ''}; stop it first, or give another --data`,
              EXIT.failure,
            );
          }
          throw new CliError(`cannot open the store in ${dir}: ${(err as Error).message}`, EXIT.failure);
        }
        storeLine = `data directory ${dir}${isNew ? ' (created)' : ''}`;
      }

      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        // Another server on the database is the matchmaker: this one serves the API and leaves its matches alone.
        const follower = lease !== null && !lease.held;
        // On a database only the matchmaker may take running matches for a dead process's (--tick 0 runs none).
        const recoverMatches = role === 'all' && (choice.kind === 'file' || lease?.held === true);
        const clusterApi = role === 'api' ? { role, tickSeconds: 0, queueMetricsDb: pgDb } : {};
        server = await startServer({
          store,
          dataDir: dir,
          platformKey,
          recoverMatches,
          replayGuard,
          host: flags.host,
          port,
          baseUrl,
          dev: flags.dev === true,
          smtpUrl,
          logFormat: flags.logFormat,
          logOut: io.stderr,
          tickSeconds,
          matchTimeoutMs,
          maxMatches,
          minTurnMs,
          sameOwner: flags.sameOwner,
          qualify: flags.qualify,
          qualifyOpponents,
          trustProxy: flags.trustProxy === true,
          connectionLimits,
          ...(follower ? { tickSeconds: 0 } : {}),
          ...clusterApi,
        });
      } catch (err) {
        await lease?.release();
        replayGuard?.close();
        await store.close().catch(() => {});
        const e = err as NodeJS.ErrnoException;
        if (e.code === 'EADDRINUSE')
          throw new CliError(
            `cannot listen on ${flags.host}:${port}: the port is in use (pick another with --port, or 0 for any free one)`,
            EXIT.failure,
          );
        if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND')
          throw new CliError(`cannot listen on ${flags.host}: no such local address`, EXIT.failure);
        if (e.code === 'EACCES')
          throw new CliError(
            `cannot listen on ${flags.host}:${port}: permission denied (ports below 1024 need privileges)`,
            EXIT.failure,
          );
        throw new CliError(`cannot start the server: ${e.message}`, EXIT.failure);
      }

      say(storeLine);
      if (flags.dev) {
        say(
          '*** DEVELOPMENT MODE (--dev): http/ws and loopback bot URLs are accepted and sign-in cookies are not Secure ***',
        );
        say('*** never expose this server to other people or the internet ***');
      } else {
        say('mode production: bot URLs must be https and resolve to public addresses; sign-in cookies are Secure');
        if (!server.baseUrl.startsWith('https:'))
          say(
            `warning: the base URL ${server.baseUrl} is not https, so browsers will not keep the Secure sign-in cookie; give --base-url https://...`,
          );
      }
      say(
        `platform public key ${server.platformKey.publicKeyBase64} (GET /.well-known/svc.json; bots may verify handshakes with it)`,
      );
      say(
        smtpShown
          ? `sign-in mail by SMTP via ${smtpShown}`
          : 'sign-in links go to this log (no --smtp or $ARENA_SMTP_URL)',
      );
      if (baseUrl) say(`base URL ${server.baseUrl}`);
      if (flags.trustProxy)
        say(
          'behind a proxy (--trust-proxy): clients are counted by the last X-Forwarded-For address of requests from loopback or private addresses',
        );
      if (role === 'api')
        say('role api: serves the API, the dashboard and live streams; the scheduler and workers run the matches');
      else if (lease && !lease.held)
        say(
          `matchmaking: another server on this database runs it (one matchmaker per database); this one serves the API`,
        );
      else
        say(
          tickSeconds > 0
            ? `matchmaking every ${tickSeconds} s, at most ${maxMatches ?? DEFAULT_MAX_MATCHES} matches at once; a match is aborted after ${(matchTimeoutMs ?? 600_000) / 1000} s; ${SAME_OWNER_LINE[flags.sameOwner]}`
            : 'matchmaking off (--tick 0): no matches start',
        );
      say(
        flags.qualify === 'off'
          ? 'qualification off (--qualify off): new bots and new versions are rated at once'
          : `qualification on: a new bot or version first plays one unrated match against ${(qualifyOpponents ?? DEFAULT_QUALIFY_OPPONENTS).map((b) => `builtin:${b}`).join(', ')} (at most 1 strike, no resignation)`,
      );
      if (minTurnMs) say(`matches are paced for spectators: each turn takes at least ${minTurnMs} ms (--min-turn-ms)`);
      const caps = server.connectionLimits;
      say(
        `connections: at most ${caps.maxConnections} for requests, ${caps.maxConnectionsPerAddress} from one address, and ${caps.maxLiveStreams} live streams (--max-connections, --max-connections-per-address, --max-live-streams)`,
      );
      // The handlers before the line a supervisor (or a test) waits for: a signal sent the moment it
      // reads it must find them, or it ends the process at once, the store unflushed.
      const stop = untilSignal(signals, say);
      say(`listening on ${server.url}`);

      await stop;
      // Stop accepting and finish in-flight requests, then flush the store.
      await server.close();
      await lease?.release();
      replayGuard?.close();
      await store.close();
      say('stopped; the store is flushed');
    });
}

/** Resolves on the first SIGINT/SIGTERM; a second one exits at once. */
function untilSignal(signals: SignalSource, say: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    onStopSignals(
      signals,
      (signal) => {
        say(`${signal}: stopping (finishing requests in flight; send the signal again to quit at once)`);
        resolve();
      },
      (signal) => {
        say(`second ${signal}: exiting now without waiting for requests in flight`);
        signals.exit(signalExitCode(signal));
      },
    );
  });
}

/** Whole or decimal seconds, at least `min`, at most a day. */
function parseSeconds(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || n < min || n > 86_400)
    throw usageError(`${flag} must be a number of seconds from ${min} to 86400, got "${text}"`);
  return n;
}

/** Milliseconds a turn takes at least: 0 (no pacing) to a minute. */
function parseMinTurnMs(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 60_000)
    throw usageError(`--min-turn-ms must be a whole number of milliseconds from 0 to 60000, got "${text}"`);
  return n;
}

function parseCount(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw usageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  return n;
}

function parseMaxMatches(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 10_000)
    throw usageError(`--max-matches must be a whole number from 1 to 10000, got "${text}"`);
  return n;
}

/** A connection cap: a whole number from 1 to 1,000,000. */
function parseCap(flag: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 1_000_000)
    throw usageError(`${flag} must be a whole number from 1 to 1000000, got "${text}"`);
  return n;
}

function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535)
    throw usageError(`--port must be a whole number from 0 to 65535, got "${text}"`);
  return n;
}

/** An http(s) origin with an optional path; never a query, fragment or credentials. */
export function parseBaseUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw usageError(`--base-url must be a URL such as https://arena.example.com, got "${text}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw usageError(`--base-url must be http or https, got ${u.protocol.replace(':', '')}`);
  if (u.username || u.password || u.search || u.hash)
    throw usageError('--base-url must not carry credentials, a query or a fragment');
  return u.toString().replace(/\/+$/, '');
}

/** Where mail goes, for the start-up line: scheme, host and port, never the credentials. */
function describeSmtp(text: string, from: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw usageError(`${from} must be an SMTP URL such as smtp://127.0.0.1:2525 or smtps://user:pass@mail.example.com`);
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
    throw usageError(`${from} must start with smtp:// or smtps://`);
  return `${u.protocol}//${u.host}`;
}
