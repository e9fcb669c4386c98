// Duplicate play and --until-decided with built-in bots through the real runner (no sockets needed).
import { describe, expect, it } from 'vitest';
import { parseBotArgs } from '../../src/arena/bots';
import { drawDuplicateTables } from '../../src/arena/schedule';
import { gameSeed } from '../../src/arena/seeds';
import { runTournament } from '../../src/arena/tournament';
import type { TournamentSummary } from '../../src/arena/summary';
import { generateKeyPair } from '../../src/keys/index';

const { privateKey } = generateKeyPair();
const startedAt = new Date('2026-11-27T12:00:00Z');

/** Each game as (seed, seat -> bot, placements): what makes it the game it is. */
const gamesOf = (s: TournamentSummary) =>
  s.matches.map((m) => ({
    seed: m.seed,
    seats: [...m.players].sort((a, b) => a.seat - b.seat).map((p) => `${p.bot}:${p.placement}`),
  }));

describe('drawDuplicateTables', () => {
  it('rotates each drawn table through every seat, group by group', () => {
    const t = drawDuplicateTables(5, 4, 8, 'x');
    expect(t).toHaveLength(8);
    for (const g of [0, 4]) {
      const group = t.slice(g, g + 4);
      // Same bots in every game of the group, each once in every seat.
      for (const table of group) expect([...table].sort()).toEqual([...group[0]].sort());
      for (let seat = 0; seat < 4; seat++) expect(new Set(group.map((table) => table[seat])).size).toBe(4);
      group.forEach((table, r) => expect(table).toEqual(group[0].map((_, s) => group[0][(s + r) % 4])));
    }
    expect(() => drawDuplicateTables(5, 4, 6, 'x')).toThrow(/multiple of 4/);
  });
});

describe('runTournament --duplicate', () => {
  const bots = () => parseBotArgs(['g=builtin:greedy', 'r1=builtin:random', 'r2=builtin:random']);

  it('plays each seed once per seat rotation: the same set of games for any --concurrency', async () => {
    const one = await runTournament({
      bots: bots(),
      games: 6,
      seats: 3,
      seed: 'dup',
      concurrency: 1,
      duplicate: true,
      platformKey: privateKey,
      startedAt,
    });
    const three = await runTournament({
      bots: bots(),
      games: 6,
      seats: 3,
      seed: 'dup',
      concurrency: 3,
      duplicate: true,
      platformKey: privateKey,
      startedAt,
    });
    expect(gamesOf(three)).toEqual(gamesOf(one));
    expect(one.duplicate).toBe(true);
    // Two seeds (HMAC of the group number), three games each; every bot sits in every seat of each.
    expect(one.matches.map((m) => m.seed)).toEqual([1, 1, 1, 2, 2, 2].map((g) => gameSeed('dup', g)));
    for (const g of [0, 3]) {
      for (const bot of ['g', 'r1', 'r2']) {
        const seats = one.matches.slice(g, g + 3).map((m) => m.players.find((p) => p.bot === bot)!.seat);
        expect([...seats].sort()).toEqual([0, 1, 2]);
      }
    }
    // Intervals and the head-to-head table are in the summary, the same for both runs (seeded by the tournament seed).
    expect(three.headToHead).toEqual(one.headToHead);
    expect(one.headToHead.map((h) => `${h.a}/${h.b}`)).toEqual(['g/r1', 'g/r2', 'r1/r2']);
    expect(one.headToHead[0].games).toBe(6);
    const g = one.bots.find((b) => b.name === 'g')!;
    expect(g.avgPlacementCi95![0]).toBeLessThanOrEqual(g.avgPlacement!);
    expect(g.avgPlacementCi95![1]).toBeGreaterThanOrEqual(g.avgPlacement!);
    expect(one.ci).toMatchObject({ confidence: 0.95, resamples: 1000 });
    expect(one.verdict).toBeNull();
  });

  it('--until-decided stops once greedy is decided better than random, before the cap', async () => {
    const s = await runTournament({
      bots: bots(),
      games: 300,
      seats: 3,
      seed: 'decide',
      concurrency: 2,
      duplicate: true,
      untilDecided: true,
      platformKey: privateKey,
      startedAt,
    });
    expect(s.verdict).not.toBeNull();
    const v = s.verdict!;
    expect(v).toMatchObject({ a: 'g', b: 'r1', decided: true, better: 'g' });
    expect(v.games % 3).toBe(0);
    expect(v.games).toBeLessThan(300);
    // Games running when it decided finish and count; nothing new starts after it.
    expect(s.matches.length).toBeLessThanOrEqual(v.games + 2);
    expect(v.text).toMatch(
      new RegExp(`^g places above r1 in \\d+% ± \\d+% of games \\(decided after ${v.games} games\\)$`),
    );
  });

  it('--until-decided with equal bots plays to the cap and says it is not decided', async () => {
    const s = await runTournament({
      bots: parseBotArgs(['a=builtin:random', 'b=builtin:random', 'builtin:random']),
      games: 9,
      seats: 3,
      seed: 'equal',
      concurrency: 2,
      duplicate: true,
      untilDecided: true,
      platformKey: privateKey,
      startedAt,
    });
    expect(s.matches).toHaveLength(9);
    expect(s.verdict).toMatchObject({ a: 'a', b: 'b', decided: false, better: null, games: 9 });
    expect(s.verdict!.text).toMatch(
      /^a places above b in \d+% ± \d+% of games \(not decided after 9 games, the cap; raise --games to go on\)$/,
    );
  });
});
