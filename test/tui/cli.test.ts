// `arena replay` as a user runs it: the real CLI in child processes (started
// together up front, so the suite waits for the slowest one, not the sum).
// --json and --turn/--event parsing are tested on their libraries in start.test.ts.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main';
import { FIXTURE_4P, GOLDEN_DIR, REPO_ROOT, readFixture } from './helpers';

interface Run { code: number; stdout: string; stderr: string }

function arena(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [join(REPO_ROOT, 'bin/arena'), ...args], { cwd: REPO_ROOT, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
    child.stdin?.end(); // stdin is a pipe, not a terminal
  });
}

let dir: string;
let tamperedAt: number;
let runs: Record<'plain' | 'fallback' | 'tampered', Run>;

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

  // The first run alone: bin/arena may rebuild its bundle, and two rebuilds at once could collide.
  const plain = await arena(['replay', FIXTURE_4P, '--plain', '--width', '100']);
  const [fallback, tampered] = await Promise.all([
    arena(['replay', out, '--turn', 'end']),
    arena(['replay', join(dir, 'tampered.json'), '--plain']),
  ]);
  runs = { plain, fallback, tampered };
}, 60_000);
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

  it('refuses a tampered record with exit 1, naming the event, printing nothing on stdout', () => {
    const r = runs.tampered;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`does not verify at event ${tamperedAt} (roll)`);
    expect(r.stdout).toBe('');
  });

  it('--help teaches the keys and shows examples', () => {
    const help = buildProgram().commands.find((c) => c.name() === 'replay')!;
    let text = '';
    help.configureOutput({ writeOut: (str) => { text += str; } });
    help.outputHelp();
    expect(text).toContain('Examples:');
    expect(text).toContain('space play/pause');
    expect(text).toContain('NO_COLOR');
  });
});
