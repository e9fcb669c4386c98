// How the demo starts an example bot: the source through tsx in a checkout,
// the shipped bundle in an installed package (no tsx), the executable itself
// in the single binary; and when nothing is there, the example is named.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BINARY_EXAMPLE_ENV, exampleBotCommand } from '../../src/cli/example-bot-command';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A package directory outside the checkout (so no tsx above it) with the given files. */
function pkgDir(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-example-cmd-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), '{"name":"bot-arena"}');
  for (const f of files) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), '');
  }
  return dir;
}

describe('exampleBotCommand', () => {
  it('runs the TypeScript source through tsx in a checkout', () => {
    const l = exampleBotCommand(ROOT, 'starter', false);
    expect(l).toEqual({
      args: ['--import', 'tsx', join(ROOT, 'examples', 'starter-bot', 'bot.ts')],
      env: {},
      file: join(ROOT, 'examples', 'starter-bot', 'bot.ts'),
    });
  });

  it('runs the shipped bundle where no tsx is installed', () => {
    const dir = pkgDir(['examples/starter-bot/bot.ts', 'dist/examples/starter-bot.mjs']);
    const bundle = join(dir, 'dist', 'examples', 'starter-bot.mjs');
    expect(exampleBotCommand(dir, 'starter', false)).toEqual({ args: [bundle], env: {}, file: bundle });
  });

  it('starts the executable itself in the single binary', () => {
    expect(exampleBotCommand('/anywhere', 'heuristic', true)).toEqual({
      args: [],
      env: { [BINARY_EXAMPLE_ENV]: 'heuristic' },
    });
  });

  it('names the example when neither it nor its bundle is there', () => {
    const dir = pkgDir([]);
    expect(exampleBotCommand(dir, 'starter', false).file).toBe(join(dir, 'examples', 'starter-bot', 'bot.ts'));
  });
});
