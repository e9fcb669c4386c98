// What the owner commands (`arena me`, `arena keys add|list|revoke`, `arena
// bots ...`) share: the server and key options, resolving them like `arena api`
// (flag, then $ARENA_URL / $ARENA_KEY_ID / $ARENA_KEY_FILE, then the login
// profile), and turning the server's refusals into exit codes: 401 and 403 are
// 4 (authentication), everything else 1, each with the server's own message.
// Libraries load when an action runs, so `arena --help` stays fast.
import type { Command } from 'commander';
import type { ApiTarget } from '../client/api';
import { EXIT, usageError } from './errors';
import { libraryCliError } from './library-errors';
import type { CliIO } from './io';

export interface ServerFlags {
  url?: string;
  keyId?: string;
  key?: string;
  json?: boolean;
}

/** --url, --key-id, --key and --json (with the command's own words for what --json prints). */
export function serverOptions(cmd: Command, json: string): Command {
  return cmd
    .option('--url <URL>', 'server base URL (default: $ARENA_URL, then the login profile)')
    .option('--key-id <ID>', 'key id (default: $ARENA_KEY_ID, then the login profile)')
    .option('--key <FILE>', 'private key file (default: $ARENA_KEY_FILE, then the login profile)')
    .option('--json', json);
}

/** The help lines every owner command ends with. */
export const SERVER_HELP = `
The server, key id and key file come from the flags, then $ARENA_URL,
$ARENA_KEY_ID and $ARENA_KEY_FILE, then the profile saved by \`arena login\`.
Every request is signed with the key. Exit codes: 0 ok, 1 failure,
2 usage (including no server configured), 4 authentication failed (no key
configured, or 401 or 403: bad signature, unknown or revoked key, missing
scope, not your bot or key).`;

/** Runs fn against the configured server; every failure becomes a CliError with the right exit code. */
export async function withServer<T>(io: CliIO, flags: ServerFlags, fn: (target: ApiTarget) => Promise<T>): Promise<T> {
  const { absoluteKeyFile, resolveSettings } = await import('../config/settings');
  const { requireSigner, requireUrl } = await import('../config/credentials');
  try {
    const settings = resolveSettings({ url: flags.url, keyId: flags.keyId, keyFile: flags.key }, io.env);
    // A relative key path given here is relative to the caller's directory (io.cwd, not this process's).
    if (settings.keyFile)
      settings.keyFile = { ...settings.keyFile, value: absoluteKeyFile(settings.keyFile.value, io.cwd) };
    const baseUrl = requireUrl(settings);
    const { keyId, privateKey } = requireSigner(settings);
    return await fn({ baseUrl, keyId, privateKey });
  } catch (err) {
    throw serverCliError(err);
  }
}

/** A refusal is 4 when authentication failed (401, 403), else 1. */
function serverCliError(err: unknown): unknown {
  return libraryCliError(err, (refusal) => (refusal.isAuth ? EXIT.auth : EXIT.failure));
}

/** Bot and key names: 1 to 64 characters, counted as the server counts them (code points, not UTF-16 units). */
export function checkName(name: string, what: 'bot' | 'key'): void {
  const chars = [...name].length;
  if (chars < 1 || chars > 64) throw usageError(`a ${what} name is 1-64 characters`);
}

/** Data on stdout: JSON (one line) with --json, else the human form. */
export async function emit(
  io: CliIO,
  json: boolean | undefined,
  data: unknown,
  human: () => string | Promise<string>,
): Promise<void> {
  io.stdout.write(json ? JSON.stringify(data) + '\n' : await human());
}
