import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../engine';
import { aboveScore, SequentialTest, verdictLine } from '../../src/arena/sequential';
import { verdictStats, type GameOutcome } from '../../src/arena/verdict';

/** Two bots, `groups` seed groups of `perGroup` games; A places above B with probability p in each game (no ties). */
function pairedGames(p: number, groups: number, perGroup: number, rng: () => number): GameOutcome[] {
  const out: GameOutcome[] = [];
  for (let g = 0; g < groups; g++) {
    for (let r = 0; r < perGroup; r++) {
      const aAbove = rng() < p;
      out.push({ group: `s${g}`, placements: aAbove ? [1, 2] : [2, 1], won: aAbove ? [true, false] : [false, true] });
    }
  }
  return out;
}

describe('verdictStats (bootstrap over seed groups)', () => {
  it('estimates per bot and per pair, with intervals around the estimate', () => {
    const games: GameOutcome[] = [
      { group: 'x', placements: [1, 2, 3], won: [true, false, false] },
      { group: 'x', placements: [2, 1, 3], won: [false, true, false] },
      { group: 'y', placements: [1, 3, null], won: [true, false, false] },
      { group: 'z', placements: [2, 2, 1], won: [false, false, false] },
    ];
    const v = verdictStats(games, 3, 'seed');
    expect(v.bots.map((b) => b.games)).toEqual([4, 4, 3]);
    expect(v.bots[0].meanPlacement!.value).toBe(1.5);
    expect(v.bots[0].winRate!.value).toBe(0.5);
    expect(v.bots[2].winRate!.value).toBe(0);
    // A above B: 1, 0, 1, tie (half) = 2.5 of 4.
    expect(v.pairs[0]).toMatchObject({ a: 0, b: 1, games: 4 });
    expect(v.pairs[0].aAbove!.value).toBe(0.625);
    for (const i of [...v.bots.flatMap((b) => [b.meanPlacement!, b.winRate!]), ...v.pairs.map((p) => p.aAbove!)]) {
      expect(i.low).toBeLessThanOrEqual(i.value);
      expect(i.high).toBeGreaterThanOrEqual(i.value);
    }
  });

  it('is deterministic for a seed and depends on it', () => {
    const games = pairedGames(0.6, 50, 2, seededRandom('t', 'games'));
    expect(verdictStats(games, 2, 'a')).toEqual(verdictStats(games, 2, 'a'));
    expect(verdictStats(games, 2, 'a').pairs[0].aAbove).not.toEqual(verdictStats(games, 2, 'b').pairs[0].aAbove);
  });

  it('gives no interval to a statistic without games', () => {
    const v = verdictStats([{ group: 'g', placements: [1, 2, null], won: [true, false, false] }], 3, 's');
    expect(v.bots[2]).toEqual({ games: 0, meanPlacement: null, winRate: null });
    expect(v.pairs.find((p) => p.a === 0 && p.b === 2)!.aAbove).toBeNull();
  });

  it('a share seen at 0% or 100% still gets an interval (Wilson over the seed groups), not [100%, 100%]', () => {
    const games: GameOutcome[] = [];
    for (let g = 0; g < 20; g++) games.push({ group: `g${g}`, placements: [1, 2], won: [true, false] });
    const v = verdictStats(games, 2, 's');
    // 20 of 20: Wilson's 95% interval is [0.839, 1].
    expect(v.bots[0].winRate).toEqual({ value: 1, low: 0.839, high: 1 });
    expect(v.bots[1].winRate).toEqual({ value: 0, low: 0, high: 0.161 });
    expect(v.pairs[0].aAbove).toEqual({ value: 1, low: 0.839, high: 1 });
    // Duplicate rotations of one seed are not independent: 4 games per group count as one trial.
    const rotated = games.flatMap((g) => [g, g, g, g]);
    expect(verdictStats(rotated, 2, 's').bots[0].winRate!.low).toBe(0.839);
  });

  it('resamples whole seed groups: games of one group never split', () => {
    // Every group holds one game A wins and one it loses: any resample of whole groups is exactly 50%.
    const games: GameOutcome[] = [];
    for (let g = 0; g < 30; g++) {
      games.push(
        { group: `g${g}`, placements: [1, 2], won: [true, false] },
        { group: `g${g}`, placements: [2, 1], won: [false, true] },
      );
    }
    expect(verdictStats(games, 2, 's').pairs[0].aAbove).toEqual({ value: 0.5, low: 0.5, high: 0.5 });
  });

  it('covers the true difference at a rate consistent with 95% (fast-check over simulated outcomes)', () => {
    const all = { covered: 0, trials: 0 };
    fc.assert(
      fc.property(
        fc.double({ min: 0.25, max: 0.75, noNaN: true }),
        fc.integer({ min: 40, max: 100 }),
        fc.integer({ min: 1, max: 4 }),
        fc.string(),
        (p, groups, perGroup, s) => {
          const rng = seededRandom(`coverage/${s}`, `${p}/${groups}`);
          const trials = 100;
          let covered = 0;
          for (let t = 0; t < trials; t++) {
            const ci = verdictStats(pairedGames(p, groups, perGroup, rng), 2, `${s}/${t}`, 400).pairs[0].aAbove!;
            if (ci.low <= p && p <= ci.high) covered++;
          }
          // 95 of 100 expected; 86 is about three standard deviations below it, so a miss means the interval is too
          // narrow.
          expect(covered).toBeGreaterThanOrEqual(86);
          all.covered += covered;
          all.trials += trials;
        },
      ),
      { seed: 28, numRuns: 6 },
    );
    // Over all runs together the rate is close to 95% (not a too-wide interval either).
    expect(all.covered / all.trials).toBeGreaterThan(0.92);
    expect(all.covered / all.trials).toBeLessThan(0.985);
  });
});

