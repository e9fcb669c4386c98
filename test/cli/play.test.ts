// `arena play` in-process (IO injected): seeds and the hints it prints.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gameSeed } from '../../src/arena/seeds';
import { runCli } from '../support/run-cli';
import { runArena } from '../support/run-arena';

const home = mkdtempSync(join(tmpdir(), 'arena-play-cli-'));
const config = join(home, 'config');
afterAll(() => rmSync(home, { recursive: true, force: true }));

const three = ['builtin:random', 'builtin:random', 'builtin:random'];

describe('arena play seeds', () => {
  it('without --seed draws 128 random bits, prints them, and derives each game seed by HMAC', async () => {
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['play', ...three, '--games', '2', '--json'], { env: { ARENA_CONFIG_DIR: config } });
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as { seed: string; matches: Array<{ game: number; seed: string }> };
      expect(doc.seed).toMatch(/^[0-9a-f]{32}$/);
      expect(r.stderr).toContain(`seed ${doc.seed} (rerun with --seed to reproduce)`);
      for (const m of doc.matches) expect(m.seed).toBe(gameSeed(doc.seed, m.game));
      runs.push(doc.seed);
    }
    expect(runs[0]).not.toBe(runs[1]);
  });

  it('with --seed plays the same games again', async () => {
    const play = async () => {
      const r = await runCli(['play', ...three, '--games', '3', '--seed', 'again', '--json'], {
        env: { ARENA_CONFIG_DIR: config },
      });
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as {
        matches: Array<{ seed: string; ended: string; turns: number; players: unknown }>;
      };
      return doc.matches.map((m) => ({ seed: m.seed, ended: m.ended, turns: m.turns, players: m.players }));
    };
    const first = await play();
    expect(first.map((m) => m.seed)).toEqual([1, 2, 3].map((n) => gameSeed('again', n)));
    expect(await play()).toEqual(first);
  });
});

describe('the replay hint', () => {
  const hintOf = async (env: NodeJS.ProcessEnv, argv1: string) => {
    const out = join(home, `out-${Math.random().toString(36).slice(2)}`);
    const r = await runCli(['play', ...three, '--games', '1', '--out', out], {
      env: { ARENA_CONFIG_DIR: config, ...env },
      argv1,
      cwd: home,
    });
    expect(r.code).toBe(0);
    expect(readdirSync(out).filter((f) => f.startsWith('m-'))).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).games).toBe(1);
    return { out, line: /replay with: (.*)$/m.exec(r.stderr)?.[1] };
  };

  it('is `npx arena replay DIR` when arena runs under npx or npm', async () => {
    const { out, line } = await hintOf(
      { npm_command: 'exec', PATH: '/usr/bin' },
      join(home, 'node_modules/.bin/arena'),
    );
    expect(line).toBe(`npx arena replay ${out}`);
  });

  it('is `arena replay DIR` when arena was found on PATH', async () => {
    const { out, line } = await hintOf({ PATH: '/usr/local/bin:/usr/bin' }, '/usr/local/bin/arena');
    expect(line).toBe(`arena replay ${out}`);
  });
});

describe('arena demo options', () => {
  it('a bad option is a usage error before any bot process starts', async () => {
    const r = await runCli(['demo', '--games', '0', '--out', join(home, 'demo-bad')], {
      env: { ARENA_CONFIG_DIR: config },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--games must be a whole number from 1/);
    expect(r.stderr).not.toMatch(/bot on http/);
  });
});

describe('arguments on the terminal', () => {
  it('an escape sequence in an argument is shown escaped in usage errors and refusals, never sent to the terminal', async () => {
    const esc = 'x\u001b[2Jy';
    const unknown = await runCli([esc]);
    const badName = await runCli(['play', `${esc}=builtin:random`, 'builtin:random']);
    for (const r of [unknown, badName]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('x\\u001b[2Jy');
      expect(r.stderr).not.toContain('\u001b');
    }
  });
});

describe('arena play --out on a disk that fills up', () => {
  it('stops, still prints the games played, and exits 1 saying which file could not be written and why', async () => {
    // A real limit the kernel enforces: files over 16 KiB cannot be written (a match record is far larger).
    const out = join(home, 'full');
    const r = await runArena(['play', ...three, '--games', '3', '--seed', 'full', '--out', out, '--json'], {
      env: { ARENA_CONFIG_DIR: config },
      fileSizeLimitKiB: 16,
    });
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { gamesPlanned: number; matches: unknown[] };
    expect(doc.gamesPlanned).toBe(3);
    expect(doc.matches.length).toBeGreaterThanOrEqual(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `arena: cannot write ${out}/m-[^ ]*-0001\\.json: the file is larger than this process may write \\(ulimit -f\\) \\(EFBIG\\); stopped after \\d games? \\(shown above\\); 0 match files and no summary\\.json were written to ${out}\\n$`,
      ),
    );
    expect(r.stderr).not.toContain('unexpected error');
    expect(readdirSync(out).filter((f) => f.endsWith('.json'))).toEqual([]);
  });
});
