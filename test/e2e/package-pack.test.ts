// The npm package: `npm pack` (which builds the bundle at prepack) gives a
// tarball that installs globally into an empty prefix and runs without the
// repository or any devDependency (no esbuild, no tsx): the demo with its
// example bot processes, replay, rules, man pages, and the library entry
// points bot authors import. The package's runtime dependencies come from the
// npm registry (or npm's cache); every other connection stays on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };
import { runCommand, type RunResult } from '../support/run-command';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SETUP_MS = 5 * 60_000;

let tmp: string;
let prefix: string;
let tarball: string;
/** Where the package lands: <prefix>/lib/node_modules/bot-arena. */
let installed: string;

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunResult> {
  return runCommand(cmd, args, opts);
}

/** Runs the installed `arena` as a user would: found on PATH, from an unrelated directory. */
function arena(args: string[], extraEnv: Record<string, string> = {}): Promise<RunResult> {
  const env = {
    // The prefix's bin, then node's directory (the launcher's `#!/usr/bin/env node`); nothing of the repository.
    PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
    HOME: join(tmp, 'home'),
    ARENA_CONFIG_DIR: join(tmp, 'config'),
    NODE_OPTIONS: '',
    ...extraEnv,
  };
  return run('arena', args, { cwd: join(tmp, 'work'), env });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'arena-pack-'));
  prefix = join(tmp, 'prefix');
  for (const d of ['home', 'config', 'work', 'pack']) spawnSync('mkdir', ['-p', join(tmp, d)]);
  // npm's own environment (its cache and registry settings), without the test runner's NODE_OPTIONS.
  const npmEnv = { ...process.env, NODE_OPTIONS: '', npm_config_loglevel: 'error' };
  const packed = await run('npm', ['pack', '--pack-destination', join(tmp, 'pack')], { cwd: ROOT, env: npmEnv });
  expect(packed.code, packed.stderr).toBe(0);
  const name = readdirSync(join(tmp, 'pack')).find((f) => f.endsWith('.tgz'));
  expect(name).toBe(`bot-arena-${pkg.version}.tgz`);
  tarball = join(tmp, 'pack', name!);
  const install = await run(
    'npm',
    ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball],
    { cwd: join(tmp, 'work'), env: npmEnv },
  );
  expect(install.code, install.stderr).toBe(0);
  installed = join(prefix, 'lib', 'node_modules', 'bot-arena');
}, SETUP_MS);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('npm package', () => {
  it('ships the built bundle and no sources, build scripts or source maps', () => {
    const list = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    expect(list).toContain('bin/arena');
    expect(list).toContain('dist/arena.mjs');
    expect(list).toContain('dist/engine.mjs');
    expect(list).toContain('dist/examples/starter-bot.mjs');
    expect(list).toContain('docs/rules.md');
    expect(list).toContain('man/arena-play.1');
    expect(list.filter((f) => f.startsWith('src/') || f.startsWith('scripts/') || f.endsWith('.map'))).toEqual([]);
    // Every chunk the bundle imports is there (none of an earlier build's).
    const outputs = JSON.parse(readFileSync(join(ROOT, 'dist', 'arena.outputs.json'), 'utf8')) as Record<
      string,
      string[]
    >;
    const chunks = list.filter((f) => f.startsWith('dist/chunks/'));
    for (const out of Object.keys(outputs)) if (out.startsWith('dist/chunks/')) expect(chunks).toContain(out);
  });

  it('installs without devDependencies: no esbuild, no tsx', () => {
    expect(existsSync(join(installed, 'dist', 'arena.mjs'))).toBe(true);
    for (const dev of ['esbuild', 'tsx', 'typescript', 'vitest']) {
      expect(existsSync(join(installed, 'node_modules', dev)), dev).toBe(false);
      expect(existsSync(join(prefix, 'lib', 'node_modules', dev)), dev).toBe(false);
    }
  });

  it('arena --version names the package version, the rules version and the commit', async () => {
    const r = await arena(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`arena ${pkg.version}`);
    expect(r.stdout).toContain('rules pioneers/1');
    expect(r.stdout).toMatch(/commit ([0-9a-f]{7,}|unknown)/);
  });

  it('arena demo --games 2 runs the example bots as processes, and the matches replay', async () => {
    const out = join(tmp, 'work', 'demo');
    const r = await arena(['demo', '--games', '2', '--out', out, '--seed', 'pack-test']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/starter bot on http:\/\/127\.0\.0\.1:\d+, heuristic bot on http:\/\/127\.0\.0\.1:\d+/);
    for (const bot of ['starter', 'heuristic', 'greedy', 'random'])
      expect(r.stdout).toMatch(new RegExp(`^${bot}\\s+2\\s`, 'm'));
    expect(r.stdout).toContain('2 of 2 games completed');
    const matches = readdirSync(out).filter((f) => f.startsWith('m-') && f.endsWith('.json'));
    expect(matches).toHaveLength(2);
    const replay = await arena(['replay', '--plain', '--turn', 'end', join(out, matches[0])]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/turn \d+/i);
  }, 120_000);

  it('arena simulate --workers 2 starts the shipped worker script and matches one worker', async () => {
    const args = ['simulate', '--games', '40', '--seed', 'pack-workers', '--json', '--quiet'];
    const one = await arena([...args, '--workers', '1']);
    const two = await arena([...args, '--workers', '2']);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    const stable = (text: string) => ({
      ...(JSON.parse(text) as Record<string, unknown>),
      seconds: 0,
      gamesPerSecond: 0,
    });
    expect(stable(two.stdout)).toEqual(stable(one.stdout));
  });

  it('arena new writes a starter from the installed package, outside any checkout', async () => {
    const r = await arena(['new', 'go', 'my-go-bot']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('bot check http://127.0.0.1:8080');
    for (const f of ['README.md', 'board.json', 'go.mod', 'handshake.go', 'main.go', 'strategy.go']) {
      expect(readFileSync(join(tmp, 'work', 'my-go-bot', f), 'utf8'), f).toBe(
        readFileSync(join(ROOT, 'examples', 'go-bot', f), 'utf8'),
      );
    }
  });

  it('arena rules finds the rules shipped with the package', async () => {
    const r = await arena(['rules', '--no-pager']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8'));
  });

  it('man arena and man arena-play find the installed pages', async () => {
    for (const page of ['arena', 'arena-play']) {
      expect(existsSync(join(prefix, 'share', 'man', 'man1', `${page}.1`)), page).toBe(true);
    }
    // package.json "man" lists exactly the generated pages, so a new command's page is installed too.
    const pages = readdirSync(join(ROOT, 'man'))
      .filter((f) => f.endsWith('.1'))
      .sort();
    expect([...pkg.man].map((m) => m.replace(/^\.\/man\//, '')).sort()).toEqual(pages);
    if (spawnSync('man', ['--version']).status !== 0) return; // no man(1) on this machine: the files above are what it reads
    for (const page of ['arena', 'arena-play']) {
      // man derives its search path from PATH (<prefix>/bin -> <prefix>/share/man).
      const r = await run('man', ['-w', page], {
        cwd: tmp,
        env: { PATH: [join(prefix, 'bin'), '/usr/bin', '/bin'].join(delimiter), HOME: join(tmp, 'home') },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim().startsWith(prefix)).toBe(true);
    }
  });

  it('bot-arena/engine and bot-arena/protocol import from the installed package, with types', async () => {
    // A bot author's project next to the installed package.
    const project = join(prefix, 'lib');
    writeFileSync(
      join(project, 'check.mjs'),
      `
import { newGame, seatView, legalActionsFromView, pendingDecisions } from 'bot-arena/engine';
import { DecisionRequestSchema } from 'bot-arena/protocol';
const game = newGame('pack-test', 4);
const [decision] = pendingDecisions(game);
const view = seatView(game, decision.seat);
const request = DecisionRequestSchema.parse({ id: 1, matchId: 'm-1', game: 'pioneers', seat: decision.seat, kind: decision.kind, deadlineMs: 5000, view });
const legal = legalActionsFromView(request.view, request.kind, { devPlayedThisTurn: false, offersThisTurn: 0 });
console.log(JSON.stringify({ kind: request.kind, legal: legal.length }));
`,
    );
    const r = await run(process.execPath, [join(project, 'check.mjs')], {
      cwd: project,
      env: { PATH: process.env.PATH, NODE_OPTIONS: '' },
    });
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { kind: string; legal: number };
    expect(answer.kind).toBe('setup');
    expect(answer.legal).toBeGreaterThan(0);

    // The declarations resolve the way Node resolves (nodenext) and type the same calls.
    writeFileSync(
      join(project, 'check.mts'),
      `
import { newGame, seatView, legalActionsFromView, type AnyAction } from 'bot-arena/engine';
import { DecisionRequestSchema, type DecisionRequest } from 'bot-arena/protocol';
const view = seatView(newGame('x', 3), 0);
const request: DecisionRequest = DecisionRequestSchema.parse({ id: 1, matchId: 'm', game: 'pioneers', seat: 0, kind: 'setup', deadlineMs: 1, view });
const memo = { devPlayedThisTurn: false, offersThisTurn: 0 };
const actions: AnyAction[] = legalActionsFromView(view, request.kind, memo);
// @ts-expect-error a number is not a view
legalActionsFromView(42, 'setup', memo);
export { actions };
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          typeRoots: [],
        },
        files: ['check.mts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const t = await run(process.execPath, [tsc, '-p', join(project, 'tsconfig.json')], {
      cwd: project,
      env: { PATH: process.env.PATH, NODE_OPTIONS: '' },
    });
    expect(t.code, t.stdout + t.stderr).toBe(0);
  }, 60_000);
});
