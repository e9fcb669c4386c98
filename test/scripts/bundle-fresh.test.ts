// bin/arena rebuilds its bundle when any file the bundle was made of changed.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleIsFresh, inputsFile } from '../../scripts/bundle-fresh.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project with a bundle built at t=2000 s from the given files, each written at t=1000 s. */
function project(inputs: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'arena-fresh-'));
  dirs.push(root);
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'arena.mjs'), '');
  for (const f of inputs) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), '');
    utimesSync(join(root, f), 1000, 1000);
  }
  writeFileSync(inputsFile(root, 'arena'), JSON.stringify({ startedAt: 2_000_000, inputs }));
  return root;
}

describe('bundle staleness', () => {
  it('is fresh while every bundled file is older than the build, in any directory', () => {
    const root = project(['src/cli/main.ts', 'engine/game.ts', 'examples/starter-bot/bot.ts', 'package.json']);
    expect(bundleIsFresh(root)).toBe(true);
    // A bundled example edited after the build makes it stale, like any source.
    utimesSync(join(root, 'examples/starter-bot/bot.ts'), 3000, 3000);
    expect(bundleIsFresh(root)).toBe(false);
  });

  it('is stale when a bundled file is gone, or the bundle or its inputs list is missing', () => {
    const root = project(['src/a.ts', 'src/b.ts']);
    rmSync(join(root, 'src/b.ts'));
    expect(bundleIsFresh(root)).toBe(false);
    const noList = project(['src/a.ts']);
    rmSync(inputsFile(noList, 'arena'));
    expect(bundleIsFresh(noList)).toBe(false);
    const noBundle = project(['src/a.ts']);
    rmSync(join(noBundle, 'dist', 'arena.mjs'));
    expect(bundleIsFresh(noBundle)).toBe(false);
  });

  it('the real build lists what it bundled: the CLI, the engine, package.json, and no copy-me example', () => {
    // test/global-setup.ts built the bundle before any test ran.
    const root = resolve(__dirname, '../..');
    const { inputs } = JSON.parse(readFileSync(inputsFile(root, 'arena'), 'utf8')) as { inputs: string[] };
    expect(inputs).toContain('src/cli/main.ts');
    expect(inputs).toContain('engine/game.ts');
    expect(inputs).toContain('package.json');
    expect(inputs.filter((f) => f.startsWith('examples/'))).toEqual([]);
  });
});
