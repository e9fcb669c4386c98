// The `arena` program: a thin commander layer. Each command lives in its own
// module under ./commands and registers itself; the work happens in libraries.
import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './errors';
import { commands } from './commands/index';
import { processIO, type CliIO } from './io';
import { visibleLines } from '../text/visible';
import { versionText } from './version';

export function buildProgram(io: CliIO = processIO()): Command {
  const program = new Command('arena')
    .description('an arena, engine and operator toolkit for bots that play pioneers, a hex-island resource game.')
    .version(versionText(), '-V, --version', "print the arena version, the rules version and the build's commit")
    .showHelpAfterError('(run with --help for usage)')
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    // Before registering: subcommands copy these settings when they are created,
    // so usage errors anywhere reach exitCodeFor (exit 2) instead of exiting 1.
    .exitOverride()
    // Help and usage errors go to the given streams too (subcommands inherit this).
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      // Usage errors quote the arguments: an escape sequence in one is shown, not run.
      outputError: (s, write) => write(visibleLines(s)),
      getOutHelpWidth: () => io.stdout.columns || 80,
      getErrHelpWidth: () => io.stderr.columns || 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    });
  for (const register of commands) register(program, io);
  program.addHelpText(
    'after',
    `
Examples:
  $ arena demo                                   start example bots and run a short tournament
  $ arena simulate --games 1000 --bots greedy,random,random,random
  $ arena play http://127.0.0.1:8080 builtin:greedy builtin:random --games 20 --out matches/
  $ arena replay matches/                        replay the newest match in the terminal

Docs: README.md; the rules in docs/rules.md (or arena rules), the bot protocol
in docs/protocol.md (its shapes: arena schema).`,
  );
  return program;
}

/** Runs the program with the given IO and returns the exit code; nothing here exits the process. */
export async function run(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv]);
    return EXIT.ok;
  } catch (err) {
    return exitCodeFor(err, io);
  }
}

/** The process entry point (bin/arena). */
export async function main(argv: string[]): Promise<void> {
  // `arena ... | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  const code = await run(argv, processIO());
  // A command that set process.exitCode itself (older style) keeps it unless it failed harder.
  process.exitCode = code !== EXIT.ok ? code : (process.exitCode ?? EXIT.ok);
}

function exitCodeFor(err: unknown, io: CliIO): number {
  if (err instanceof CommanderError) {
    // Help and version exit 0; every other commander error is a usage error (its message is already printed).
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
      return EXIT.ok;
    return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (err instanceof CliError) {
    // An empty message is a bare exit code (e.g. 130 after an interrupted run already said so).
    // Messages quote arguments, files and servers' answers: escape sequences in them are shown, not run.
    if (err.message) io.stderr.write(`arena: ${visibleLines(err.message)}\n`);
    return err.exitCode;
  }
  io.stderr.write(
    `arena: unexpected error: ${visibleLines(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
  );
  return EXIT.failure;
}
