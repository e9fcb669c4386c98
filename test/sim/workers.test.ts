// `arena simulate --workers N`: the games of a run split across worker
// threads (the built worker script, dist/sim-worker.cjs, as the bundle runs
// it) give exactly the one-worker result for the same seed.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simWorkerScript } from '../../src/cli/sim-worker-script';
import { defaultWorkers, simulateParallel } from '../../src/sim/parallel';
import { simulate, type SimulateResult } from '../../src/sim/simulate';

const root = join(__dirname, '..', '..');
const arena = (args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin/arena'), ...args], { encoding: 'utf8', timeout: 120_000 });

/** Everything but wall-clock timings. */
function stable(r: SimulateResult) {
  const { seconds: _s, gamesPerSecond: _g, ...rest } = r;
  return rest;
}

describe('simulate on worker threads', () => {
  it('gives the one-worker result for 2 and 3 workers, 3 and 4 seats', async () => {
    for (const bots of [
      ['greedy', 'random', 'random', 'random'],
      ['random', 'greedy', 'random'],
    ]) {
      const one = simulate({ games: 137, bots, seed: 'workers' });
      for (const workers of [2, 3]) {
        const many = await simulateParallel({ games: 137, bots, seed: 'workers', workers }, simWorkerScript);
        expect(stable(many)).toEqual(stable(one));
      }
    }
  }, 60_000);

  it('duplicate play gives the one-worker result too (the workers get the flag)', async () => {
    const bots = ['greedy', 'random', 'random'];
    const one = simulate({ games: 60, bots, seed: 'dup-workers', duplicate: true });
    const many = await simulateParallel(
      { games: 60, bots, seed: 'dup-workers', workers: 2, duplicate: true },
      simWorkerScript,
    );
    expect(stable(many)).toEqual(stable(one));
    expect(stable(many)).not.toEqual(stable(simulate({ games: 60, bots, seed: 'dup-workers' })));
  });

  it('plays every game once when there are more workers than games', async () => {
    const one = simulate({ games: 2, bots: ['random', 'random', 'random'], seed: 'few' });
    const many = await simulateParallel(
      { games: 2, bots: ['random', 'random', 'random'], seed: 'few', workers: 4 },
      simWorkerScript,
    );
    expect(stable(many)).toEqual(stable(one));
  });

  it('reports progress up to the number of games, never backwards', async () => {
    const seen: number[] = [];
    await simulateParallel(
      {
        games: 300,
        bots: ['random', 'random', 'random', 'random'],
        seed: 'progress',
        workers: 2,
        onProgress: (d) => seen.push(d),
      },
      simWorkerScript,
    );
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toBe(300);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
  });

  it('a worker that fails fails the run with its message and leaves no thread behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-workers-'));
    try {
      const broken = join(dir, 'broken.cjs');
      writeFileSync(
        broken,
        "const { parentPort } = require('node:worker_threads'); parentPort.on('message', () => parentPort.postMessage({ type: 'error', message: 'bot exploded' }));",
      );
      await expect(
        simulateParallel({ games: 50, bots: ['random', 'random', 'random'], seed: 'x', workers: 2 }, () => ({
          file: broken,
        })),
      ).rejects.toThrow('bot exploded');
      const crashing = join(dir, 'crash.cjs');
      writeFileSync(crashing, 'process.exit(3);');
      await expect(
        simulateParallel({ games: 50, bots: ['random', 'random', 'random'], seed: 'x', workers: 2 }, () => ({
          file: crashing,
        })),
      ).rejects.toThrow(/exit code 3/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks its options before starting any thread', async () => {
    await expect(
      simulateParallel({ games: 5, bots: ['random', 'random'], seed: 'x', workers: 2 }, () => {
        throw new Error('started');
      }),
    ).rejects.toThrow(/need 3 or 4 bots/);
    await expect(
      simulateParallel({ games: 5, bots: ['random', 'random', 'random'], seed: 'x', workers: 0 }, () => {
        throw new Error('started');
      }),
    ).rejects.toThrow(/workers must be a positive integer/);
  });
});

