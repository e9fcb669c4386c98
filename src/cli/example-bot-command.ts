// How `arena demo` runs an example bot as a process:
// - in a checkout, where tsx is installed, the TypeScript source as it is on
//   disk (the command its README gives);
// - in an installed package, which has no TypeScript loader, the bundle the
//   build made of it (dist/examples/<name>-bot.mjs, shipped in the package);
// - in the single executable, the executable itself, which runs the bundle it
//   carries when $ARENA_BINARY_EXAMPLE_BOT names one (src/cli/binary-main.ts).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { IN_BINARY } from '../docs/package-files';

/** Set in the environment of a child of the single executable: run that example bot instead of the CLI. */
export const BINARY_EXAMPLE_ENV = 'ARENA_BINARY_EXAMPLE_BOT';

export interface ExampleBotLaunch {
  /** Arguments for process.execPath before the bot's own options. */
  args: string[];
  /** Added to the child's environment. */
  env: Record<string, string>;
  /** The file that must exist for this to work, if any (named in the error when it does not). */
  file?: string;
}

export function exampleBotCommand(root: string, name: string, inBinary: boolean = IN_BINARY): ExampleBotLaunch {
  if (inBinary) return { args: [], env: { [BINARY_EXAMPLE_ENV]: name } };
  const source = join(root, 'examples', `${name}-bot`, 'bot.ts');
  const fromSource: ExampleBotLaunch = { args: ['--import', 'tsx', source], env: {}, file: source };
  if (existsSync(source) && tsxInstalled(root)) return fromSource;
  const bundle = join(root, 'dist', 'examples', `${name}-bot.mjs`);
  // With neither there, the example itself is what is missing (and what the error names).
  return existsSync(bundle) || existsSync(source) ? { args: [bundle], env: {}, file: bundle } : fromSource;
}

function tsxInstalled(root: string): boolean {
  try {
    createRequire(join(root, 'package.json')).resolve('tsx/package.json');
    return true;
  } catch {
    return false;
  }
}
