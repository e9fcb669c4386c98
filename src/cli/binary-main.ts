// The entry of the single executable (scripts/build-binary.mjs bundles it
// with every dependency into one CommonJS script, as Node's SEA runs): the
// same program bin/arena runs; or, in a child `arena demo` started with
// $ARENA_BINARY_EXAMPLE_BOT set, that example bot, which the executable
// carries as a bundle of its own (the demo's bots are separate processes).
import { pathToFileURL } from 'node:url';
import { compileFunction } from 'node:vm';
import { readPackageAsset } from '../docs/package-files';
import { BINARY_EXAMPLE_ENV } from './example-bot-command';
import { main } from './main';

const example = process.env[BINARY_EXAMPLE_ENV];
if (example) runExampleBot(example);
else void main(process.argv);

function runExampleBot(name: string): void {
  const code = /^[a-z-]+$/.test(name) ? readPackageAsset(`dist/examples/${name}-bot.cjs`) : undefined;
  if (!code) {
    process.stderr.write(`arena: this binary carries no example bot named "${name}"\n`);
    process.exit(1);
  }
  // The bundle runs its server when it is the program (its import.meta.url is argv[1]'s).
  (globalThis as { __arenaExampleMain?: string }).__arenaExampleMain = pathToFileURL(
    process.argv[1] ?? process.execPath,
  ).href;
  const body = compileFunction(code.toString('utf8'), ['require', 'module', 'exports'], {
    filename: `${name}-bot.cjs`,
  });
  const mod = { exports: {} };
  // The executable's own require: built-in modules only, which is all the bundle needs.
  body(require, mod, mod.exports);
}
