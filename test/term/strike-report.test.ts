// "Why did my bot get a strike?": a real misbehaving bot over a real socket in a
// real tournament. Each strike reaches the owner as it happens (seat, turn,
// kind, reason, why, the first 200 bytes of the answer); the results table and
// the summary count strikes per reason; the match file keeps each strike's
// reason and rejection code, and never the answer; the public form of the
// replay drops code and message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicEvent } from '../../engine';
import type { GameEvent } from '../../engine/types';
import { generateKeyPair } from '../../src/keys/index';
import { MatchRecordSchema } from '../../src/protocol/index';
import { runTournament, type TournamentStrike } from '../../src/arena/tournament';
import type { TournamentSummary } from '../../src/arena/summary';
import { formatTable } from '../../src/term/tournament-table';
import { strikeReport } from '../../src/term/strike-report';
import { visible, visibleLines } from '../../src/text/visible';
import { legalPlayer, illegalAction } from '../support/policies';
import { answer, startTestBot, type TestBot } from '../support/test-bot';
import { runCli } from '../support/run-cli';

const NOT_JSON = '{"id": oops \u001b[31mred';

/** Breaks the protocol three ways on its first three decisions (so it resigns), else plays legally. */
function threeWaysWrong() {
  const play = legalPlayer();
  return (ctx: Parameters<Parameters<typeof startTestBot>[0]['behaviour']>[0]) => {
    const { request } = ctx;
    if (ctx.index === 0) return answer(ctx, illegalAction(request.kind, request.view));
    // Not JSON, with a terminal escape sequence in it.
    if (ctx.index === 1) return void ctx.socket.send(NOT_JSON);
    if (ctx.index === 2)
      return void ctx.socket.send(
        JSON.stringify({ id: request.id, action: { type: 'end_turn' }, padding: 'P'.repeat(70_000) }),
      );
    answer(ctx, play(request.view, request.kind, request.matchId));
  };
}

let dir: string;
let bot: TestBot;
const strikes: TournamentStrike[] = [];
let summary: TournamentSummary;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-strikes-'));
  bot = await startTestBot({ behaviour: threeWaysWrong() });
  summary = await runTournament({
    bots: [
      { id: 'bad', name: 'bad', source: { type: 'ws', url: bot.url } },
      { id: 'r1', name: 'r1', source: { type: 'builtin', bot: 'random' } },
      { id: 'r2', name: 'r2', source: { type: 'builtin', bot: 'random' } },
    ],
    games: 1,
    seats: 3,
    seed: 'strikes',
    platformKey: generateKeyPair().privateKey,
    outDir: dir,
    onStrike: (s) => strikes.push(s),
  });
});

