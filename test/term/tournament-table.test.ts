import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBotArgs } from '../../src/arena/bots';
import { matchIdFactory, matchRecordText, writeJsonAtomic } from '../../src/arena/files';
import { generateKeyPair } from '../../src/keys/index';
import { runMatch } from '../../src/runner/index';
import { RatingBook } from '../../src/arena/ratings';
import { latencyPercentile, noStrikes, percentile, Tallies, type GameResult } from '../../src/arena/stats';
import { summarizeBots, type TournamentSummary } from '../../src/arena/summary';
import { createPlayProgress, gameLine, statusLine } from '../../src/term/play-progress';
import { formatTable } from '../../src/term/tournament-table';

const bots = parseBotArgs(['alice=builtin:random', 'bob=http://127.0.0.1:9000', 'carol=builtin:greedy']);

function game(
  index: number,
  status: 'completed' | 'aborted',
  placements: number[],
  extra: Partial<GameResult['seats'][number]>[] = [],
  ended: GameResult['ended'] = status === 'aborted' ? 'aborted' : 'win',
): GameResult {
  return {
    index,
    matchId: `m-${index}`,
    seed: `s/${index + 1}`,
    status,
    durationMs: 1234,
    ended,
    turns: status === 'aborted' ? null : 80,
    seats: bots.map((b, seat) => ({
      seat,
      botId: b.id,
      placement: status === 'completed' ? placements[seat] : null,
      vp: status === 'completed' ? 10 - placements[seat] * 2 : null,
      won: ended === 'win' && placements[seat] === 1,
      strikes: noStrikes(),
      resigned: false,
      latenciesMs: [],
      ...extra[seat],
    })),
  };
}

describe('tallies and the summary', () => {
  it('counts completed games only for placements, but strikes and latencies from every game', () => {
    const t = new Tallies(bots.map((b) => b.id));
    t.add(game(0, 'completed', [1, 2, 3], [{}, { strikes: { ...noStrikes(), late: 2 }, latenciesMs: [3, 5] }]));
    t.add(game(1, 'aborted', [], [{}, { strikes: { ...noStrikes(), illegal: 1 }, latenciesMs: [7] }]));
    const ratings = new RatingBook(bots.map((b) => b.id));
    ratings.applyMatch([
      { botId: 'alice', placement: 1 },
      { botId: 'bob', placement: 2 },
      { botId: 'carol', placement: 3 },
    ]);
    const rows = summarizeBots(bots, t, ratings, 5000);
    expect(rows.map((r) => r.name)).toEqual(['alice', 'bob', 'carol']); // best rating first
    const bob = rows[1];
    expect(bob).toMatchObject({
      games: 1,
      aborted: 1,
      wins: 0,
      avgPlacement: 2,
      avgVp: 6,
      source: 'http://127.0.0.1:9000',
    });
    expect(bob.strikes).toEqual({ late: 2, malformed: 0, oversize: 0, dropped: 0, illegal: 1 });
    // Five decisions asked: answered in 3, 5 and 7 ms, and two late (counted as the 5000 ms deadline).
    expect(bob.latencyMs).toEqual({ p50: 7, p95: 5000, late: 2 });
    expect(rows[0].latencyMs).toBeNull();
    expect(rows[0].slowestMs).toBeNull();
  });

  it('percentile is nearest-rank', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        95,
      ),
    ).toBe(95);
  });

  it('latency percentiles rank late decisions above every answer', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(latencyPercentile(hundred, 100, 0, 95)).toBe(95);
    // 100 answered + 10 late: p95 is rank 105 of 110, a late one; p50 is rank 55, an answer.
    expect(latencyPercentile(hundred, 100, 10, 95)).toBe('late');
    expect(latencyPercentile(hundred, 100, 10, 50)).toBe(55);
    expect(latencyPercentile([], 0, 3, 50)).toBe('late');
    expect(latencyPercentile([], 0, 0, 50)).toBeNull();
    // With a reservoir sample, the rank is scaled to the sample held.
    const sample = Array.from({ length: 10 }, (_, i) => (i + 1) * 10);
    expect(latencyPercentile(sample, 100, 0, 50)).toBe(50);
  });

  it('the table shows every column users rely on', () => {
    const t = new Tallies(bots.map((b) => b.id));
    t.add(
      game(
        0,
        'completed',
        [1, 2, 3],
        [{}, { strikes: { ...noStrikes(), late: 2 }, resigned: true, latenciesMs: [12, 40], slowestMs: 5000 }],
      ),
    );
    const ratings = new RatingBook(bots.map((b) => b.id));
    const summary = {
      bots: summarizeBots(bots, t, ratings, 5000),
      deadlineMs: 5000,
      games: 1,
      gamesPlanned: 2,
      aborted: 1,
      interrupted: true,
      seed: 'x',
    } as TournamentSummary;
    const text = formatTable(summary);
    const [group, header, ...rest] = text.split('\n');
    expect(group.trim()).toMatch(/^─+ strikes ─+$/);
    expect(header).toMatch(
      /^bot\s+games\s+wins\s+avg place\s+avg VP\s+rating\s+sigma\s+late\s+malformed\s+oversize\s+dropped\s+illegal\s+resigned\s+latency p50\/p95\s+slowest$/,
    );
    const bob = rest.find((l) => l.startsWith('bob'))!;
    // late 2, no other strike, resigned once.
    expect(bob).toMatch(/\s2\s+-\s+-\s+-\s+-\s+1\s/);
    // Four decisions: 12 and 40 ms answers and two late ones, so p95 is late.
    expect(bob).toContain('40 ms / late');
    // The slowest decision (here a late one, charged the full deadline).
    expect(bob).toMatch(/ 5000 ms$/);
    expect(text).toContain('1 of 2 games completed, 1 aborted, interrupted, seed x');
    expect(text).toMatch(/no answer within 5000 ms/);
    const onTime = new Tallies(bots.map((b) => b.id));
    onTime.add(game(0, 'completed', [1, 2, 3], [{}, { latenciesMs: [12, 40] }]));
    const plain = formatTable({ ...summary, bots: summarizeBots(bots, onTime, ratings, 5000) });
    expect(plain.split('\n').find((l) => l.startsWith('bob'))).toContain('12 / 40 ms');
    expect(plain).not.toMatch(/no answer within/);
  });
});

