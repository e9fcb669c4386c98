// The single executable (npm run build:binary): built once for this file,
// copied alone into an empty directory and run with a PATH of only that
// directory (no node, no node_modules, no repository), it plays, replays,
// simulates, makes keys, runs the demo's example bots and serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBinary } from '../../scripts/build-binary.mjs';
import pkg from '../../package.json' with { type: 'json' };
import { runCommand, type RunResult } from '../support/run-command';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILD_MS = 5 * 60_000;

let tmp: string;
let bin: string;
let env: NodeJS.ProcessEnv;

function arena(args: string[]): Promise<RunResult> {
  return runCommand('arena', args, { cwd: join(tmp, 'work'), env });
}

beforeAll(async () => {
  const built = await buildBinary({ quiet: true });
  tmp = mkdtempSync(join(tmpdir(), 'arena-binary-'));
  for (const d of ['bin', 'home', 'config', 'work']) mkdirSync(join(tmp, d));
  bin = join(tmp, 'bin', 'arena');
  copyFileSync(built, bin);
  spawnSync('chmod', ['755', bin]);
  // Nothing but the executable: no node on PATH, no NODE_OPTIONS, no repository around it.
  env = { PATH: join(tmp, 'bin'), HOME: join(tmp, 'home'), ARENA_CONFIG_DIR: join(tmp, 'config') };
}, BUILD_MS);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the single executable', () => {
  it('runs where PATH has no node', () => {
    expect(readdirSync(join(tmp, 'bin'))).toEqual(['arena']);
    const node = spawnSync('node', ['-e', '0'], { env });
    expect((node.error as NodeJS.ErrnoException | undefined)?.code).toBe('ENOENT');
  });

  it('--version names the package version, the rules version and the commit', async () => {
    const r = await arena(['--version']);
    expect(r.code, r.stderr).toBe(0);
    const commit =
      spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';
    expect(r.stdout).toBe(`arena ${pkg.version}\nrules pioneers/1\ncommit ${commit}\n`);
    expect(r.stderr).toBe('');
  });

  it('new writes each starter from the files it carries, the same as the examples', async () => {
    for (const [lang, dir] of [
      ['python', 'python-bot'],
      ['typescript', 'starter-bot'],
      ['javascript', 'javascript-bot'],
      ['go', 'go-bot'],
    ]) {
      const r = await arena(['new', lang, `new-${lang}`]);
      expect(r.code, r.stderr).toBe(0);
      const target = join(tmp, 'work', `new-${lang}`);
      const files = readdirSync(target).sort();
      expect(files, lang).toEqual(
        readdirSync(join(ROOT, 'examples', dir))
          .filter(
            (f) =>
              !['node_modules', 'package-lock.json', '__pycache__', 'bot', 'go.sum'].includes(f) && !f.startsWith('.'),
          )
          .sort(),
      );
      for (const f of files.filter((f) => f !== 'package.json' || lang !== 'typescript')) {
        expect(readFileSync(join(target, f), 'utf8'), `${lang}/${f}`).toBe(
          readFileSync(join(ROOT, 'examples', dir, f), 'utf8'),
        );
      }
    }
    const refused = await arena(['new', 'go', 'new-go']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('simulate --games 20 plays 20 games in-process', async () => {
    const r = await arena(['simulate', '--games', '20', '--seed', 'binary', '--json', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { games: number; bots: Array<{ bot: string; wins: number }> };
    expect(result.games).toBe(20);
    expect(result.bots.map((b) => b.bot)).toEqual(['greedy', 'random', 'random', 'random']);
  });

  it('simulate --workers 2 plays on worker threads from the code the executable carries, with the one-worker result', async () => {
    const args = ['simulate', '--games', '60', '--seed', 'binary-workers', '--json', '--quiet'];
    const [one, two] = await Promise.all([arena([...args, '--workers', '1']), arena([...args, '--workers', '2'])]);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    const stable = (text: string) => {
      const { seconds: _s, gamesPerSecond: _g, ...rest } = JSON.parse(text) as Record<string, unknown>;
      return rest;
    };
    expect(stable(two.stdout)).toEqual(stable(one.stdout));
    expect(stable(two.stdout).games).toBe(60);
  });

  it('play writes match files that replay --plain verifies and draws; the hint names the executable as found on PATH', async () => {
    const out = join(tmp, 'work', 'matches');
    const play = await arena([
      'play',
      'builtin:random',
      'builtin:greedy',
      'builtin:random',
      '--games',
      '2',
      '--out',
      out,
      '--seed',
      'binary',
    ]);
    expect(play.code, play.stderr).toBe(0);
    expect(play.stdout).toContain('2 of 2 games completed');
    expect(play.stderr).toContain(`replay with: arena replay ${out}`);
    const matches = readdirSync(out).filter((f) => f.startsWith('m-') && f.endsWith('.json'));
    expect(matches).toHaveLength(2);
    const replay = await arena(['replay', '--plain', '--turn', 'end', join(out, matches[0])]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain(`match ${matches[0].replace(/\.json$/, '')}`);
    expect(replay.stdout).toMatch(/VP \d+/);
  }, 60_000);

  it('keys generate writes a private key and prints its public half', async () => {
    const r = await arena(['keys', 'generate', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { privateKeyFile: string; publicKey: { ssh: string; raw: string } };
    expect(out.privateKeyFile).toBe(join(tmp, 'config', 'keys', 'id_ed25519.pem'));
    expect(readFileSync(out.privateKeyFile, 'utf8')).toContain('BEGIN PRIVATE KEY');
    expect(out.publicKey.ssh).toMatch(/^ssh-ed25519 /);
    expect(Buffer.from(out.publicKey.raw, 'base64')).toHaveLength(32);
  });

  it('rules prints the rules it carries', async () => {
    const r = await arena(['rules', '--no-pager']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8'));
  });

  it('demo starts the example bots from the executable itself and plays them', async () => {
    const out = join(tmp, 'work', 'demo');
    const r = await arena(['demo', '--games', '2', '--out', out, '--seed', 'binary']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/starter bot on http:\/\/127\.0\.0\.1:\d+, heuristic bot on http:\/\/127\.0\.0\.1:\d+/);
    for (const bot of ['starter', 'heuristic']) expect(r.stdout).toMatch(new RegExp(`^${bot}\\s+2\\s`, 'm'));
    expect(readdirSync(out).filter((f) => f.startsWith('m-'))).toHaveLength(2);
  }, 60_000);

  it.skipIf(!existsSync(join(ROOT, 'src', 'cli', 'commands', 'serve.ts')))(
    'serve --dev answers /health (and the dashboard it carries), and stops on SIGTERM',
    async () => {
      const child: ChildProcess = spawn(
        'arena',
        ['serve', '--dev', '--port', '0', '--data', join(tmp, 'work', 'data')],
        { cwd: join(tmp, 'work'), env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        const base = await new Promise<string>((resolve, reject) => {
          child.stderr!.setEncoding('utf8').on('data', (d: string) => {
            stderr += d;
            const m = /listening on (http:\/\/[^\s]+)/.exec(stderr);
            if (m) resolve(m[1]);
          });
          child.once('exit', (code) => reject(new Error(`serve exited ${code} before listening:\n${stderr}`)));
        });
        const health = await get(`${base}/health`);
        expect(health.status).toBe(200);
        expect(JSON.parse(health.body)).toEqual({ status: 'ok', role: 'all' });
        if (existsSync(join(ROOT, 'dist', 'web', 'manifest.json'))) {
          const page = await get(`${base}/`);
          expect(page.status).toBe(200);
          const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
          expect(script, page.body).toBeDefined();
          expect((await get(`${base}${script}`)).status).toBe(200);
        }
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(stderr).toContain('stopped');
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    },
    60_000,
  );
});

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}
