// `arena admin`: offline administration of a data directory. This is how the
// first account and key of a new service exist: run it before `arena serve`
// (or while the server is stopped). It takes the store's lock, so it refuses
// while a server holds the directory; `admin backup` is the exception (see there).
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { Option, type Command } from 'commander';
import type { Store } from '../../service/store/types';
import { STORE_HELP } from '../store-choice';
import { CliError, EXIT, usageError } from '../errors';
import type { CliIO } from '../io';
import { libraryCliError } from '../library-errors';
import { SCOPE_NAMES, scopeList } from './keys-server';
import type { StoreChoice } from '../store-choice';

const DATA_HELP = 'data directory (default: $ARENA_DATA_DIR, else $XDG_DATA_HOME/arena, else ~/.local/share/arena)';

interface DataFlags {
  data?: string;
  store?: string;
  json?: boolean;
}

export function register(program: Command, io: CliIO): void {
  const admin = program
    .command('admin')
    // main.ts sets exitOverride after commands exist, so they do not inherit it;
    // without this commander exits 1 itself on a usage error instead of 2.
    .exitOverride()
    .summary('add users and keys to the store, list users, back it up, move it to PostgreSQL')
    .description(
      'operator commands that work on the store itself, without a running server: add the first user and their key (all six scopes), list users, back the store up, export and import it, migrate a database. On a data directory they refuse while `arena serve` holds it (stop it first; `admin backup` and `admin export` work either way); on a PostgreSQL database (--store URL or $ARENA_DATABASE_URL) they work while servers run on it.',
    )
    .addHelpText(
      'after',
      `
Bootstrap a new service:
  $ arena keys generate --out admin.pem
  $ arena admin user add --email ops@example.com --handle ops
  $ arena admin key add --user ops@example.com --public-key admin.pem --name ops-laptop
  $ arena serve --base-url https://arena.example.com &
  $ arena login --url https://arena.example.com --key-id K_FROM_ABOVE --key admin.pem`,
    );

  const user = admin.command('user').description('add users');
  user
    .command('add')
    .description('add a user (an account) to the data directory')
    .requiredOption('--email <EMAIL>', "the user's e-mail address (unique, compared case-insensitively)")
    .option(
      '--handle <NAME>',
      'public handle: 2-32 characters of a-z, 0-9 and _ (default: none; the user picks one with `arena me handle`)',
    )
    .option('--data <DIR>', DATA_HELP)
    .option('--store <URL>', STORE_HELP)
    .option('--json', 'print the User {id, name, email} as JSON')
    .addHelpText(
      'after',
      `
Prints the new user's id on stdout.

Examples:
  $ arena admin user add --email ops@example.com --handle ops
  $ arena admin user add --email ada@example.com --data /srv/arena --json | jq -r .id`,
    )
    .action(async (flags: DataFlags & { email: string; handle?: string }) => {
      const { addUser } = await import('../../service/admin/accounts');
      const u = await withStore(io, flags, true, (store) =>
        addUser(store, { email: flags.email, handle: flags.handle }),
      );
      const shown = { id: u.id, name: u.name, email: u.email };
      io.stdout.write(flags.json ? JSON.stringify(shown) + '\n' : `${u.id}\n`);
      if (!flags.json)
        io.stderr.write(
          `added user ${u.email}${u.name ? ` (@${u.name})` : ''}; next: arena admin key add --user ${u.email} --public-key FILE\n`,
        );
    });

  const key = admin.command('key').description('add API keys');
  key
    .command('add')
    .description('register a public key for a user; all six scopes by default (this bootstraps an operator)')
    .requiredOption('--user <EMAIL|ID>', "the key's owner, by e-mail or user id")
    .requiredOption(
      '--public-key <FILE>',
      'public key file (ssh-ed25519 line, PEM or raw base64; a private key file gives its public half) or an ssh-ed25519 line',
    )
    .option('--name <NAME>', 'a name for the key, 1-64 characters (default: admin)')
    .addOption(
      new Option(
        '--scopes <SCOPE...>',
        `scopes, space- or comma-separated (default: all of ${SCOPE_NAMES.join(', ')})`,
      ),
    )
    .option('--data <DIR>', DATA_HELP)
    .option('--store <URL>', STORE_HELP)
    .option('--json', 'print the ApiKeyMeta as JSON (its id is the key id)')
    .addHelpText(
      'after',
      `
Prints the key id on stdout; give it to \`arena login --key-id\`.

Examples:
  $ arena admin key add --user ops@example.com --public-key admin.pem
  $ arena admin key add --user u_Xy3AbCdEfGhIjKlM --public-key ~/.ssh/id_ed25519.pub --scopes bots.read,bots.write
  $ KEY_ID=$(arena admin key add --user ops@example.com --public-key admin.pem --json | jq -r .id)`,
    )
    .action(async (flags: DataFlags & { user: string; publicKey: string; name?: string; scopes?: string[] }) => {
      const scopes = flags.scopes ? scopeList(flags.scopes) : undefined;
      const { readPublicKeyInput } = await import('../../client/public-key-input');
      let publicKey: string;
      try {
        publicKey = readPublicKeyInput(flags.publicKey).raw;
      } catch (err) {
        throw libraryCliError(err);
      }
      const { addKey } = await import('../../service/admin/accounts');
      const k = await withStore(io, flags, false, (store) =>
        addKey(store, { user: flags.user, publicKey, name: flags.name, scopes }),
      );
      const { userId: _owner, ...meta } = k;
      io.stdout.write(flags.json ? JSON.stringify(meta) + '\n' : `${k.id}\n`);
      if (!flags.json)
        io.stderr.write(
          `added key ${k.name} (${k.id}) with scopes ${k.scopes.join(', ')}; sign with it: arena login --url URL --key-id ${k.id} --key PRIVATE_KEY_FILE\n`,
        );
    });

  admin
    .command('users')
    .description('list the users of the data directory, with their active keys and bots')
    .option('--data <DIR>', DATA_HELP)
    .option('--store <URL>', STORE_HELP)
    .option('--json', 'print {"users": [{id, name, email, createdAt, activeKeys, bots}]} as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ arena admin users
  $ arena admin users --json | jq -r '.users[].email'`,
    )
    .action(async (flags: DataFlags) => {
      const { listUsers } = await import('../../service/admin/accounts');
      const users = await withStore(io, flags, false, (store) => listUsers(store));
      if (flags.json) {
        io.stdout.write(JSON.stringify({ users }) + '\n');
        return;
      }
      if (users.length === 0) {
        io.stderr.write('no users yet; add one with `arena admin user add --email E`\n');
        return;
      }
      const { formatTable } = await import('../../term/table');
      io.stdout.write(
        formatTable(
          ['ID', 'HANDLE', 'EMAIL', 'KEYS', 'BOTS', 'CREATED'],
          users.map((u) => [
            u.id,
            u.name ? `@${u.name}` : '-',
            u.email,
            String(u.activeKeys),
            String(u.bots),
            u.createdAt,
          ]),
        ),
      );
    });

  admin
    .command('backup')
    .description(
      'write a consistent copy of the store into DIR (new or empty), whether a server is running on it or not',
    )
    .argument('<DIR>', 'where the copy goes: a new or empty directory')
    .option('--data <DIR>', DATA_HELP)
    .option('--store <URL>', STORE_HELP)
    .addHelpText(
      'after',
      `
The copy is itself a data directory: \`arena serve --data DIR\` runs on it.
It holds the platform key (mode 0600), so a server restored from it signs bot
handshakes with the same key; keep it as private as the data directory.
Backing up a running server takes no lock and does not stop it (see below).

Examples:
  $ arena admin backup /backups/arena-$(date +%F)
  $ arena admin backup --data /srv/arena /backups/today`,
    )
    .action(async (out: string, flags: { data?: string; store?: string }) => {
      const { resolve } = await import('node:path');
      const { chooseStore } = await import('../store-choice');
      const choice = chooseStore(io.env, io.cwd, flags);
      if (choice.kind === 'postgres') {
        await exportCommand(io, choice, resolve(io.cwd, out));
        return;
      }
      const { backupDataDir } = await import('../../service/store/backup');
      const { errnoReason } = await import('../../fs/errno-text');
      const from = choice.dir;
      const to = resolve(io.cwd, out);
      // No lock, on purpose: the server keeps the lock while it runs, and a
      // backup must not need it stopped. backupDataDir reads store.json, the
      // match log and the running matches' files, then store.json again, and
      // retries until the reads were one moment of the store (writes are
      // whole-file renames and log appends, so each read sees a whole
      // version); completed matches never change and are copied afterwards.
      // So the same command serves a stopped and a running store, with no
      // second path through the server to secure.
      try {
        await backupDataDir(from, to);
      } catch (err) {
        // backupDataDir removes a partial copy, so DIR never holds half a backup.
        throw new CliError(`backup failed: ${errnoReason(err)}`, EXIT.failure);
      }
      io.stderr.write(`backed up ${from} to ${to}\n`);
    });

  admin
    .command('export')
    .description(
      "write the whole store (a database or a data directory) as a data directory: the file store's format, also the backup format; works while servers run",
    )
    .requiredOption('--to <DIR>', 'where the copy goes: a new or empty directory')
    .option('--data <DIR>', DATA_HELP)
    .option('--store <URL>', STORE_HELP)
    .addHelpText(
      'after',
      `
Prints the records written per kind on stdout. From a database the copy is
one moment of it (a single read-only transaction), taken without stopping the
servers; it includes the platform key (platform-key.pem, 0600).

Examples:
  $ arena admin export --store postgres://arena@db.internal/arena --to /backups/arena-$(date +%F)
  $ arena admin export --to /tmp/arena-copy                   the data directory`,
    )
    .action(async (flags: { to: string; data?: string; store?: string }) => {
      const { resolve } = await import('node:path');
      const { chooseStore } = await import('../store-choice');
      await exportCommand(io, chooseStore(io.env, io.cwd, flags), resolve(io.cwd, flags.to));
    });

  admin
    .command('import')
    .description('load a data directory (a stopped store, a backup or an export) into an empty PostgreSQL database')
    .requiredOption('--from <DIR>', 'the data directory to read; not one a server is running on (back it up first)')
    .requiredOption(
      '--to <URL>',
      'the database: postgres://USER[:PASSWORD]@HOST[:PORT]/DB; migrated first, and it must hold no records',
    )
    .addHelpText(
      'after',
      `
Prints the records loaded per kind on stdout. All or nothing: one
transaction, refused when the database holds any user, key, bot, rating,
session, sign-in link or match. The platform key comes along, so bots see the
same key after the move.

Examples:
  $ arena admin backup /tmp/arena-now && arena admin import --from /tmp/arena-now --to postgres://arena@db.internal/arena`,
    )
    .action(async (flags: { from: string; to: string }) => {
      const { resolve } = await import('node:path');
      const { chooseStore } = await import('../store-choice');
      const { describeCounts } = await import('../../service/store/transfer/records');
      const { importDataDir } = await import('../../service/store/export-store');
      const { openDatabaseStore } = await import('../open-database');
      const { StoreLocked } = await import('../../service/store/types');
      const choice = chooseStore(io.env, io.cwd, { store: flags.to });
      if (choice.kind !== 'postgres') throw usageError('--to takes a PostgreSQL URL');
      const from = resolve(io.cwd, flags.from);
      const store = await openDatabaseStore(choice.url, choice.shown, true);
      let counts;
      try {
        counts = await importDataDir(from, store);
      } catch (err) {
        if (err instanceof StoreLocked)
          throw new CliError(
            `${from} is in use by a running server; import a copy of it (arena admin backup DIR) or stop the server`,
            EXIT.failure,
          );
        throw new CliError(`import failed, nothing was loaded: ${(err as Error).message}`, EXIT.failure);
      } finally {
        await store.close();
      }
      io.stdout.write(`${describeCounts(counts)}\n`);
      io.stderr.write(`imported ${from} into the database at ${choice.shown}\n`);
    });

  admin
    .command('migrate-db')
    .description(
      'apply the database schema migrations this arena needs, and nothing else (serve does it at start unless --no-migrate)',
    )
    .option('--store <URL>', STORE_HELP)
    .addHelpText(
      'after',
      `
Prints each migration applied, or that the schema is current. Safe to run
while servers run and from several places at once (they take turns).

Examples:
  $ arena admin migrate-db --store postgres://arena@db.internal/arena`,
    )
    .action(async (flags: { store?: string }) => {
      const { chooseStore } = await import('../store-choice');
      const { openDatabaseStore } = await import('../open-database');
      const { describe, SCHEMA_VERSION } = await import('../../service/store/pg/migrations');
      const choice = chooseStore(io.env, io.cwd, { store: flags.store });
      if (choice.kind !== 'postgres')
        throw usageError('migrate-db needs a database: give --store URL or set $ARENA_DATABASE_URL');
      const store = await openDatabaseStore(choice.url, choice.shown, true);
      await store.close();
      for (const m of store.applied) io.stdout.write(`applied ${describe(m)}\n`);
      io.stderr.write(
        store.applied.length
          ? `the database at ${choice.shown} is at schema version ${SCHEMA_VERSION}\n`
          : `the database at ${choice.shown} is already at schema version ${SCHEMA_VERSION}; nothing to do\n`,
      );
    });
}

