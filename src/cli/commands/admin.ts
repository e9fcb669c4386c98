// `arena admin`: offline administration of a data directory. This is how the
// first account and key of a new service exist: run it before `arena serve`
// (or while the server is stopped). It takes the store's lock, so it refuses
// while a server holds the directory; `admin backup` is the exception (see there).
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { Option, type Command } from 'commander';
import type { FileStore } from '../../service/store/file-store';
import { CliError, EXIT, usageError } from '../errors';
import type { CliIO } from '../io';
import { libraryCliError } from '../library-errors';
import { SCOPE_NAMES, scopeList } from './keys-server';
import { dataDir } from '../../config/paths';

const DATA_HELP = 'data directory (default: $ARENA_DATA_DIR, else $XDG_DATA_HOME/arena, else ~/.local/share/arena)';

interface DataFlags {
  data?: string;
  json?: boolean;
}

export function register(program: Command, io: CliIO): void {
  const admin = program
    .command('admin')
    // main.ts sets exitOverride after commands exist, so they do not inherit it;
    // without this commander exits 1 itself on a usage error instead of 2.
    .exitOverride()
    .summary('add users and keys to a data directory offline, list users, back it up')
    .description(
      'operator commands that work on the data directory itself, without a running server: add the first user and their key (all six scopes), list users, and back the store up. They refuse while `arena serve` holds the directory (stop it first); `admin backup` works either way.',
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
    .requiredOption('--email <EMAIL>', 'the user\'s e-mail address (unique, compared case-insensitively)')
    .option('--handle <NAME>', 'public handle: 2-32 characters of a-z, 0-9 and _ (default: none; the user picks one with `arena me handle`)')
    .option('--data <DIR>', DATA_HELP)
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
      const u = await withStore(io, flags.data, true, (store) => addUser(store, { email: flags.email, handle: flags.handle }));
      const shown = { id: u.id, name: u.name, email: u.email };
      io.stdout.write(flags.json ? JSON.stringify(shown) + '\n' : `${u.id}\n`);
      if (!flags.json) io.stderr.write(`added user ${u.email}${u.name ? ` (@${u.name})` : ''}; next: arena admin key add --user ${u.email} --public-key FILE\n`);
    });

  const key = admin.command('key').description('add API keys');
  key
    .command('add')
    .description('register a public key for a user; all six scopes by default (this bootstraps an operator)')
    .requiredOption('--user <EMAIL|ID>', 'the key\'s owner, by e-mail or user id')
    .requiredOption('--public-key <FILE>', 'public key file (ssh-ed25519 line, PEM or raw base64; a private key file gives its public half) or an ssh-ed25519 line')
    .option('--name <NAME>', 'a name for the key, 1-64 characters (default: admin)')
    .addOption(new Option('--scopes <SCOPE...>', `scopes, space- or comma-separated (default: all of ${SCOPE_NAMES.join(', ')})`))
    .option('--data <DIR>', DATA_HELP)
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
      const k = await withStore(io, flags.data, false, (store) => addKey(store, { user: flags.user, publicKey, name: flags.name, scopes }));
      const { userId: _owner, ...meta } = k;
      io.stdout.write(flags.json ? JSON.stringify(meta) + '\n' : `${k.id}\n`);
      if (!flags.json) io.stderr.write(`added key ${k.name} (${k.id}) with scopes ${k.scopes.join(', ')}; sign with it: arena login --url URL --key-id ${k.id} --key PRIVATE_KEY_FILE\n`);
    });

  admin
    .command('users')
    .description('list the users of the data directory, with their active keys and bots')
    .option('--data <DIR>', DATA_HELP)
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
      const users = await withStore(io, flags.data, false, (store) => listUsers(store));
      if (flags.json) {
        io.stdout.write(JSON.stringify({ users }) + '\n');
        return;
      }
      if (users.length === 0) {
        io.stderr.write('no users yet; add one with `arena admin user add --email E`\n');
        return;
      }
      const { formatTable } = await import('../../term/table');
      io.stdout.write(formatTable(['ID', 'HANDLE', 'EMAIL', 'KEYS', 'BOTS', 'CREATED'], users.map((u) => [u.id, u.name ? `@${u.name}` : '-', u.email, String(u.activeKeys), String(u.bots), u.createdAt])));
    });

  admin
    .command('backup')
    .description('write a consistent copy of the store into DIR (new or empty), whether a server is running on it or not')
    .argument('<DIR>', 'where the copy goes: a new or empty directory')
    .option('--data <DIR>', DATA_HELP)
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
    .action(async (out: string, flags: { data?: string }) => {
      const { resolve } = await import('node:path');
      const { backupDataDir } = await import('../../service/store/backup');
      const { errnoReason } = await import('../../fs/errno-text');
      const from = resolve(io.cwd, dataDir(io.env, flags.data));
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
}

/**
 * Opens the store of the data directory for one admin operation and closes it
 * again. `create`: a missing directory becomes a new store (user add on a new
 * service); otherwise a missing store is an error rather than an empty list.
 */
async function withStore<T>(io: CliIO, dataFlag: string | undefined, create: boolean, fn: (store: FileStore) => Promise<T>): Promise<T> {
  const { existsSync } = await import('node:fs');
  const { join, resolve } = await import('node:path');
  const { openFileStore, storeLeftovers, StoreMissing } = await import('../../service/store/file-store');
  const { StoreLocked } = await import('../../service/store/types');
  const { AdminError } = await import('../../service/admin/accounts');
  if (dataFlag !== undefined && !dataFlag.trim()) throw usageError('--data needs a directory');
  const dir = resolve(io.cwd, dataDir(io.env, dataFlag));
  if (!create && !existsSync(join(dir, 'store.json'))) {
    const { found } = await storeLeftovers(dir);
    if (found.length) throw new CliError(new StoreMissing(dir, found).message, EXIT.failure);
    throw new CliError(`${dir} holds no arena store yet; add the first user with \`arena admin user add --email E${dataFlag ? ` --data ${dataFlag}` : ''}\``, EXIT.failure);
  }
  let store: FileStore;
  try {
    store = await openFileStore(dir);
  } catch (err) {
    if (err instanceof StoreLocked) {
      throw new CliError(`${dir} is in use by a running server${err.pid ? ` (pid ${err.pid})` : ''}; arena admin works offline: stop the server first (arena admin backup works while it runs)`, EXIT.failure);
    }
    throw new CliError(`cannot open the store in ${dir}: ${(err as Error).message}`, EXIT.failure);
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
