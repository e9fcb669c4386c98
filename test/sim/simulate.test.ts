import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { simulate, SimulateError } from '../../src/sim/simulate';

const root = join(__dirname, '..', '..');
const arena = (args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin/arena'), ...args], { encoding: 'utf8', timeout: 120_000 });

/** Everything but wall-clock timings. */
function stable(r: ReturnType<typeof simulate>) {
  const { seconds: _s, gamesPerSecond: _g, ...rest } = r;
  return rest;
}

describe('simulate', () => {
  it('--duplicate plays each seed once per seat rotation: identical bots then share every result exactly', () => {
    // Three greedy bots (seeded by game seed and seat): in a group the same seed is played with the bots rotated, so
    // each
    // bot gets each seat's result once, and over whole groups every bot has the same wins and placements.
    const r = simulate({ games: 6, bots: ['greedy', 'greedy', 'greedy'], seed: 'dup', duplicate: true });
    expect(r.duplicate).toBe(true);
    expect(new Set(r.bots.map((b) => `${b.wins}/${b.avgPlacement}/${b.avgVp}`)).size).toBe(1);
    expect([...r.outcomes.games]).toEqual([0, 1, 2, 3, 4, 5]);
    const codes = (game: number) => [...r.outcomes.codes.subarray(game * 3, game * 3 + 3)];
    for (const g of [0, 3]) {
      // Game g + k is game g with every bot moved k seats along: bot b sits where bot b + k sat in game g (same
      // placement, same win).
      for (let k = 0; k < 3; k++) expect(codes(g + k)).toEqual(codes(g).map((_, b) => codes(g)[(b + k) % 3]));
    }
    const plain = simulate({ games: 6, bots: ['greedy', 'greedy', 'greedy'], seed: 'dup' });
    expect(plain.duplicate).toBe(false);
  });

  it('gives the same results for the same seed, and different ones for another seed', () => {
    const a = simulate({ games: 20, bots: ['greedy', 'random', 'random', 'random'], seed: 'same' });
    const b = simulate({ games: 20, bots: ['greedy', 'random', 'random', 'random'], seed: 'same' });
    const c = simulate({ games: 20, bots: ['greedy', 'random', 'random', 'random'], seed: 'other' });
    expect(stable(a)).toEqual(stable(b));
    expect(stable(a)).not.toEqual(stable(c));
  });

  it('reports one entry per bot in the order given, with consistent totals', () => {
    const r = simulate({ games: 12, bots: ['random', 'greedy', 'random'], seed: 's3' });
    expect(r.bots.map((b) => b.bot)).toEqual(['random', 'greedy', 'random']);
    const wins = r.bots.reduce((n, b) => n + b.wins, 0);
    expect(wins).toBe(r.wonGames);
    // Placements 1..3 per game: the average over seats is at most 2 (ties share the better place).
    const avgPlace = r.bots.reduce((n, b) => n + b.avgPlacement, 0) / 3;
    expect(avgPlace).toBeGreaterThanOrEqual(1);
    expect(avgPlace).toBeLessThanOrEqual(2);
    for (const b of r.bots) expect(b.winRate).toBeCloseTo(b.wins / 12, 4);
    expect(r.avgTurns).toBeGreaterThan(0);
    expect(r.avgTurns).toBeLessThanOrEqual(200);
  });

  it('rejects unknown bots and wrong seat counts with a clear error', () => {
    expect(() => simulate({ games: 1, bots: ['random', 'random'], seed: 'x' })).toThrow(SimulateError);
    expect(() => simulate({ games: 1, bots: ['random', 'random', 'smart'], seed: 'x' })).toThrow(/unknown bot "smart"/);
  });

  it('greedy places first in at least half of 1,000 seeded 4-seat games against three random bots', () => {
    const r = simulate({ games: 1000, bots: ['greedy', 'random', 'random', 'random'], seed: 'greedy-gate' });
    expect(r.bots[0].winRate).toBeGreaterThanOrEqual(0.5);
    expect(r.bots[0].avgPlacement).toBeLessThan(r.bots[1].avgPlacement);
  }, 120_000);
});

describe('arena simulate (CLI)', () => {
  it('prints the documented JSON object with --json', () => {
    const res = arena(['simulate', '--games', '8', '--bots', 'greedy,random,random,random', '--seed', '42', '--json']);
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(Object.keys(out).sort()).toEqual([
      'avgTurns',
      'bots',
      'ci',
      'decisions',
      'duplicate',
      'games',
      'gamesPerSecond',
      'headToHead',
      'interrupted',
      'seconds',
      'seed',
      'wonGames',
    ]);
    expect(out.games).toBe(8);
    expect(out.interrupted).toBe(false);
    expect(out.bots).toHaveLength(4);
    for (const b of out.bots)
      expect(Object.keys(b).sort()).toEqual([
        'avgPlacement',
        'avgPlacementCi95',
        'avgVp',
        'bot',
        'winRate',
        'winRateCi95',
        'wins',
      ]);
    // 95% intervals around each estimate, and every pair of seats head to head (a repeated bot named by its seat).
    for (const b of out.bots) {
      expect(b.avgPlacementCi95[0]).toBeLessThanOrEqual(b.avgPlacement);
      expect(b.avgPlacementCi95[1]).toBeGreaterThanOrEqual(b.avgPlacement);
    }
    expect(out.ci).toMatchObject({ confidence: 0.95, resamples: 1000 });
    expect(out.headToHead.map((h: { a: string; b: string }) => `${h.a}/${h.b}`)).toEqual([
      'greedy/random#2',
      'greedy/random#3',
      'greedy/random#4',
      'random#2/random#3',
      'random#2/random#4',
      'random#3/random#4',
    ]);
    expect(out.headToHead[0]).toMatchObject({ games: 8 });
    // Same seed, same numbers, from a separate process.
    const again = JSON.parse(
      arena(['simulate', '--games', '8', '--bots', 'greedy,random,random,random', '--seed', '42', '--json']).stdout,
    );
    expect(again.bots).toEqual(out.bots);
    expect(again.headToHead).toEqual(out.headToHead);
  });

  it('--duplicate rounds --games up to whole rotations and says so', () => {
    const res = arena(['simulate', '-n', '4', '-b', 'random,random,greedy', '-s', 't', '--duplicate', '--json']);
    expect(res.status).toBe(0);
    expect(res.stderr).toContain('--duplicate plays whole rotations of 3 games: 4 rounded up to 6');
    expect(JSON.parse(res.stdout)).toMatchObject({ games: 6, duplicate: true });
  });

  it('prints a readable table by default', () => {
    const res = arena(['simulate', '-n', '4', '-b', 'random,random,greedy', '-s', 't']);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/4 games · 3 seats · seed t/);
    expect(res.stdout).toMatch(/greedy\s+\d+\s+[\d.]+%/);
    expect(res.stdout).toMatch(/avg place \[95% CI\]\s+win rate \[95% CI\]/);
    expect(res.stdout).toMatch(/head to head: how often the first placed above the second/);
    expect(res.stdout).toMatch(/random#1 above random#2\s+\d+% \[\d+%, \d+%\] of 4 games/);
  });

  it('exits 2 on an empty or over-long --seed, as arena play does', () => {
    for (const seed of ['', 'x'.repeat(201)]) {
      const res = arena(['simulate', '-n', '2', '--seed', seed]);
      expect(res.status).toBe(2);
      expect(res.stderr).toMatch(/--seed must be 1 to 200 characters/);
      expect(res.stdout).toBe('');
    }
  });

  it('exits 2 with a message on a bad bot list', () => {
    const res = arena(['simulate', '--bots', 'random,nobody,random']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/unknown bot "nobody"/);
    expect(res.stdout).toBe('');
  });
});
