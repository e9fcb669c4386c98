// What the public-read commands (`arena matches`, `arena leaderboard`,
// `arena watch`, `arena replay MATCH-ID`) share: the server URL from --url,
// then $ARENA_URL, then the login profile (no key: these reads are public),
// and the mapping of their failures to exit codes.
// Libraries load when an action runs, so `arena --help` stays fast.
import type { Command } from 'commander';
import { ConfigError } from '../config/errors';
import { CliError, EXIT, noServerError } from './errors';
import { libraryCliError } from './library-errors';
import type { CliIO } from './io';

export function urlOption(cmd: Command): Command {
  return cmd.option('--url <URL>', 'server base URL (default: $ARENA_URL, then the login profile); no key needed');
}

export const PUBLIC_HELP = `
The server comes from --url, then $ARENA_URL, then the profile saved by
\`arena login\`. These reads are public: no key is needed. Exit codes:
0 ok, 1 failure (server unreachable, no such match), 2 usage (including
no server configured).`;

/** The server's base URL, or null when none is configured; a bad setting is a usage error naming where it came from. */
export async function configuredServer(io: CliIO, flag: string | undefined): Promise<string | null> {
  const { resolveSettings } = await import('../config/settings');
  try {
    return resolveSettings({ url: flag }, io.env, ['url']).url?.value ?? null;
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
}

/** Runs fn against the configured server; failures become CliErrors with the right exit code. */
export async function withPublic<T>(
  io: CliIO,
  flag: string | undefined,
  fn: (baseUrl: string) => Promise<T>,
): Promise<T> {
  const baseUrl = await configuredServer(io, flag);
  if (!baseUrl) throw noServerError();
  try {
    return await fn(baseUrl);
  } catch (err) {
    throw publicCliError(err);
  }
}

/** A refusal is 2 when the request was bad (400: a malformed id or query), else 1. */
function publicCliError(err: unknown): unknown {
  return libraryCliError(err, (refusal) => (refusal.status === 400 ? EXIT.usage : EXIT.failure));
}