describe('stopping a run', () => {
  const bots = ['greedy', 'random', 'random', 'random'];

  it('on one thread, stops after the game in play: the result is that of the games before it', async () => {
    const controller = new AbortController();
    const r = await simulateParallel(
      {
        games: 100_000,
        bots,
        seed: 'stop',
        workers: 1,
        signal: controller.signal,
        onProgress: (done) => done === 50 && controller.abort(),
      },
      simWorkerScript,
    );
    expect(r.interrupted).toBe(true);
    expect(stable(r)).toEqual({ ...stable(simulate({ games: 50, bots, seed: 'stop' })), interrupted: true });
  });

  it('on two threads, stops every worker at its next game and adds up what they finished', async () => {
    const controller = new AbortController();
    let seen = 0;
    const r = await simulateParallel(
      {
        games: 100_000,
        bots,
        seed: 'stop',
        workers: 2,
        signal: controller.signal,
        onProgress: (done) => {
          seen = done;
          if (done >= 200) controller.abort();
        },
      },
      simWorkerScript,
    );
    expect(r.interrupted).toBe(true);
    // Games reported before the abort are counted; the workers stop long before the end.
    expect(r.games).toBeGreaterThanOrEqual(200);
    expect(r.games).toBeLessThan(5_000);
    expect(seen).toBe(r.games);
    expect(r.bots.reduce((n, b) => n + b.wins, 0)).toBeLessThanOrEqual(r.games);
  });

  it('stopped before it starts, reports no game and no NaN', async () => {
    for (const workers of [1, 2]) {
      const r = await simulateParallel(
        { games: 10, bots, seed: 'stop', workers, signal: AbortSignal.abort() },
        simWorkerScript,
      );
      expect(r).toMatchObject({ games: 0, interrupted: true, avgTurns: 0 });
      expect(JSON.stringify(r)).not.toContain('null');
    }
  });

  it('a run that is not stopped says so', async () => {
    expect((await simulateParallel({ games: 3, bots, seed: 'stop', workers: 1 }, simWorkerScript)).interrupted).toBe(
      false,
    );
    expect(simulate({ games: 3, bots, seed: 'stop' }).interrupted).toBe(false);
  });
});

describe('the default number of threads', () => {
  it('is every core for a long run, and one for a run too short to pay for starting threads', () => {
    const random4 = ['random', 'random', 'random', 'random'];
    // The default run (100 greedy-mix games) and a thousand quick ones stay on one thread...
    expect(defaultWorkers(100, ['greedy', 'random', 'random', 'random'], 8)).toBe(1);
    expect(defaultWorkers(1000, random4, 8)).toBe(1);
    // ...long ones, or slow bots, use every core.
    expect(defaultWorkers(40_000, random4, 8)).toBe(8);
    expect(defaultWorkers(100, ['search', 'greedy', 'greedy', 'greedy'], 2)).toBe(2);
    expect(defaultWorkers(40_000, random4, 1)).toBe(1);
  });
});

describe('arena simulate --workers (CLI)', () => {
  it('says in the table how many threads played', () => {
    const short = arena(['simulate', '-n', '30', '-s', 'threads']);
    expect(short.status, short.stderr).toBe(0);
    expect(short.stdout).toMatch(/ s on 1 thread · /);
    const two = arena(['simulate', '-n', '30', '-s', 'threads', '--workers', '2']);
    expect(two.stdout).toMatch(/ s on 2 threads · /);
    // Never more threads than games.
    expect(arena(['simulate', '-n', '1', '-s', 'threads', '--workers', '4']).stdout).toMatch(/ s on 1 thread · /);
  });

  it('prints the same JSON for --workers 2 as for --workers 1 and for the default', () => {
    const args = ['simulate', '--games', '80', '--seed', 'cli-workers', '--json', '--quiet'];
    const parse = (r: ReturnType<typeof arena>) => {
      expect(r.status, r.stderr).toBe(0);
      return stable(JSON.parse(r.stdout) as SimulateResult);
    };
    const one = parse(arena([...args, '--workers', '1']));
    expect(parse(arena([...args, '--workers', '2']))).toEqual(one);
    expect(parse(arena(args))).toEqual(one);
  });

  it('Ctrl-C prints the games finished so far, marked as interrupted, and exits 130', async () => {
    for (const workers of ['1', '2']) {
      const child = spawn(process.execPath, [
        join(root, 'bin/arena'),
        'simulate',
        '--games',
        '100000000',
        '--seed',
        'ctrl-c',
        '--workers',
        workers,
        '--json',
      ]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      // The first progress line comes after the first game: the signal handler is in place by then.
      await new Promise<void>((resolve) =>
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes('games/s')) resolve();
        }),
      );
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect(code, stderr).toBe(130);
      expect(stderr).toContain('arena: interrupted, finishing the games in play');
      const r = JSON.parse(stdout) as SimulateResult;
      expect(r.interrupted).toBe(true);
      expect(r.games).toBeGreaterThan(0);
      expect(r.games).toBeLessThan(100_000_000);
    }
  }, 60_000);

  it('refuses a --games past exact integers', () => {
    const r = arena(['simulate', '--games', '99999999999999999999']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Expected a positive integer up to 9007199254740991');
  });

  it('rejects --workers 0 as a usage error', () => {
    const r = arena(['simulate', '--games', '5', '--workers', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("option '-w, --workers <N>' argument '0' is invalid");
  });
});
