// examples/starter-bot copied out of the repository, as its README says: one
// `npm install <bot-arena tarball>` (which also installs the starter's own
// dependencies), then `npm start`. Nothing of the repository is used but the
// packed tarball: the bot imports bot-arena/engine and bot-arena/protocol from
// node_modules, `npx arena` is the installed package's CLI, and the bot
// verifies the arena's signed handshakes with its own code.
// The npm registry (or npm's cache) serves the dependencies; every other
// connection stays on 127.0.0.1.
// Set ARENA_PACKED_TARBALL to a `npm pack` output of this tree to skip packing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { runCommand, type RunResult } from '../support/run-command';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SETUP_MS = 6 * 60_000;
/** Processes starting processes (npm, tsx, the arena) on a loaded machine: slow, not wrong. */
const STEP_MS = 3 * 60_000;

let tmp: string;
let bot: string;
let tarball: string;
let server: ChildProcess | null = null;

/** The user's environment: npm's settings, no test runner's NODE_OPTIONS, and only node and the system on PATH. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const own = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'NODE_OPTIONS' && k !== 'PATH'),
  );
  return {
    ...own,
    PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
    ARENA_CONFIG_DIR: join(tmp, 'config'),
    npm_config_loglevel: 'error',
    ...extra,
  };
}

function run(cmd: string, args: string[], cwd: string): Promise<RunResult> {
  return runCommand(cmd, args, { cwd, env: userEnv() });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'arena-starter-'));
  bot = join(tmp, 'my-bot');
  // What `cp -r examples/starter-bot ~/my-bot` copies (minus anything installed in the repository's copy).
  cpSync(join(ROOT, 'examples', 'starter-bot'), bot, {
    recursive: true,
    filter: (src) => !/node_modules|package-lock\.json/.test(relative(ROOT, src)),
  });
  if (process.env.ARENA_PACKED_TARBALL) tarball = process.env.ARENA_PACKED_TARBALL;
  else {
    mkdirSync(join(tmp, 'pack'));
    const packed = await run('npm', ['pack', '--pack-destination', join(tmp, 'pack')], ROOT);
    expect(packed.code, packed.stderr).toBe(0);
    tarball = join(tmp, 'pack', readdirSync(join(tmp, 'pack')).find((f) => f.endsWith('.tgz'))!);
  }
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], bot);
  expect(install.code, install.stderr).toBe(0);
}, SETUP_MS);

afterAll(async () => {
  const s = server;
  if (s?.pid !== undefined && s.exitCode === null && s.signalCode === null) {
    // npm, sh, tsx and the bot share the process group npm start was given.
    const exited = new Promise((r) => s.once('exit', r));
    process.kill(-s.pid, 'SIGTERM');
    const cut = setTimeout(() => process.kill(-s.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(cut);
  }
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

/** `npm start -- ARGS` in its own process group; resolves with the URL the bot prints. */
function npmStart(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    server = spawn('npm', ['start', '--', ...args], {
      cwd: bot,
      env: userEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let err = '';
    server.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`npm start exited with ${code}: ${err}`)));
  });
}

function upgradeStatus(url: string): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'));
    ws.on('open', () => {
      resolve('open');
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => {});
  });
}

describe('examples/starter-bot copied out of the repository', () => {
  it('one npm install of the package tarball: the dependency now names the tarball, and bot-arena is installed, not linked', () => {
    const pkg = JSON.parse(readFileSync(join(bot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['bot-arena']).toMatch(/^file:.*bot-arena-[\d.]+\.tgz$/);
    expect(lstatSync(join(bot, 'node_modules', 'bot-arena')).isSymbolicLink()).toBe(false);
    expect(lstatSync(join(bot, 'node_modules', '.bin', 'arena')).isSymbolicLink()).toBe(true);
  });

  it(
    "type-checks against the package's own declarations (npm run typecheck)",
    async () => {
      const r = await run('npm', ['run', 'typecheck'], bot);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    },
    STEP_MS,
  );

  it(
    'npm start serves a bot that answers /ping, verifies handshakes, passes bot check and plays a game without a strike',
    async () => {
      const key = await run('npx', ['arena', 'play', '--print-platform-key'], bot);
      expect(key.code, key.stderr).toBe(0);
      const url = await npmStart(['--port', '0', '--quiet', '--platform-key', key.stdout.trim()]);
      expect(await (await fetch(`${url}/ping`)).text()).toBe('pong');
      // Unsigned: refused by the starter's own verification.
      expect(await upgradeStatus(url)).toBe(401);

      const check = await run('npx', ['arena', 'bot', 'check', url], bot);
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(check.stdout).toContain('PASS');

      const play = await run(
        'npx',
        [
          'arena',
          'play',
          `starter=${url}`,
          'builtin:random',
          'builtin:random',
          'builtin:random',
          '--games',
          '1',
          '--seed',
          'copied',
          '--json',
        ],
        bot,
      );
      expect(play.code, play.stderr).toBe(0);
      const summary = JSON.parse(play.stdout) as {
        games: number;
        bots: Array<{ name: string; games: number; strikes: Record<string, number>; resigned: number }>;
      };
      expect(summary.games).toBe(1);
      const starter = summary.bots.find((b) => b.name === 'starter')!;
      expect(starter.games).toBe(1);
      expect(starter.strikes).toEqual({ late: 0, malformed: 0, oversize: 0, dropped: 0, illegal: 0 });
      expect(starter.resigned).toBe(0);
    },
    STEP_MS,
  );
});