describe('progress', () => {
  it('prints one plain line per game when stderr is not a terminal', () => {
    const lines: string[] = [];
    const p = createPlayProgress({ write: (s: string) => lines.push(s), isTTY: false }, bots);
    const t = new Tallies(bots.map((b) => b.id));
    const g = game(0, 'completed', [2, 1, 3], [{}, {}, { strikes: { ...noStrikes(), dropped: 1 } }]);
    t.add(g);
    p.gameDone(g, { done: 1, planned: 4, tallies: t });
    expect(lines).toEqual([
      'game 1/4 m-0 (1.2s): bob won with 8 VP; 2nd alice 6 VP, 3rd carol 4 VP; strikes: carol dropped 1\n',
    ]);
  });

  it('says when the turn cap ended a game, so a leader at the cap never reads as a winner', () => {
    const t = new Tallies(bots.map((b) => b.id));
    const capped = game(0, 'completed', [1, 2, 2], [], 'cap');
    capped.turns = 200;
    t.add(capped);
    expect(t.get('alice').wins).toBe(0);
    const line = gameLine(capped, { done: 1, planned: 3, tallies: t }, new Map());
    expect(line).toBe(
      'game 1/3 m-0 (1.2s): turn cap after 200 turns, no winner; by VP: 1st alice 8 VP, 2nd bob 6 VP, 2nd carol 6 VP',
    );
    expect(line).not.toMatch(/won/);
  });

  it('numbers each line by its game number (as its match id and file are), not by completion order', () => {
    const t = new Tallies(bots.map((b) => b.id));
    const third = { ...game(2, 'completed', [1, 2, 3]), matchId: 'm-x-0003' };
    t.add(third);
    // Game 3 finished first.
    expect(gameLine(third, { done: 1, planned: 3, tallies: t }, new Map())).toMatch(/^game 3\/3 m-x-0003 /);
  });

  it('redraws one status line on a terminal and clears it at the end', () => {
    const out: string[] = [];
    const p = createPlayProgress({ write: (s: string) => out.push(s), isTTY: true, columns: 200 }, bots);
    const t = new Tallies(bots.map((b) => b.id));
    const g = game(0, 'completed', [1, 2, 3], [{}, { strikes: { ...noStrikes(), late: 1 } }]);
    t.add(g);
    p.gameDone(g, { done: 1, planned: 3, tallies: t });
    p.finish();
    expect(out[0]).toBe('\r\x1b[2Kgames 1/3 | wins: alice 1, bob 0, carol 0 | strikes: bob 1');
    expect(out[1]).toBe('\r\x1b[2K');
    expect(statusLine(bots, { done: 1, planned: 3, tallies: t })).not.toContain('\n');
    expect(gameLine(game(1, 'aborted', []), { done: 2, planned: 3, tallies: t }, new Map())).toMatch(/: aborted$/);
  });
});

