// `arena new LANG DIR`: writes a complete starter bot (python, typescript,
// javascript, go) into a new directory and prints the two commands to run
// next; `arena new --list` lists the languages.
// Libraries load when the command runs (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import { usageError } from '../errors';
import type { CliIO } from '../io';
// Inlined by the bundler (as in ../version.ts): the version the TypeScript starter depends on.
import pkg from '../../../package.json' with { type: 'json' };

export function register(program: Command, io: CliIO): void {
  program
    .command('new')
    .summary('write a starter bot (python, typescript, javascript, go) into a new directory')
    .description(
      "write a complete starter bot in LANG into DIR (which must not exist or be empty): a legal player that verifies the arena's signed handshake, with a README that says how to run it and test it against the arena.",
    )
    .argument('[lang]', 'python, typescript, javascript or go')
    .argument('[dir]', 'the directory to create (or an empty one)')
    .option('--list', 'list the languages and what each starter is')
    .addHelpText(
      'after',
      `
The starters are the ones in the repository's examples/ (python-bot, starter-bot,
javascript-bot, go-bot), carried inside this arena, so this works without the
repository. Each answers all five decision kinds legally, reads its port from
--port or $PORT, logs one line per decision unless --quiet, and with
--platform-key refuses (401) every upgrade the arena did not sign.

The TypeScript starter depends on the bot-arena package at this arena's
version; install it from a tarball of the arena (npm pack), as its README says.

Examples:
  $ arena new --list
  $ arena new go my-bot && cd my-bot     then the two commands it prints
  $ arena new python ~/bots/first`,
    )
    .action(async (lang: string | undefined, dir: string | undefined, opts: { list?: boolean }) => {
      const { STARTERS, STARTER_LANGS, isStarterLang } = await import('../../starters/catalog');
      if (opts.list) {
        const width = Math.max(...STARTER_LANGS.map((l) => l.length));
        for (const l of STARTER_LANGS) io.stdout.write(`${l.padEnd(width)}  ${STARTERS[l].summary}\n`);
        return;
      }
      if (!lang || !dir)
        throw usageError('new needs a language and a directory: arena new LANG DIR (languages: arena new --list)');
      if (!isStarterLang(lang))
        throw usageError(`no ${JSON.stringify(lang)} starter; the languages are ${STARTER_LANGS.join(', ')}`);
      const { resolve } = await import('node:path');
      const { targetProblem, writeStarter } = await import('../../starters/write-starter');
      const { arenaCommand, shellWord } = await import('../invocation');
      const target = resolve(io.cwd, dir);
      const problem = targetProblem(target);
      if (problem) throw usageError(`${dir} ${problem}: arena new writes into a new or empty directory`);
      const starter = STARTERS[lang];
      const files = writeStarter(starter, target, pkg.version);
      const run = starter.run.replace('<version>', pkg.version);
      const check = starter.check.startsWith('arena ')
        ? `${arenaCommand(io)} ${starter.check.slice('arena '.length)}`
        : starter.check;
      io.stdout.write(
        `wrote the ${lang} starter to ${dir} (${files.join(', ')})\n\nnext, run it, then test it against the arena from another terminal:\n  cd ${shellWord(dir)} && ${run}\n  ${check}\n`,
      );
    });
}
