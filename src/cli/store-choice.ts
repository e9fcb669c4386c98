// Which store a command opens: `--store URL`, else $ARENA_DATABASE_URL, else
// the data directory (--data, $ARENA_DATA_DIR, the XDG default) as before.
// `--data` given on the command line beats $ARENA_DATABASE_URL: a flag says
// more than the environment. The URL's password is never shown: messages
// name the host, port and database only.
import { resolve } from 'node:path';
import { dataDir } from '../config/paths';
import { describeTarget, isDatabaseUrl } from '../service/store/pg/url';
import { usageError } from './errors';

export const STORE_HELP =
  'a PostgreSQL database, postgres://USER[:PASSWORD]@HOST[:PORT]/DB (default: $ARENA_DATABASE_URL; without either, the data directory)';

export type StoreChoice =
  | { kind: 'file'; dir: string }
  | { kind: 'postgres'; url: string; shown: string; from: '--store' | '$ARENA_DATABASE_URL' };

export function chooseStore(
  env: NodeJS.ProcessEnv,
  cwd: string,
  flags: { store?: string; data?: string },
): StoreChoice {
  if (flags.data !== undefined && !flags.data.trim()) throw usageError('--data needs a directory');
  if (flags.store !== undefined) {
    const url = flags.store.trim();
    if (!isDatabaseUrl(url))
      throw usageError(
        `--store takes a PostgreSQL URL such as postgres://arena@127.0.0.1/arena; for a data directory give --data DIR`,
      );
    if (flags.data !== undefined) throw usageError('give --store (a database) or --data (a directory), not both');
    return { kind: 'postgres', url, shown: describeTarget(url), from: '--store' };
  }
  const fromEnv = env.ARENA_DATABASE_URL?.trim();
  if (fromEnv && flags.data === undefined) {
    if (!isDatabaseUrl(fromEnv))
      throw usageError('$ARENA_DATABASE_URL must be a PostgreSQL URL such as postgres://arena@127.0.0.1/arena');
    return { kind: 'postgres', url: fromEnv, shown: describeTarget(fromEnv), from: '$ARENA_DATABASE_URL' };
  }
  return { kind: 'file', dir: resolve(cwd, dataDir(env, flags.data)) };
}
