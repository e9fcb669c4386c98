// `arena keys generate | public`: make an Ed25519 key and show public halves.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { type Command, Option } from 'commander';
import { defaultKeyPath } from '../../config/paths';
import { PUBLIC_KEY_FORMATS, type PublicKeyFormat } from '../../keys/formats';
import type { CliIO } from '../io';
import { libraryCliError } from '../library-errors';
import { registerServerKeys } from './keys-server';

// Help text is the same for everyone (man pages are generated from it), so it
// names the default path by its rule, not by this user's directories.
const DEFAULT_KEY_HELP = '<config dir>/keys/id_ed25519.pem';

export function register(program: Command, io: CliIO): void {
  const keys = program
    .command('keys')
    // main.ts sets exitOverride after commands exist, so they do not inherit it;
    // without this commander exits 1 itself on a usage error instead of 2.
    .exitOverride()
    .summary('make Ed25519 keys and show their public halves')
    .description(
      'management API requests are signed with an Ed25519 key you hold; the service stores only the public half. Make a key here (or with `ssh-keygen -t ed25519` or `openssl genpkey -algorithm ed25519`), register its public key (POST /keys or the dashboard), then sign with `arena sign` / `arena api`.',
    );

  keys
    .command('generate')
    .description('generate a new Ed25519 key pair; write the private key (mode 0600) and print the public key')
    .option(
      '-o, --out <FILE>',
      `where to write the private key (PKCS#8 PEM); "-" prints it to stdout (default: ${DEFAULT_KEY_HELP})`,
    )
    .option('-f, --force', 'overwrite an existing key file (the old key is lost)')
    .option('--comment <TEXT>', 'comment for the ssh form, e.g. you@laptop')
    .option('--json', 'print {privateKeyFile, publicKey: {ssh, pem, raw}} as JSON')
    .addHelpText(
      'after',
      `
The public key is printed in the three forms the service accepts: an OpenSSH
"ssh-ed25519" line, a PEM PUBLIC KEY block, and base64 of the raw 32 bytes.
The config dir is $ARENA_CONFIG_DIR, else $XDG_CONFIG_HOME/arena, else ~/.config/arena.

Use one key per arena server: a request's signature names no server, so a
server that saw a signed request could replay it, within 5 minutes, to
another server where the same public key is registered. Name each key for
its server (below); a server refuses a public key another account registered.

Examples:
  $ arena keys generate                              write ${DEFAULT_KEY_HELP}
  $ arena keys generate --out ~/.config/arena/keys/arena.example.com.pem    one key per server
  $ arena keys generate --out bot-admin.pem --comment ada@laptop
  $ arena keys generate --out - > key.pem            private key to stdout, public key to stderr
  $ arena keys generate --json | jq -r .publicKey.raw`,
    )
    .action(async (opts: { out?: string; force?: boolean; comment?: string; json?: boolean }) => {
      const { generateKeyPair, privateKeyToPem } = await import('../../keys/keypair');
      const { writePrivateKeyFile } = await import('../../keys/key-file');
      const { allForms, labelled } = await import('../key-forms');
      try {
        const { privateKey, publicKey } = generateKeyPair();
        if (opts.out === '-') {
          io.stdout.write(privateKeyToPem(privateKey));
          io.stderr.write(labelled(publicKey, opts.comment));
          return;
        }
        const out = opts.out ?? defaultKeyPath(io.env);
        writePrivateKeyFile(out, privateKey, { force: opts.force });
        if (opts.json) {
          io.stdout.write(JSON.stringify({ privateKeyFile: out, publicKey: allForms(publicKey, opts.comment) }) + '\n');
        } else {
          io.stdout.write(labelled(publicKey, opts.comment));
        }
        io.stderr.write(
          `wrote private key to ${out} (mode 0600); register the public key above, then \`arena login --key ${out} --key-id ID --url URL\`\n`,
        );
        const { ONE_KEY_PER_SERVER, perServerKeyPath } = await import('../one-key-per-server');
        io.stderr.write(`${ONE_KEY_PER_SERVER}; e.g. arena keys generate --out ${perServerKeyPath(io.env)}\n`);
      } catch (err) {
        throw libraryCliError(err);
      }
    });

  keys
    .command('public')
    .description('print the public key of a private key file (or convert a public key between forms)')
    .argument('<FILE>', 'private key (PKCS#8 PEM, unencrypted OpenSSH) or a public key file')
    .addOption(new Option('--format <FORMAT>', 'print exactly one form').choices([...PUBLIC_KEY_FORMATS]))
    .option('--comment <TEXT>', 'comment for the ssh form')
    .option('--json', 'print {ssh, pem, raw} as JSON')
    .addHelpText(
      'after',
      `
Without --format all three forms are printed, labelled.

Examples:
  $ arena keys public ~/.ssh/id_ed25519
  $ arena keys public key.pem --format raw          base64 of the 32 raw bytes, for POST /keys
  $ arena keys public ~/.ssh/id_ed25519.pub --format pem`,
    )
    .action(async (file: string, opts: { format?: PublicKeyFormat; comment?: string; json?: boolean }) => {
      const { formatPublicKey } = await import('../../keys/public-key');
      const { allForms, labelled, publicKeyOfFile } = await import('../key-forms');
      try {
        const raw = publicKeyOfFile(file);
        if (opts.format) io.stdout.write(formatPublicKey(raw, opts.format, opts.comment) + '\n');
        else if (opts.json) io.stdout.write(JSON.stringify(allForms(raw, opts.comment)) + '\n');
        else io.stdout.write(labelled(raw, opts.comment));
      } catch (err) {
        throw libraryCliError(err);
      }
    });

  registerServerKeys(keys, io);
}
