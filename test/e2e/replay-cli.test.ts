// `arena replay` as a user runs it: the real CLI in child processes (started
// together up front, so the suite waits for the slowest one, not the sum).
// --json and --turn/--event parsing are tested on their libraries in start.test.ts.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main';
import { FIXTURE_4P, GOLDEN_DIR, REPO_ROOT, readFixture } from '../tui/helpers';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function arena(args: string[], input?: Buffer): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(REPO_ROOT, 'bin/arena'), ...args],
      { cwd: REPO_ROOT, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(input); // stdin is a pipe, not a terminal
  });
}

let dir: string;
let tamperedAt: number;
let endTurnAt: number;
let runs: Record<
  'plain' | 'fallback' | 'tampered' | 'atEndTurn' | 'afterEndTurn' | 'header' | 'headerJson' | 'stdin',
  Run
>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-tui-cli-'));
  const out = join(dir, 'matches');
  mkdirSync(out);
  copyFileSync(FIXTURE_4P, join(out, 'm-tui-fixture.json'));
  writeFileSync(join(out, 'summary.json'), '{}');
  const record = readFixture(FIXTURE_4P);
  tamperedAt = record.replay.findIndex((e) => e.kind === 'roll');
  (record.replay[tamperedAt].data as { dice: number[] }).dice = [6, 6];
  writeFileSync(join(dir, 'tampered.json'), JSON.stringify(record));

  // A record whose replay is untouched but whose header moves the winner down a place.
  const header = readFixture(FIXTURE_4P);
  const winner = header.players.find((p) => p.placement === 1)!;
  winner.placement = 2;
  writeFileSync(join(dir, 'header.json'), JSON.stringify(header));
  // An end of turn followed by the next seat's roll (1-based event numbers, as the CLI counts).
  endTurnAt =
    1 +
    record.replay.findIndex(
      (e, i) =>
        i > 100 &&
        e.kind === 'action' &&
        (e.data as { action: { type?: string } }).action.type === 'end_turn' &&
        record.replay[i + 1]?.kind === 'roll',
    );

  // The first run alone: bin/arena may rebuild its bundle, and two rebuilds at once could collide.
  const plain = await arena(['replay', FIXTURE_4P, '--plain', '--width', '100']);
  const [fallback, tampered, atEndTurn, afterEndTurn, headerRun, headerJson, stdin] = await Promise.all([
    arena(['replay', out, '--turn', 'end']),
    arena(['replay', join(dir, 'tampered.json'), '--plain']),
    arena(['replay', FIXTURE_4P, '--plain', '--event', String(endTurnAt)]),
    arena(['replay', FIXTURE_4P, '--plain', '--event', String(endTurnAt + 1)]),
    arena(['replay', join(dir, 'header.json'), '--plain']),
    arena(['replay', join(dir, 'header.json'), '--json']),
    arena(['replay', '-', '--turn', 'end'], readFileSync(FIXTURE_4P)),
  ]);
  runs = { plain, fallback, tampered, atEndTurn, afterEndTurn, header: headerRun, headerJson, stdin };
}, 180_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('arena replay', () => {
  it('--plain prints the start of the match, exactly the golden file', () => {
    const r = runs.plain;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(GOLDEN_DIR, 'match-4p-start.txt'), 'utf8'));
    expect(r.stdout).not.toMatch(/\x1b/);
  });

  it('without a terminal, falls back to --plain with a note; a directory opens its newest record', () => {
    const r = runs.fallback;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('not a terminal');
    expect(r.stdout).toBe(readFileSync(join(GOLDEN_DIR, 'match-4p-end.txt'), 'utf8'));
  });

  it('- reads the record from stdin (gunzip -c m.json.gz | arena replay -) and prints it as --plain would', () => {
    const r = runs.stdin;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(GOLDEN_DIR, 'match-4p-end.txt'), 'utf8'));
  });

  it('refuses a tampered record with exit 1, naming the event, printing nothing on stdout', () => {
    const r = runs.tampered;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`does not verify at event ${tamperedAt} (roll)`);
    expect(r.stdout).toBe('');
  });

  it('--event at an end of turn shows that seat still to play with its own dice; the next event shows the roll', () => {
    const record = readFixture(FIXTURE_4P);
    const ended = record.replay[endTurnAt - 1];
    const roll = record.replay[endTurnAt];
    const previousRoll = record.replay.slice(0, endTurnAt - 1).findLast((e) => e.kind === 'roll')!;
    const dice = (e: typeof roll) => {
      const [a, b] = (e.data as { dice: number[] }).dice;
      return `dice ${a}+${b}=${a + b}`;
    };
    const at = runs.atEndTurn.stdout.split('\n')[0];
    expect(runs.atEndTurn.code).toBe(0);
    expect(at).toContain(`seat ${ended.seat} to play`);
    expect(at).toContain(dice(previousRoll));
    // Nothing after the cursor in the log: the coming roll (the first event of the next turn) is not told yet.
    const nextTurn = record.replay.slice(0, endTurnAt).filter((e) => e.kind === 'roll').length + 1;
    const rollLine = new RegExp(`\\b${nextTurn} seat ${roll.seat} \\(\\w+\\) rolled`);
    expect(runs.atEndTurn.stdout).not.toMatch(rollLine);
    expect(runs.afterEndTurn.stdout).toMatch(rollLine);
    const next = runs.afterEndTurn.stdout.split('\n')[0];
    expect(next).toContain(`seat ${roll.seat} to play`);
    expect(next).toContain(dice(roll));
  });

  it('refuses a record whose header contradicts its replay, also for --json (never "verified")', () => {
    for (const r of [runs.header, runs.headerJson]) {
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^arena: match m-tui-fixture does not verify: the header gives seat \d placement 2, but the replay gives it placement 1\n$/,
      );
    }
  });

  it('an empty REF is a usage error that says what a REF is, not a missing file named ""', async () => {
    const r = await arena(['replay', '']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /REF is empty: give a match\.json file, a directory of records, - for stdin, or a match id/,
    );
  });

  it('--help teaches the keys and shows examples', () => {
    const help = buildProgram().commands.find((c) => c.name() === 'replay')!;
    let text = '';
    help.configureOutput({
      writeOut: (str) => {
        text += str;
      },
    });
    help.outputHelp();
    expect(text).toContain('Examples:');
    expect(text).toContain('space play/pause');
    expect(text).toContain('NO_COLOR');
  });
});
