// How `arena demo` runs an example bot as a process. In a checkout, where tsx
// is installed, the TypeScript source as it is on disk (the command its README
// gives); in an installed package, which has no TypeScript loader, the bundle
// the build made of it (dist/examples/<name>-bot.mjs, shipped in the package).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface ExampleBotCommand {
  /** The file node runs. */
  script: string;
  /** Node options before it. */
  nodeArgs: string[];
}

export function exampleBotCommand(root: string, name: string): ExampleBotCommand {
  const source = join(root, 'examples', `${name}-bot`, 'bot.ts');
  if (existsSync(source) && tsxInstalled(root)) return { script: source, nodeArgs: ['--import', 'tsx'] };
  return { script: join(root, 'dist', 'examples', `${name}-bot.mjs`), nodeArgs: [] };
}

function tsxInstalled(root: string): boolean {
  try {
    createRequire(join(root, 'package.json')).resolve('tsx/package.json');
    return true;
  } catch {
    return false;
  }
}
