// `arena play --duplicate --until-decided` in-process: the verdict line, the intervals and the JSON shape.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/run-cli';

const home = mkdtempSync(join(tmpdir(), 'arena-verdict-cli-'));
const env = { ARENA_CONFIG_DIR: join(home, 'config') };
afterAll(() => rmSync(home, { recursive: true, force: true }));

const bots = ['g=builtin:greedy', 'r=builtin:random', 'builtin:random'];

describe('arena play --duplicate --until-decided', () => {
  it('prints the intervals, the head-to-head table and the one-line verdict', async () => {
    const r = await runCli(
      ['play', ...bots, '--duplicate', '--until-decided', '--games', '200', '--seed', 'v', '--concurrency', '1'],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('up to 201 games (67 seeds x 3 seat rotations)');
    expect(r.stderr).toContain('--duplicate plays whole rotations of 3 games: 200 rounded up to 201');
    expect(r.stdout).toMatch(/bot\s+avg place \[95% CI\]\s+win rate \[95% CI\]/);
    expect(r.stdout).toMatch(/^g\s+\d\.\d\d \[\d\.\d\d, \d\.\d\d\]\s+\d+% \[\d+%, \d+%\]$/m);
    expect(r.stdout).toMatch(/^ {2}g above r\s+\d+% \[\d+%, \d+%\] of \d+ games$/m);
    expect(r.stdout).toMatch(/^g places above r in \d+% ± \d+% of games \(decided after \d+ games\)$/m);
  });

  it('--json carries the intervals, the head-to-head table and the verdict', async () => {
    const r = await runCli(
      [
        'play',
        ...bots,
        '--duplicate',
        '--until-decided',
        '--games',
        '200',
        '--seed',
        'v',
        '--concurrency',
        '1',
        '--json',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ duplicate: true, gamesPlanned: 201, ci: { confidence: 0.95, resamples: 1000 } });
    expect(doc.ci.method).toMatch(/bootstrap over seed groups/);
    for (const b of doc.bots) {
      expect(b.avgPlacementCi95).toHaveLength(2);
      expect(b.winRateCi95).toHaveLength(2);
    }
    expect(Object.keys(doc.headToHead[0]).sort()).toEqual(['a', 'aAbove', 'b', 'ci95', 'games']);
    expect(Object.keys(doc.verdict).sort()).toEqual([
      'a',
      'aAbove',
      'b',
      'better',
      'ci95',
      'decided',
      'games',
      'test',
      'text',
    ]);
    expect(doc.verdict).toMatchObject({ a: 'g', b: 'r', decided: true, better: 'g' });
    expect(doc.verdict.test).toMatch(/betting confidence sequence/);
    // With one game at a time nothing runs past the decision.
    expect(doc.matches).toHaveLength(doc.verdict.games);
    // Every seed appears once per rotation.
    const seeds = new Map<string, number>();
    for (const m of doc.matches) seeds.set(m.seed, (seeds.get(m.seed) ?? 0) + 1);
    expect([...seeds.values()].every((n) => n === 3)).toBe(true);
  });

  it('refuses --until-decided with fewer than two bots named', async () => {
    const r = await runCli(['play', 'builtin:greedy', '--until-decided'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--until-decided compares the first two bots given');
  });
});
