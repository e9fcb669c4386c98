// `arena keys add|list|revoke`: your API keys on the arena server (keys.ts
// makes keys locally; these register, list and revoke them over the signed API).
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { Option, type Command } from 'commander';
import type { ApiKeyMeta } from '../../protocol/api';
import { usageError } from '../errors';
import type { CliIO } from '../io';
import { checkName, emit, SERVER_HELP, serverOptions, withServer, type ServerFlags } from '../server-call';

// The six scopes (protocol/api.ts SCOPES), listed here so help loads no zod;
// test/e2e/owner-cli.test.ts checks the two lists agree.
export const SCOPE_NAMES = [
  'bots.read',
  'bots.write',
  'keys.read',
  'keys.write',
  'account.read',
  'account.write',
] as const;

/** Scope lists as the user types them: space- or comma-separated, each one of the six. */
export function scopeList(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)) {
    if (!(SCOPE_NAMES as readonly string[]).includes(s))
      throw usageError(`unknown scope "${s}"; scopes are ${SCOPE_NAMES.join(', ')}`);
    if (!out.includes(s)) out.push(s);
  }
  if (out.length === 0) throw usageError(`--scopes needs at least one of ${SCOPE_NAMES.join(', ')}`);
  return out;
}

/** Called once from keys.ts with the `keys` command. */
export function registerServerKeys(keys: Command, io: CliIO): void {
  serverOptions(
    keys
      .command('add')
      .description('register a public key with the server (POST /keys, scope keys.write) and print its key id')
      .argument(
        '<KEY>',
        'a public key file (ssh-ed25519 line, PEM or raw base64; a private key file gives its public half), or the text of an ssh-ed25519 line',
      )
      .option('--name <NAME>', 'a name for the key, 1-64 characters (default: the ssh comment, else the file name)')
      .addOption(
        new Option(
          '--scopes <SCOPE...>',
          `scopes, space- or comma-separated: ${SCOPE_NAMES.join(', ')} (default: the server's, bots.read and bots.write)`,
        ),
      ),
    'print the ApiKeyMeta as JSON (its id is the key id)',
  )
    .addHelpText(
      'after',
      `
Scopes are fixed when a key is made. The private key never leaves this
machine: only the public half is sent.

Examples:
  $ arena keys generate --out ci.pem && arena keys add ci.pem --name ci
  $ arena keys add ~/.ssh/id_ed25519.pub --scopes bots.read,bots.write,keys.read
  $ arena keys add "$(cat laptop.pub)" --json | jq -r .id
${SERVER_HELP}`,
    )
    .action(async (keyArg: string, flags: ServerFlags & { name?: string; scopes?: string[] }) => {
      const scopes = flags.scopes ? scopeList(flags.scopes) : undefined;
      const { readPublicKeyInput } = await import('../../client/public-key-input');
      const { addKey } = await import('../../client/owner');
      const meta = await withServer(io, flags, async (t) => {
        const input = readPublicKeyInput(keyArg);
        const name = flags.name ?? input.suggestedName ?? 'arena-cli';
        checkName(name, 'key');
        return addKey(t, { name, publicKey: input.raw, scopes: scopes as ApiKeyMeta['scopes'] | undefined });
      });
      await emit(io, flags.json, meta, () => `${meta.id}\n`);
      if (!flags.json)
        io.stderr.write(
          `registered key ${meta.name} (${meta.id}) with scopes ${meta.scopes.join(', ')}; sign with it: arena login --key-id ${meta.id} --key FILE\n`,
        );
    });

  serverOptions(
    keys
      .command('list')
      .description('list your keys on the server, revoked ones included (GET /keys, scope keys.read)'),
    'print {"keys": ApiKeyMeta[]} as JSON',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ arena keys list
  $ arena keys list --json | jq -r '.keys[] | select(.revokedAt == null) | .id'
${SERVER_HELP}`,
    )
    .action(async (flags: ServerFlags) => {
      const { listKeys } = await import('../../client/owner');
      const list = await withServer(io, flags, (t) => listKeys(t));
      await emit(io, flags.json, { keys: list }, () => keyTable(list));
    });

  serverOptions(
    keys
      .command('revoke')
      .description(
        'revoke one of your keys at once (POST /keys/ID/revoke, scope keys.write); revoking twice keeps the first time',
      )
      .argument('<ID>', 'the key id'),
    'print the revoked ApiKeyMeta as JSON',
  )
    .addHelpText(
      'after',
      `
A request signed with a revoked key fails from then on, including the
one revoking it if it was the key in use.

Examples:
  $ arena keys revoke k_Xy3AbCdEfGhIjKlM
${SERVER_HELP}`,
    )
    .action(async (id: string, flags: ServerFlags) => {
      const { revokeKey } = await import('../../client/owner');
      let signing = '';
      const meta = await withServer(io, flags, (t) => {
        signing = t.keyId;
        return revokeKey(t, id);
      });
      await emit(io, flags.json, meta, () => keyTable([meta]));
      if (!flags.json) io.stderr.write(`revoked ${meta.id} at ${meta.revokedAt}\n`);
      // Easy to do by mistake, and every later command with these settings then fails with 401.
      if (meta.id === signing)
        io.stderr.write(
          `arena: that was the key this command signed with: commands that use it now fail (exit 4); switch with \`arena login --key-id ID --key FILE\`, or sign in by e-mail on the dashboard to add a key\n`,
        );
    });
}

async function keyTable(list: ApiKeyMeta[]): Promise<string> {
  const { formatTable } = await import('../../term/table');
  return formatTable(
    ['ID', 'NAME', 'SCOPES', 'CREATED', 'LAST USED', 'REVOKED'],
    list.map((k) => [k.id, k.name, k.scopes.join(','), k.createdAt, k.lastUsedAt ?? '-', k.revokedAt ?? '-']),
  );
}