describe('SequentialTest (betting confidence sequence)', () => {
  it('keeps its false-decision rate under 5% over 1,000 runs of equal bots, looking after every group', () => {
    const rng = seededRandom('sequential', 'null');
    let decided = 0;
    for (let run = 0; run < 1000; run++) {
      const test = new SequentialTest();
      // Up to 400 looks; a group of 4 duplicate games scores 0, 1/4, ..., 1 (ties half), mean 1/2.
      for (let i = 0; i < 400 && test.decision === null; i++) {
        let score = 0;
        for (let g = 0; g < 4; g++) {
          const u = rng();
          score += u < 0.45 ? 1 : u < 0.9 ? 0 : 0.5;
        }
        test.add(score / 4);
      }
      if (test.decision !== null) decided++;
    }
    expect(decided).toBeLessThan(50);
  });

  it('decides, for the better bot, when one is clearly better', () => {
    const rng = seededRandom('sequential', 'alt');
    const a = new SequentialTest();
    for (let i = 0; i < 500 && a.decision === null; i++) a.add(rng() < 0.65 ? 1 : 0);
    expect(a.decision).toBe('a');
    expect(a.observations).toBeLessThan(300);
    const b = new SequentialTest();
    for (let i = 0; i < 500 && b.decision === null; i++) b.add(rng() < 0.35 ? 1 : 0);
    expect(b.decision).toBe('b');
  });

  it('refuses an observation outside [0, 1]', () => {
    expect(() => new SequentialTest().add(1.5)).toThrow(RangeError);
    expect(() => new SequentialTest().add(NaN)).toThrow(RangeError);
  });

  it('scores placements: above 1, below 0, a tie half, absent null', () => {
    expect([aboveScore(1, 2), aboveScore(3, 2), aboveScore(2, 2), aboveScore(null, 1)]).toEqual([1, 0, 0.5, null]);
  });

  it('prints the verdict in one line, decided or at the cap', () => {
    expect(
      verdictLine({ a: 'A', b: 'B', aAbove: 0.58, low: 0.55, high: 0.61, decided: true, games: 640, cap: 1000 }),
    ).toBe('A places above B in 58% ± 3% of games (decided after 640 games)');
    expect(
      verdictLine({ a: 'A', b: 'B', aAbove: 0.51, low: 0.47, high: 0.55, decided: false, games: 1000, cap: 1000 }),
    ).toBe('A places above B in 51% ± 4% of games (not decided after 1000 games, the cap; raise --games to go on)');
  });
});
