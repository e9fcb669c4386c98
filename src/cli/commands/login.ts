// `arena login`: saves server URL, key id and key file to the profile so
// `arena api` and `arena sign` need no flags.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { KeyObject } from 'node:crypto';
import type { Command } from 'commander';
import { ConfigError } from '../../config/errors';
import { profilePath } from '../../config/paths';
import type { Profile } from '../../config/profile';
import { visible, visibleLines } from '../../text/visible';
import { CliError, EXIT, usageError } from '../errors';
import type { CliIO } from '../io';
import { libraryCliError } from '../library-errors';

/** How long the key check may take (connect, answer and body, each). */
const KEY_CHECK_SECONDS = 5;

interface LoginOptions {
  url?: string;
  keyId?: string;
  key?: string;
  show?: boolean;
  json?: boolean;
  /** False with --no-check. */
  check?: boolean;
}

export function register(program: Command, io: CliIO): void {
  program
    .command('login')
    // main.ts sets exitOverride after commands exist, so they do not inherit it;
    // without this commander exits 1 itself on a usage error instead of 2.
    .exitOverride()
    .summary('save the server URL, key id and key file for `arena api` and `arena sign`')
    .description(
      'write the profile (<config dir>/profile.json, mode 0600; the config dir is $ARENA_CONFIG_DIR, else $XDG_CONFIG_HOME/arena, else ~/.config/arena). Only the given settings change. The key file must hold an Ed25519 private key; its path is stored, never its contents. Flags and $ARENA_URL / $ARENA_KEY_ID / $ARENA_KEY_FILE still override the profile per command.',
    )
    .option('--url <URL>', 'server base URL, e.g. https://arena.example.com')
    .option('--key-id <ID>', 'key id the server gave when the public key was registered')
    .option('--key <FILE>', 'private key file (PKCS#8 PEM or unencrypted OpenSSH)')
    .option('--show', 'print the settings in effect and where each comes from, then exit')
    .option('--json', 'print the saved profile (or, with --show, the settings) as JSON')
    .option('--no-check', 'save without asking the server whether it accepts the key (e.g. before the server is up)')
    .addHelpText(
      'after',
      `
Examples:
  $ arena login --url https://arena.example.com --key-id k_123 --key ~/.ssh/id_ed25519
  $ arena login --key-id k_456                       switch key id, keep the rest
  $ arena login --show

With the URL, the key id and the key file all set, login first asks the server
(one signed GET /me, ${KEY_CHECK_SECONDS} s at most) whether it accepts the key. A key it refuses
(unknown, revoked, a clock more than 5 minutes off) is not saved (exit 4). A
server that cannot be reached or gives no verdict is said so, and the profile
is saved anyway.`,
    )
    .action(async (opts: LoginOptions) => {
      const { writeProfile } = await import('../../config/profile');
      const { absoluteKeyFile, normalizeServerUrl, refuseEmptyFlag } = await import('../../config/settings');
      const { loadPrivateKeyFile } = await import('../../keys/keypair');
      try {
        if (opts.show) return await show(io, opts.json === true);
        refuseEmptyFlag('url', opts.url);
        refuseEmptyFlag('keyId', opts.keyId);
        refuseEmptyFlag('keyFile', opts.key);
        if (!opts.url && !opts.keyId && !opts.key)
          throw usageError(
            'nothing to save: pass at least one of --url, --key-id, --key (or --show to see the current settings)',
          );
        const path = profilePath(io.env);
        const next: Profile = { ...(await currentProfile(path, Boolean(opts.url && opts.keyId && opts.key))) };
        if (opts.url) next.url = normalizeServerUrl(opts.url, 'flag');
        if (opts.keyId) next.keyId = opts.keyId;
        let givenKey: KeyObject | undefined;
        if (opts.key) {
          next.keyFile = absoluteKeyFile(opts.key, io.cwd);
          givenKey = loadPrivateKeyFile(next.keyFile); // refuse to save a key that cannot sign
        }
        const check =
          opts.check !== false && next.url && next.keyId && next.keyFile
            ? await askServer(next.url, next.keyId, givenKey ?? loadPrivateKeyFile(next.keyFile))
            : null;
        if (check?.outcome === 'refused') {
          throw new CliError(
            `${next.url} refuses key ${next.keyId} (${check.reason}); nothing saved. Check --key-id and --key, or pass --no-check to save anyway`,
            EXIT.auth,
          );
        }
        writeProfile(path, next);
        if (opts.json) io.stdout.write(JSON.stringify(next) + '\n');
        io.stderr.write(`saved ${path}\n`);
        if (check?.outcome === 'accepted')
          io.stderr.write(
            `checked: ${next.url} accepts key ${next.keyId}${check.handle ? `; you are @${visible(check.handle)}` : ''}\n`,
          );
        if (check?.outcome === 'unknown')
          io.stderr.write(`warning: could not check the key with the server: ${visibleLines(check.reason)}\n`);
        if (opts.url && next.keyFile) {
          const { ONE_KEY_PER_SERVER, perServerKeyPath } = await import('../one-key-per-server');
          io.stderr.write(
            `${ONE_KEY_PER_SERVER}: keep ${next.keyFile} for ${new URL(next.url!).host}; for another server, \`arena keys generate --out ${perServerKeyPath(io.env)}\`\n`,
          );
        }
        const missing = (['url', 'keyId', 'keyFile'] as const).filter((k) => !next[k]);
        if (missing.length) io.stderr.write(`still missing: ${missing.join(', ')}\n`);
      } catch (err) {
        throw libraryCliError(err);
      }
    });
}

async function askServer(url: string, keyId: string, privateKey: KeyObject) {
  const { checkKey } = await import('../../client/check-key');
  return checkKey({ baseUrl: url, keyId, privateKey, timeoutMs: KEY_CHECK_SECONDS * 1000 });
}

/** The profile to update; a damaged one may be replaced only by a login that sets everything. */
async function currentProfile(path: string, replacesAll: boolean): Promise<Profile> {
  const { readProfile } = await import('../../config/profile');
  try {
    return readProfile(path);
  } catch (err) {
    if (err instanceof ConfigError && replacesAll) return {};
    if (err instanceof ConfigError)
      throw new ConfigError(
        `${err.message.replace(/; fix it or run `arena login` again$/, '')}; pass all of --url, --key-id and --key to replace it`,
      );
    throw err;
  }
}

async function show(io: CliIO, json: boolean): Promise<void> {
  const { resolveSettings } = await import('../../config/settings');
  const s = resolveSettings({}, io.env);
  const rows = { url: s.url, keyId: s.keyId, keyFile: s.keyFile };
  if (json) {
    io.stdout.write(JSON.stringify({ profileFile: s.profileFile, ...rows }) + '\n');
    return;
  }
  io.stdout.write(`profile: ${s.profileFile}\n`);
  for (const [name, v] of Object.entries(rows))
    io.stdout.write(`${name}: ${v ? `${v.value} (from ${v.source})` : '(not set)'}\n`);
}
