// `arena bot check <url>`: the conformance check for bot authors (src/probe).
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import { ArenaInputError, parseBotUrl } from '../../arena/bots';
import { CliError, EXIT, usageError } from '../errors';
import type { CliIO } from '../io';
import { platformKeyOrFail } from './play';

interface CheckFlags {
  json?: boolean;
  deadlineMs?: string;
  seed?: string;
}

export function register(program: Command, io: CliIO): void {
  const bot = program
    .command('bot')
    .summary('tools for bot authors: check a bot before it plays')
    .description('tools for bot authors: check a bot before it plays.');
  bot
    .command('check')
    .summary('check that a bot speaks the protocol: ping, upgrade, handshake, one decision of each kind')
    .description('check that a bot speaks the protocol: ping, upgrade, handshake, one real decision of each kind.')
    .argument('<url>', 'the bot URL (http, https, ws or wss), as you would give it to arena play')
    .option('--deadline-ms <MS>', 'deadline sent with each decision (default 5000)')
    .option('-s, --seed <S>', 'seed of the sample games the positions come from (default "bot-check")')
    .option('--json', 'print the report as JSON: {url, ok, checks: [{name, status: pass|fail|info, detail}]}')
    .addHelpText(
      'after',
      `
Checks, in order:
  ping         GET <url>/ping answers "pong"
  upgrade      a WebSocket upgrade signed with the local platform key is accepted
  handshake    whether the bot refuses a forged signature (verifying is optional)
  audience     (a bot that verifies) whether it refuses a handshake the arena signed
               for another bot's URL (x-svc-audience; docs/protocol.md)
  replay       (a bot that verifies) whether it refuses the same handshake twice
               (x-svc-nonce)
  decision: *  one setup, turn, discard, bandit and trade decision, each taken from a
               real position of a seeded game; the answer must fit in 64 KiB, be a
               DecisionResponse {id, action} with the request's id, match the kind's
               action schema, be legal in that position and arrive before the deadline

Exit codes: 0 every check passed, 1 a check failed, 2 usage.

Examples:
  $ arena bot check http://127.0.0.1:8080
  $ arena bot check ws://127.0.0.1:8080 --deadline-ms 1000 --json | jq '.checks[] | select(.status == "fail")'`,
    )
    .action(async (url: string, flags: CheckFlags) => {
      const { checkBot, formatReport } = await import('../../probe/conformance');
      try {
        parseBotUrl(url);
      } catch (err) {
        if (err instanceof ArenaInputError) throw usageError(err.message);
        throw err;
      }
      let deadlineMs = 5000;
      if (flags.deadlineMs !== undefined) {
        deadlineMs = Number(flags.deadlineMs);
        if (!/^\d+$/.test(flags.deadlineMs) || deadlineMs < 1 || deadlineMs > 60_000)
          throw usageError(`--deadline-ms must be a whole number from 1 to 60000, got "${flags.deadlineMs}"`);
      }
      const key = await platformKeyOrFail(io);
      const report = await checkBot(url, { platformKey: key.privateKey, deadlineMs, seed: flags.seed });
      io.stdout.write(flags.json ? JSON.stringify(report, null, 2) + '\n' : formatReport(report) + '\n');
      if (!report.ok) throw new CliError(`bot check failed for ${url}`, EXIT.failure);
    });
}