describe('result files', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('writes JSON atomically, leaving no temp files behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-files-'));
    dirs.push(dir);
    await writeJsonAtomic(join(dir, 'sub', 'a.json'), { a: 1 });
    await writeJsonAtomic(join(dir, 'sub', 'a.json'), { a: 2 });
    expect(readdirSync(join(dir, 'sub'))).toEqual(['a.json']);
    expect(JSON.parse(readFileSync(join(dir, 'sub', 'a.json'), 'utf8'))).toEqual({ a: 2 });
  });

  it('a match file: the record exactly, its fields indented, one replay event per line, about half the fully indented size', async () => {
    const r = await runMatch({
      matchId: 'm-files',
      seed: 'files',
      entrants: [0, 1, 2, 3].map((i) => ({
        botId: `b${i}`,
        botName: i === 0 ? '"quoted" $& name' : `b${i}`,
        source: { type: 'builtin' as const, bot: 'random' as const },
      })),
      platformKey: generateKeyPair().privateKey,
    });
    const record = r.match;
    const text = matchRecordText(record);
    expect(JSON.parse(text)).toEqual(record);
    // Same keys in the same order as the record.
    expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(record));
    const lines = text.split('\n');
    const first = lines.indexOf('  "replay": [');
    expect(
      lines.slice(first + 1, first + 1 + record.replay.length).map((l) => JSON.parse(l.replace(/,$/, ''))),
    ).toEqual(record.replay);
    expect(lines[first + 1 + record.replay.length]).toBe('  ],');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.length).toBeLessThan((JSON.stringify(record, null, 2).length * 2) / 3);
    expect(JSON.parse(matchRecordText({ ...record, replay: [] })).replay).toEqual([]);
  });

  it('match ids sort by start time, then by game number', () => {
    const early = matchIdFactory(new Date('2026-11-22T00:15:30Z'), 'zzzz');
    const late = matchIdFactory(new Date('2026-11-22T00:15:31Z'), 'aaaa');
    expect(early(7)).toBe('m-20261122001530-zzzz-0007');
    const ids = [late(1), early(10), early(2)];
    expect([...ids].sort()).toEqual([early(2), early(10), late(1)]);
  });
});

describe('live progress on a terminal', () => {
  it('shows the turn each running match has reached', () => {
    const out: string[] = [];
    const p = createPlayProgress({ write: (s: string) => out.push(s), isTTY: true, columns: 200 }, bots, {
      redrawMs: 0,
      planned: 5,
    });
    p.matchEvent('m-1', { kind: 'start' });
    p.matchEvent('m-1', { kind: 'roll' });
    p.matchEvent('m-1', { kind: 'roll' });
    p.matchEvent('m-2', { kind: 'roll' });
    expect(out.at(-1)).toBe('\r\x1b[2Kgames 0/5 | playing: turn 2, turn 1');
    p.note('interrupted');
    expect(out.at(-2)).toBe('\r\x1b[2K'); // the live line is cleared before a note
    expect(out.at(-1)).toBe('interrupted\n');
  });

  it('prints no live lines when stderr is not a terminal', () => {
    const out: string[] = [];
    const p = createPlayProgress({ write: (s: string) => out.push(s), isTTY: false }, bots, { redrawMs: 0 });
    p.matchEvent('m-1', { kind: 'roll' });
    expect(out).toEqual([]);
  });
});

describe('latency sampling', () => {
  it('keeps every sample up to the cap, then a uniform sample whose percentiles stay close', () => {
    const t = new Tallies(['alice', 'bob', 'carol'], 1000);
    const many = Array.from({ length: 20_000 }, (_, i) => i % 100); // uniform 0..99
    t.add(game(0, 'aborted', [], [{ latenciesMs: many }, { latenciesMs: [1, 2, 3] }]));
    expect(t.get('bob').latenciesMs).toEqual([1, 2, 3]);
    const alice = t.get('alice');
    expect(alice.latencyCount).toBe(20_000);
    expect(alice.latenciesMs).toHaveLength(1000);
    expect(Math.abs(percentile(alice.latenciesMs, 50)! - 50)).toBeLessThanOrEqual(6);
    expect(Math.abs(percentile(alice.latenciesMs, 95)! - 95)).toBeLessThanOrEqual(3);
  });
});