/**
 * Opens the store (a database, or the data directory) for one admin
 * operation and closes it again. `create`: a missing directory becomes a new
 * store (user add on a new service); otherwise a missing store is an error
 * rather than an empty list. A database is migrated first, like `serve` does.
 */
async function withStore<T>(
  io: CliIO,
  flags: { data?: string; store?: string },
  create: boolean,
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const { existsSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { openFileStore, storeLeftovers, StoreMissing } = await import('../../service/store/file-store');
  const { StoreLocked } = await import('../../service/store/types');
  const { AdminError } = await import('../../service/admin/accounts');
  const { chooseStore } = await import('../store-choice');
  const choice = chooseStore(io.env, io.cwd, flags);
  let store: Store;
  if (choice.kind === 'postgres') {
    const { openDatabaseStore } = await import('../open-database');
    store = await openDatabaseStore(choice.url, choice.shown, true);
  } else {
    const dir = choice.dir;
    if (!create && !existsSync(join(dir, 'store.json'))) {
      const { found } = await storeLeftovers(dir);
      if (found.length) throw new CliError(new StoreMissing(dir, found).message, EXIT.failure);
      throw new CliError(
        `${dir} holds no arena store yet; add the first user with \`arena admin user add --email E${flags.data ? ` --data ${flags.data}` : ''}\``,
        EXIT.failure,
      );
    }
    try {
      store = await openFileStore(dir);
    } catch (err) {
      if (err instanceof StoreLocked) {
        throw new CliError(
          `${dir} is in use by a running server${err.pid ? ` (pid ${err.pid})` : ''}; arena admin works offline: stop the server first (arena admin backup works while it runs; a PostgreSQL store, --store URL, has no such limit)`,
          EXIT.failure,
        );
      }
      throw new CliError(`cannot open the store in ${dir}: ${(err as Error).message}`, EXIT.failure);
    }
  }
  try {
    return await fn(store);
  } catch (err) {
    if (err instanceof AdminError) throw new CliError(err.message, EXIT.failure);
    throw err;
  } finally {
    await store.close();
  }
}

/** Any store into DIR as a data directory; prints the counts. */
async function exportCommand(io: CliIO, choice: StoreChoice, to: string): Promise<void> {
  const { describeCounts } = await import('../../service/store/transfer/records');
  const { errnoReason } = await import('../../fs/errno-text');
  let counts;
  try {
    if (choice.kind === 'postgres') {
      const { openDatabaseStore } = await import('../open-database');
      const { exportStore } = await import('../../service/store/export-store');
      // migrate: false: an export reads whatever schema this program knows, and never changes the database.
      const store = await openDatabaseStore(choice.url, choice.shown, false);
      try {
        counts = await exportStore(store, to);
      } finally {
        await store.close();
      }
    } else {
      const { exportDataDir } = await import('../../service/store/export-store');
      counts = await exportDataDir(choice.dir, to);
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`export failed: ${errnoReason(err)}`, EXIT.failure);
  }
  io.stdout.write(`${describeCounts(counts)}\n`);
  io.stderr.write(
    `exported ${choice.kind === 'postgres' ? `the database at ${choice.shown}` : choice.dir} to ${to} (a data directory: \`arena serve --data ${to}\` runs on it)\n`,
  );
}
