// `arena sign`: prints the three x-svc-* headers for a management request.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import { type Command, Option } from 'commander';
import { usageError } from '../errors';
import { libraryCliError } from '../library-errors';
import type { CliIO } from '../io';
import { visible } from '../../text/visible';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Any origin will do to put a path in the form HTTP clients send it. */
const ANY_ORIGIN = 'http://localhost';

export function parseMethod(method: string): string {
  const m = method.toUpperCase();
  if (!METHODS.includes(m)) throw usageError(`unknown HTTP method "${method}"; use one of ${METHODS.join(', ')}`);
  return m;
}

export function parsePath(path: string): string {
  if (!path.startsWith('/'))
    throw usageError(`PATH must start with "/" and may include the query, e.g. "/bots?game=pioneers" (got "${path}")`);
  if (path.includes('#'))
    throw usageError(`PATH must not contain "#": a fragment is never sent (write %23 in a query value; got "${path}")`);
  return path;
}

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

interface SignOptions {
  data?: string;
  keyId?: string;
  key?: string;
  json?: boolean;
  curl?: string;
}

export function register(program: Command, io: CliIO): void {
  program
    .command('sign')
    // main.ts sets exitOverride after commands exist, so they do not inherit it;
    // without this commander exits 1 itself on a usage error instead of 2.
    .exitOverride()
    .summary('print signature headers for a management API request')
    .description(
      'sign a management API request with your Ed25519 key and print the three headers (x-svc-key, x-svc-timestamp, x-svc-signature). The signature covers "{timestamp}.{METHOD}.{path}.{body}" and is valid for 5 minutes. PATH includes the query string and is signed as HTTP clients send it (percent-encoded, dot segments resolved; stderr says so when that differs from what you typed); the body is signed as its exact bytes, so send exactly what you signed (curl --data-binary, not --data).',
    )
    .argument('<METHOD>', 'HTTP method: GET, POST, PUT, PATCH, DELETE')
    .argument('<PATH>', 'request path with query, e.g. /bots?game=pioneers')
    .option('-d, --data <BODY>', "request body: literal text, @FILE for a file's bytes, or - for stdin")
    .option('--key-id <ID>', 'key id from registering the public key (default: $ARENA_KEY_ID, then the login profile)')
    .option(
      '--key <FILE>',
      'private key: PKCS#8 PEM or unencrypted OpenSSH (default: $ARENA_KEY_FILE, then the login profile)',
    )
    .addOption(new Option('--json', 'print one JSON object with the three headers').conflicts('curl'))
    .option('--curl <URL>', 'print a ready curl command for the server at URL instead')
    .addHelpText(
      'after',
      `
Examples:
  $ arena sign GET /me --key-id k_123 --key ~/.ssh/id_ed25519
  $ arena sign POST /bots --data @bot.json --json
  $ arena sign GET '/bots?game=pioneers' --curl https://arena.example.com | sh

Exit codes: 0 ok, 1 unreadable key or body, 2 usage, 4 no key id or key file.`,
    )
    .action(async (methodArg: string, pathArg: string, opts: SignOptions) => {
      const { readBodyArg } = await import('../../client/body-arg');
      const { requestTarget } = await import('../../client/signed-request');
      const { requireSigner } = await import('../../config/credentials');
      const { normalizeServerUrl, resolveSettings } = await import('../../config/settings');
      const { signRequest } = await import('../../keys/request');
      const method = parseMethod(methodArg);
      const path = parsePath(pathArg);
      try {
        const signer = requireSigner(
          resolveSettings({ keyId: opts.keyId, keyFile: opts.key }, io.env, ['keyId', 'keyFile']),
        );
        const body = await readBodyArg(opts.data, io.stdin);
        const target = opts.curl ? requestTarget(normalizeServerUrl(opts.curl), path) : undefined;
        // Signed as HTTP clients send it (percent-encoded, dot segments resolved), which is what the server checks.
        const signedPath = target?.signedPath ?? requestTarget(ANY_ORIGIN, path).signedPath;
        if (!target && signedPath !== path)
          io.stderr.write(`arena: signed ${signedPath}, the form HTTP clients send for ${visible(path)}; send that\n`);
        const headers = signRequest(signer.privateKey, signer.keyId, { method, path: signedPath, body });
        if (opts.json) {
          io.stdout.write(JSON.stringify(headers) + '\n');
        } else if (target) {
          io.stdout.write(curlCommand(method, target.url, headers, opts.data, body) + '\n');
        } else {
          for (const [name, value] of Object.entries(headers)) io.stdout.write(`${name}: ${value}\n`);
        }
      } catch (err) {
        throw libraryCliError(err);
      }
    });
}

function curlCommand(
  method: string,
  url: string,
  headers: Record<string, string>,
  dataArg: string | undefined,
  body: Uint8Array | undefined,
): string {
  const parts = ['curl', '-sS', '-X', method, shellQuote(url)];
  for (const [name, value] of Object.entries(headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (body && body.length > 0) {
    parts.push('-H', shellQuote('content-type: application/json'));
    // A file is referenced so its exact bytes are sent; stdin was consumed, so inline it.
    const data = dataArg?.startsWith('@') ? dataArg : inlineBody(body);
    parts.push('--data-binary', shellQuote(data));
  }
  return parts.join(' ');
}

function inlineBody(body: Uint8Array): string {
  const text = Buffer.from(body).toString('utf8');
  // curl reads a leading @ as a file name, and invalid UTF-8 would not survive the shell line.
  if (text.startsWith('@') || !Buffer.from(text, 'utf8').equals(Buffer.from(body))) {
    throw usageError('this body cannot be inlined into a curl command; save it to a file and pass --data @FILE');
  }
  return text;
}
