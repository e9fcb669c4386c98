// `arena api`: one signed request to the configured server, like `gh api`.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import type { SignedResponse } from '../../client/signed-request';
import { CliError, EXIT, usageError } from '../errors';
import type { CliIO } from '../io';
import { libraryCliError } from '../library-errors';
import { parseMethod, parsePath } from './sign';

interface ApiOptions {
  data?: string;
  header?: string[];
  url?: string;
  keyId?: string;
  key?: string;
  include?: boolean;
}

export function register(program: Command, io: CliIO): void {
  program
    .command('api')
    // main.ts sets exitOverride after commands exist, so they do not inherit it;
    // without this commander exits 1 itself on a usage error instead of 2.
    .exitOverride()
    .summary('send a signed request to the arena server and print the response')
    .description(
      'send one signed management API request and print the response body to stdout (pretty JSON on a terminal, the exact bytes otherwise) and the status to stderr. Server, key id and key file come from flags, then $ARENA_URL / $ARENA_KEY_ID / $ARENA_KEY_FILE, then the profile written by `arena login`.',
    )
    .argument('<METHOD>', 'HTTP method: GET, POST, PUT, PATCH, DELETE')
    .argument('<PATH>', 'request path with query, e.g. /bots?game=pioneers')
    .option('-d, --data <BODY>', "request body: literal JSON, @FILE for a file's bytes, or - for stdin")
    .option('-H, --header <NAME:VALUE>', 'extra request header (repeatable)', collect)
    .option('--url <URL>', 'server base URL (default: $ARENA_URL, then the login profile)')
    .option('--key-id <ID>', 'key id (default: $ARENA_KEY_ID, then the login profile)')
    .option('--key <FILE>', 'private key file (default: $ARENA_KEY_FILE, then the login profile)')
    .option('-i, --include', 'also print the status line and response headers to stderr')
    .addHelpText(
      'after',
      `
Examples:
  $ arena api GET /me
  $ arena api GET '/bots?game=pioneers' | jq '.bots[].name'
  $ arena api POST /bots --data '{"name":"greedy","game":"pioneers","url":"https://bot.example.com/ws"}'
  $ arena api POST /keys --data @newkey.json
  $ echo '{"handle":"ada"}' | arena api POST /me/handle --data -

Exit codes: 0 for 2xx/3xx, 1 for other 4xx/5xx or network failure, 2 usage
(including no server configured), 4 for 401 (bad or stale signature, unknown
or revoked key) or missing key settings.`,
    )
    .action(async (methodArg: string, pathArg: string, opts: ApiOptions) => {
      const { readBodyArg } = await import('../../client/body-arg');
      const { formatResponseBody } = await import('../../client/format');
      const { sendSigned } = await import('../../client/signed-request');
      const { requireSigner, requireUrl } = await import('../../config/credentials');
      const { resolveSettings } = await import('../../config/settings');
      const method = parseMethod(methodArg);
      const path = parsePath(pathArg);
      const headers = parseHeaders(opts.header ?? []);
      let res: SignedResponse;
      try {
        const settings = resolveSettings({ url: opts.url, keyId: opts.keyId, keyFile: opts.key }, io.env);
        const baseUrl = requireUrl(settings);
        const signer = requireSigner(settings);
        const body = await readBodyArg(opts.data, io.stdin);
        res = await sendSigned({
          baseUrl,
          keyId: signer.keyId,
          privateKey: signer.privateKey,
          method,
          path,
          body,
          headers,
        });
      } catch (err) {
        throw libraryCliError(err);
      }
      if (opts.include) {
        const lines = [
          `HTTP ${res.status}`,
          ...Object.entries(res.headers).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`),
        ];
        io.stderr.write(lines.join('\n') + '\n\n');
      } else {
        io.stderr.write(`HTTP ${res.status}\n`);
      }
      const contentType = res.headers['content-type'];
      io.stdout.write(
        formatResponseBody(
          res.body,
          Array.isArray(contentType) ? contentType[0] : contentType,
          io.stdout.isTTY === true,
        ),
      );
      if (res.status >= 400) {
        const why = errorMessage(res.body);
        throw new CliError(`HTTP ${res.status}${why ? `: ${why}` : ''}`, res.status === 401 ? EXIT.auth : EXIT.failure);
      }
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function parseHeaders(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    const name = i > 0 ? h.slice(0, i).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name))
      throw usageError(`--header must look like "Name: value" (got "${h}")`);
    if (name.toLowerCase().startsWith('x-svc-'))
      throw usageError(`--header cannot set ${name}: arena signs the request itself`);
    const value = h.slice(i + 1).trim();
    // What a field value can carry (RFC 9110): tab, printable ASCII, and bytes 0x80-0xFF. The HTTP
    // client refuses anything else with an error that reads like a network failure.
    if (/[^\t\u0020-\u007e\u0080-\u00ff]/.test(value)) {
      throw usageError(
        `--header ${name}: the value must be one line of text, without control characters (line breaks, escapes) or characters beyond Latin-1`,
      );
    }
    out[name] = value;
  }
  return out;
}

/** The decisions' error body is {"error":{"code","message"}}; quote its message if present. */
function errorMessage(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { error?: { code?: unknown; message?: unknown } };
    const e = parsed.error;
    if (e && typeof e.message === 'string') return typeof e.code === 'string' ? `${e.code}: ${e.message}` : e.message;
  } catch {
    // not JSON: the status says enough
  }
  return undefined;
}
