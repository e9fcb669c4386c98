// `arena replay` as a user runs it: the real CLI in child processes (started
// together up front, so the suite waits for the slowest one, not the sum).
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
let runs: Record<'plain' | 'fallback' | 'json' | 'tampered' | 'pastEnd', Run>;

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

  const [plain, fallback, json, tampered, pastEnd] = await Promise.all([
    arena(['replay', FIXTURE_4P, '--plain', '--width', '100']),
    arena(['replay', out, '--turn', 'end']),
    arena(['replay', FIXTURE_4P, '--json', '--turn', '50']),
    arena(['replay', join(dir, 'tampered.json'), '--plain']),
    arena(['replay', FIXTURE_4P, '--turn', '9999']),
  ]);
  runs = { plain, fallback, json, tampered, pastEnd };
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

  it('--json gives the verified outcome and the state at a turn', () => {
    const r = runs.json;
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { verified: boolean; outcome: { vp: number[] }; at: { turn: number; kind: string; state: { roads: unknown[] } } };
    expect(doc.verified).toBe(true);
    expect(doc.outcome.vp).toEqual(readFixture(FIXTURE_4P).vp);
    expect(doc.at.turn).toBe(50);
    expect(doc.at.kind).toBe('roll');
    expect(doc.at.state.roads.length).toBeGreaterThan(0);
  });

  it('refuses a tampered record with exit 1, naming the event, printing nothing on stdout', () => {
    const r = runs.tampered;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`does not verify at event ${tamperedAt} (roll)`);
    expect(r.stdout).toBe('');
  });

  it('exits 2 for a --turn past the end, saying what to use', () => {
    expect(runs.pastEnd.code).toBe(2);
    expect(runs.pastEnd.stderr).toContain('use --turn end');
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