afterAll(async () => {
  await bot?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('strikes in a tournament', () => {
  it('reach the owner as they happen: game, seat, turn, kind, reason, why and the answer', () => {
    expect(strikes.map((s) => s.strike.reason)).toEqual(['illegal', 'malformed', 'oversize']);
    expect(strikes.map((s) => s.strike.strikes)).toEqual([1, 2, 3]);
    const seat = bot.frames[0].seat;
    for (const s of strikes) {
      expect(s).toMatchObject({ game: 1, matchId: summary.matches[0].id, botId: 'bad', botName: 'bad' });
      expect(s.strike.seat).toBe(seat);
      expect(s.strike.turn).toBe(bot.frames[s.strike.strikes - 1].view.turn);
      expect(s.strike.kind).toBe(bot.frames[s.strike.strikes - 1].kind);
      expect(s.strike.decisionId).toBe(bot.frames[s.strike.strikes - 1].id);
    }
    const [illegal, malformed, oversize] = strikes.map((s) => s.strike);
    // The engine's rejection code, and the frame exactly as sent.
    expect(illegal.code).toMatch(/^[a-z_]+$/);
    expect(illegal.detail.startsWith(`${illegal.code}: `)).toBe(true);
    const sent = JSON.stringify({
      id: bot.frames[0].id,
      action: illegalAction(bot.frames[0].kind, bot.frames[0].view),
    });
    expect(illegal.answer).toBe(sent.slice(0, 200));
    expect(illegal.answerBytes).toBe(Buffer.byteLength(sent));
    expect(malformed.code).toBeUndefined();
    expect(malformed.answer).toBe(NOT_JSON);
    // Only the first 200 bytes of a 70 KB frame are kept.
    expect(oversize.answer).toHaveLength(200);
    expect(oversize.answer!.startsWith(`{"id":${bot.frames[2].id},`)).toBe(true);
    expect(oversize.answerBytes).toBeGreaterThan(70_000);
  });

  it('print as a report with control characters escaped and long answers marked as cut', () => {
    const [illegal, malformed, oversize] = strikes.map(strikeReport);
    const turn = strikes[0].strike.turn === 0 ? 'setup' : `turn ${strikes[0].strike.turn}`;
    expect(illegal.split('\n')[0]).toBe(
      `strike: game 1 ${summary.matches[0].id}, ${turn}, seat ${strikes[0].strike.seat} bad: illegal on a ${strikes[0].strike.kind} decision (strike 1 of 3)`,
    );
    expect(illegal).toContain(`\n  why: ${strikes[0].strike.code}: `);
    expect(illegal).toContain(`\n  answer (${strikes[0].strike.answerBytes} bytes): {"id":`);
    expect(malformed).not.toMatch(/\u001b/);
    expect(malformed).toContain(`answer (${Buffer.byteLength(NOT_JSON)} bytes): {"id": oops \\u001b[31mred`);
    expect(oversize).toMatch(/\(strike 3 of 3: resigned\)/);
    expect(oversize).toMatch(
      /answer \(first 200 of \d{5} bytes\): \{"id":\d+,"action":\{"type":"end_turn"\},"padding":"PPP/,
    );
    expect(visible('a\u009bb\u0007')).toBe('a\\u009bb\\u0007');
    expect(visible('a\u202eb\u2069')).toBe('a\\u202eb\\u2069');
    // Multi-line messages keep their tabs and line breaks, and nothing else.
    expect(visibleLines('a\tb\nc\rd\u001be\u202ef')).toBe('a\tb\nc\\u000dd\\u001be\\u202ef');
  });

  it('are counted per reason in the summary, the per-match players and the table', () => {
    const bad = summary.bots.find((b) => b.name === 'bad')!;
    expect(bad.strikes).toEqual({ late: 0, malformed: 1, oversize: 1, dropped: 0, illegal: 1 });
    expect(bad.resigned).toBe(1);
    const players = summary.matches[0].players;
    expect(players.find((p) => p.bot === 'bad')!.strikes).toEqual(bad.strikes);
    // Players with no strikes carry no strikes key.
    for (const p of players.filter((x) => x.bot !== 'bad')) expect(p).not.toHaveProperty('strikes');

    const lines = formatTable(summary).split('\n');
    const header = lines[1].split(/\s{2,}/);
    expect(header).toEqual([
      'bot',
      'games',
      'wins',
      'avg place',
      'avg VP',
      'rating',
      'sigma',
      'late',
      'malformed',
      'oversize',
      'dropped',
      'illegal',
      'resigned',
      'latency p50/p95',
      'slowest',
    ]);
    // "strikes" stands over the five reason columns.
    expect(lines[0].indexOf('─')).toBe(lines[1].indexOf('late'));
    expect(lines[0].lastIndexOf('─')).toBe(lines[1].indexOf('illegal') + 'illegal'.length - 1);
    const row = (name: string) =>
      lines
        .find((l) => l.startsWith(`${name} `))!
        .trim()
        .split(/\s{2,}/);
    // Reason columns right-aligned under their headers; '-' for none.
    expect(row('bad').slice(7, 13)).toEqual(['-', '1', '1', '-', '1', '1']);
    expect(row('r1').slice(7, 13)).toEqual(['-', '-', '-', '-', '-', '-']);
    expect(lines.join('\n')).toContain('arena play --verbose');
  });

  it('are kept in the match file with reason and rejection code, never the answer; the public form drops code and message', () => {
    const file = readdirSync(dir).find((f) => f.startsWith('m-'))!;
    const text = readFileSync(join(dir, file), 'utf8');
    const record = MatchRecordSchema.parse(JSON.parse(text));
    const timeouts = record.replay.filter((e) => e.kind === 'timeout') as Extract<GameEvent, { kind: 'timeout' }>[];
    expect(timeouts.map((e) => [e.seat, e.data.reason, e.data.strikes, e.data.code])).toEqual(
      strikes.map((s) => [s.strike.seat, s.strike.reason, s.strike.strikes, s.strike.code]),
    );
    expect(timeouts[0].data.message).toBe(strikes[0].strike.detail);
    expect(record.replay.some((e) => e.kind === 'resign' && e.seat === strikes[0].strike.seat)).toBe(true);
    // The answers themselves stay with the owner (a malformed strike's message quotes at most 40 characters).
    expect(text).not.toContain('PPPPPPPP');
    for (const ev of timeouts)
      expect(Object.keys(publicEvent(ev).data).sort()).toEqual(['decision', 'reason', 'strikes']);
  });
});

describe('arena play --verbose', () => {
  let cfg: string;
  beforeAll(() => {
    cfg = mkdtempSync(join(tmpdir(), 'arena-verbose-'));
  });
  afterAll(() => rmSync(cfg, { recursive: true, force: true }));

  it('prints each strike on stderr as it happens; without it, none; --json stays clean', async () => {
    // One bot per run: each misbehaves on its first three decisions.
    const liar = await startTestBot({ behaviour: threeWaysWrong() });
    const liar2 = await startTestBot({ behaviour: threeWaysWrong() });
    try {
      const args = ['play', `liar=${liar.url}`, 'builtin:random', 'builtin:random', '--games', '1', '--seed', 'v'];
      const env = { ARENA_CONFIG_DIR: cfg };
      const verbose = await runCli([...args, '--verbose', '--json'], { env });
      expect(verbose.code, verbose.stderr).toBe(0);
      const reports = verbose.stderr.split('\n').filter((l) => l.startsWith('strike: '));
      expect(reports).toHaveLength(3);
      expect(reports[0]).toMatch(
        /^strike: game 1 m-\S+-0001, (setup|turn \d+), seat \d liar: illegal on a [a-z]+ decision \(strike 1 of 3\)$/,
      );
      expect(verbose.stderr).toMatch(/\n {2}why: [a-z_]+: .+\n {2}answer \(\d+ bytes\): \{"id":\d+,"action":/);
      expect(verbose.stderr).toContain('\\u001b[31m');
      expect(verbose.stderr).not.toContain('\u001b[31m');
      // Strikes come before the game's own line (as they happen, not at the end).
      expect(verbose.stderr.indexOf('strike: game 1')).toBeLessThan(verbose.stderr.indexOf('game 1/1 '));
      const doc = JSON.parse(verbose.stdout) as TournamentSummary;
      expect(doc.bots.find((b) => b.name === 'liar')!.strikes).toEqual({
        late: 0,
        malformed: 1,
        oversize: 1,
        dropped: 0,
        illegal: 1,
      });
      expect(doc.matches[0].players.find((p) => p.bot === 'liar')!.strikes).toMatchObject({ illegal: 1 });

      const quiet = await runCli([...args.slice(0, 1), `liar=${liar2.url}`, ...args.slice(2)], { env });
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).not.toMatch(/^strike: /m);
      expect(quiet.stdout).toMatch(/^liar\s.*\s1\s+1\s+-\s+1\s+1\s/m);
    } finally {
      await Promise.all([liar.close(), liar2.close()]);
    }
  });
});
