// `arena me` and `arena me handle NAME`: the signed-in owner's account on the server.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import type { User } from '../../protocol/api';
import { usageError } from '../errors';
import type { CliIO } from '../io';
import { emit, SERVER_HELP, serverOptions, withServer, type ServerFlags } from '../server-call';

// The API's pattern (protocol/api.ts HANDLE_PATTERN), repeated so that help
// and usage checks load no zod; test/e2e/owner-cli.test.ts checks the two agree.
export const HANDLE_RE = /^[a-z0-9_]{2,32}$/;

export function register(program: Command, io: CliIO): void {
  const me = program
    .command('me')
    // main.ts sets exitOverride after commands exist, so they do not inherit it;
    // without this commander exits 1 itself on a usage error instead of 2.
    .exitOverride()
    .summary('show your account on the arena server, or pick your public handle')
    .description(
      'show the account your key belongs to (GET /me, scope account.read). `arena me handle NAME` sets your public handle (POST /me/handle, scope account.write).',
    );
  serverOptions(me, 'print the User {id, name, email} as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ arena me
  $ arena me --json | jq -r .id
  $ arena me handle ada_lovelace
${SERVER_HELP}`,
    )
    .action(async (flags: ServerFlags) => {
      const { getMe } = await import('../../client/owner');
      const user = await withServer(io, flags, (t) => getMe(t));
      await emit(io, flags.json, user, () => userText(user));
    });

  // Options given after `handle` are still parsed by `me` (commander reads a
  // parent's options anywhere), so `handle` uses me's flags: optsWithGlobals.
  me.command('handle')
    .description(
      'set your public handle: 2-32 characters of a-z, 0-9 and _; unique on the server; shown as @NAME on the leaderboard',
    )
    .argument('<NAME>', 'the new handle')
    .addHelpText(
      'after',
      `
A handle someone else has is refused (HTTP 409, exit 1). With --json the
updated User is printed.

Examples:
  $ arena me handle ada_lovelace
  $ arena me handle grace --json
${SERVER_HELP}`,
    )
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<ServerFlags>();
      if (!HANDLE_RE.test(name)) throw usageError(`handle "${name}" must be 2-32 characters of a-z, 0-9 and _`);
      const { setHandle } = await import('../../client/owner');
      const user = await withServer(io, flags, (t) => setHandle(t, name));
      await emit(io, flags.json, user, () => userText(user));
      if (!flags.json) io.stderr.write(`your handle is now @${user.name}\n`);
    });
}

function userText(u: User): string {
  return `id:     ${u.id}\nhandle: ${u.name ? `@${u.name}` : '(none yet: arena me handle NAME)'}\nemail:  ${u.email}\n`;
}
