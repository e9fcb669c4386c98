// The CLI as users run it: spawned `node bin/arena ...`, checking exit codes,
// stdout data and stderr messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadOrCreatePlatformKey } from '../../src/config/platform-key';
import { decide } from '../../examples/starter-bot/bot';
import { serveBot, type RunningBot } from '../../examples/starter-bot/server';
import { MatchRecordSchema } from '../../src/protocol/index';

const root = resolve(__dirname, '../..');
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'arena-cli-'));
  // Without npm's variables (npm test sets them), as a user running bin/arena by path.
  const own = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
  env = { ...own, ARENA_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function arena(
  args: string[],
  opts: { onStderr?: (text: string, child: ReturnType<typeof spawn>) => void; ownGroup?: boolean } = {},
): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'bin/arena'), ...args], {
      cwd: home,
      env,
      detached: opts.ownGroup ?? false,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      opts.onStderr?.(stderr, child);
    });
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

describe('arena play (CLI)', () => {
  it('--json prints one JSON summary on stdout and progress on stderr', async () => {
    const r = await arena([
      'play',
      'builtin:random',
      'builtin:random',
      'builtin:random',
      '--games',
      '2',
      '--seed',
      'cli',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ version: 1, seed: 'cli', games: 2, gamesPlanned: 2, seats: 3, interrupted: false });
    expect(doc.bots.map((b: { name: string }) => b.name).sort()).toEqual(['random', 'random#2', 'random#3']);
    expect(r.stderr).toMatch(/game 1\/2 m-\d{14}-[0-9a-z]{4}-000\d/);
  });

  it('refuses bad input with exit 2 and a message saying what to give', async () => {
    const r = await arena(['play', 'builtin:random', '--games', 'many']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--games must be a whole number');
    expect(r.stdout).toBe('');
  });

  it('stops before the first game when a bot fails the deploy check (exit 1), naming the URL', async () => {
    const out = join(home, 'never');
    const r = await arena(['play', 'http://127.0.0.1:9/bot', 'builtin:random', 'builtin:random', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing was started');
    expect(r.stderr).toContain('deploy check failed');
    expect(r.stderr).toContain('http://127.0.0.1:9/bot/ping');
    expect(existsSync(out)).toBe(false);
  });

  it('--print-platform-key prints the public half of the key in the config dir', async () => {
    const r = await arena(['play', '--print-platform-key']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(loadOrCreatePlatformKey(env).publicKeyBase64);
  });

  it('Ctrl-C aborts the running match, records it, prints the summary so far and exits 130', async () => {
    // A legal but slow bot keeps the match running long enough to interrupt.
    const slow: RunningBot = await serveBot(async (req, memo) => {
      await new Promise((r) => setTimeout(r, 50));
      return decide(req, memo);
    });
    const out = join(home, 'interrupted');
    let sent = false;
    const r = await arena(
      [
        'play',
        `slow=${slow.url}`,
        'builtin:random',
        'builtin:random',
        '--games',
        '3',
        '--concurrency',
        '1',
        '--seed',
        'int',
        '--out',
        out,
      ],
      {
        onStderr: (text, child) => {
          if (!sent && text.includes('seed int')) {
            sent = true;
            setTimeout(() => child.kill('SIGINT'), 300);
          }
        },
      },
    );
    await slow.close();
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('interrupted');
    expect(r.stdout).toContain('interrupted');
    const files = readdirSync(out).filter((f) => f.startsWith('m-'));
    expect(files).toHaveLength(1);
    const record = MatchRecordSchema.parse(JSON.parse(readFileSync(join(out, files[0]), 'utf8')));
    expect(record.status).toBe('aborted');
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({
      interrupted: true,
      aborted: 1,
      games: 0,
    });
  });
  it('under `timeout`: SIGTERM to the process and again to its group a moment later is one stop; the summary is written, exit 130 (interrupted)', async () => {
    // GNU timeout signals the command, then the command's process group: the second is an echo, not "quit at once".
    const out = join(home, 'timeout');
    let sent = false;
    const r = await arena(
      ['play', 'builtin:random', 'builtin:random', 'builtin:random', '--games', '100000', '--out', out],
      {
        ownGroup: true,
        onStderr: (text, child) => {
          if (sent || !/game \d+\/100000/.test(text)) return;
          sent = true;
          child.kill('SIGTERM');
          setTimeout(() => process.kill(-child.pid!, 'SIGTERM'), 5);
        },
      },
    );
    expect(r.code, r.stderr.slice(-500)).toBe(130);
    expect(r.stderr).toContain('terminated, aborting running matches');
    expect(r.stderr).not.toContain('quitting now');
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({ interrupted: true });
  });
});

describe('arena demo and arena bot check (CLI)', () => {
  it('demo runs the example bots against the built-ins and says how to replay', async () => {
    const out = join(home, 'demo');
    const r = await arena(['demo', '--games', '2', '--out', out, '--seed', 'demo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/heuristic/);
    expect(r.stdout).toMatch(/starter/);
    expect(readdirSync(out).filter((f) => f.startsWith('m-'))).toHaveLength(2);
    // The replay hint runs as printed: here `node <path>/bin/arena replay <out>`.
    const hint = /^ {2}(.+ replay \S+) +\(the newest match\)$/m.exec(r.stderr)?.[1];
    expect(hint).toBe(`node ${join(root, 'bin/arena')} replay ${out}`);
    const replay = await new Promise<{ code: number | null; stdout: string }>((done) => {
      const child = spawn('/bin/sh', ['-c', `${hint} --plain --turn end`], { cwd: home, env });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.on('close', (code) => done({ code, stdout }));
    });
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/turn/i);
  });

  it('bot check passes a good bot (exit 0) and fails an illegal one (exit 1)', async () => {
    const good = await serveBot(decide);
    const bad = await serveBot((req) =>
      req.kind === 'turn'
        ? { type: 'build_city', vertex: 53 }
        : decide(req, { matchId: '', turn: 0, devPlayedThisTurn: false, offersThisTurn: 0 }),
    );
    try {
      const ok = await arena(['bot', 'check', good.url]);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('PASS');
      const fail = await arena(['bot', 'check', bad.url, '--json']);
      expect(fail.code).toBe(1);
      const report = JSON.parse(fail.stdout);
      expect(report.ok).toBe(false);
      expect(report.checks.find((c: { name: string }) => c.name === 'decision: turn')).toMatchObject({
        status: 'fail',
      });
    } finally {
      await Promise.all([good.close(), bad.close()]);
    }
  });
});
