// `arena replay` given things that are not match records it can safely read:
// every case ends with one line on stderr naming the problem and exit 1,
// never a stack trace, a hang or an out-of-memory crash.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_LIMITS } from '../../src/arena/load';
import { FIXTURE_4P } from '../tui/helpers';
import { isRoot, makeHostilePaths, runCli, type CliRun, type HostilePaths } from '../tui/hostile-files';

let paths: HostilePaths;
const runs: Record<string, CliRun> = {};
let longName: string;

/** The fixture with one change, written as a file. */
function variant(name: string, change: (r: Record<string, any>) => void, text?: (json: string) => string): string {
  const record = JSON.parse(readFileSync(FIXTURE_4P, 'utf8')) as Record<string, any>;
  change(record);
  const path = join(paths.dir, name);
  const json = JSON.stringify(record);
  writeFileSync(path, text ? text(json) : json);
  return path;
}

beforeAll(async () => {
  paths = makeHostilePaths('arena-replay-bad-');
  const deep = variant(
    'deep.json',
    (r) => {
      r.replay[5].data.extra = 'DEEP';
    },
    (json) => json.replace('"DEEP"', '['.repeat(200_000) + ']'.repeat(200_000)),
  );
  const tooLong = variant('long-name.json', (r) => {
    r.players[0].botName = 'n'.repeat(RECORD_LIMITS.stringChars + 1);
  });
  longName = 'L'.repeat(RECORD_LIMITS.stringChars - 10);
  const longButAllowed = variant('allowed-name.json', (r) => {
    r.players[0].botName = longName;
  });
  const huge = paths.sparse('huge.json', RECORD_LIMITS.fileBytes + 1);
  const cases: Record<string, string[]> = {
    deep: ['replay', deep, '--plain'],
    tooLong: ['replay', tooLong, '--plain'],
    huge: ['replay', huge, '--plain'],
    devZero: ['replay', paths.devZero, '--plain'],
    fifo: ['replay', paths.fifo, '--plain'],
    loop: ['replay', paths.loop, '--plain'],
    longButAllowed: ['replay', longButAllowed, '--plain', '--width', '100'],
  };
  // One run first: bin/arena rebuilds a stale bundle, and an unprivileged run could not.
  runs.deep = await runCli(cases.deep);
  // Two at a time: the machine running the suite may be busy.
  const names = Object.keys(cases).filter((k) => k !== 'deep');
  for (let i = 0; i < names.length; i += 2) {
    const pair = names.slice(i, i + 2);
    const results = await Promise.all(pair.map((k) => runCli(cases[k])));
    pair.forEach((k, j) => (runs[k] = results[j]));
  }
  runs.unreadable = await runCli(['replay', paths.unreadable, '--plain'], { asNobody: true });
  runs.emptyStdin = await runCli(['replay', '-']);
}, 300_000);
afterAll(() => {
  rmSync(paths.dir, { recursive: true, force: true });
});

function refusedInOneLine(r: CliRun, pattern: RegExp): void {
  expect(r.signal, `killed: ${r.stderr}`).toBeNull();
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr.slice(0, 2000)).toHaveLength(1);
  expect(lines[0]).toMatch(/^arena: /);
  expect(lines[0]).not.toMatch(/unexpected error|RangeError| {4}at /);
  expect(lines[0]).toMatch(pattern);
  expect(lines[0].length).toBeLessThan(400);
}

describe('arena replay refuses what it cannot safely read', () => {
  it(`a file it may not read (EACCES${isRoot ? ', run as nobody since we are root' : ''})`, () => {
    refusedInOneLine(runs.unreadable, /unreadable\.json: permission denied/);
  });

  it('event data nested 200,000 levels deep', () => {
    refusedInOneLine(runs.deep, /replay\.5\.data.* nested more than 64 levels deep/);
  });

  it(`a file over the documented ${RECORD_LIMITS.fileBytes / 1024 / 1024} MiB limit (sparse, nothing written)`, () => {
    refusedInOneLine(runs.huge, /huge\.json is 64 MiB; match records are at most 64 MiB/);
  });

  it('a string longer than the limit (a giant bot name)', () => {
    refusedInOneLine(
      runs.tooLong,
      new RegExp(`players\\.0\\.botName holds a string of ${RECORD_LIMITS.stringChars + 1} characters`),
    );
  });

  it('/dev/zero, a FIFO with no writer (refused at once, no wait), a symlink loop', () => {
    refusedInOneLine(runs.devZero, /\/dev\/zero is a character device, not a regular file or a pipe/);
    refusedInOneLine(runs.fifo, /fifo\.json is a pipe with nothing written to it/);
    refusedInOneLine(runs.loop, /loop-a\.json: too many levels of symbolic links/);
  });

  it('- with nothing on stdin', () => {
    refusedInOneLine(runs.emptyStdin, /stdin is empty: pipe a match record into it/);
  });

  it('a long name within the limit is shown cut to fit, and the line still shows the VP', () => {
    const r = runs.longButAllowed;
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(100);
    const panel = lines.find((l) => l.includes('0 LLLL'))!;
    expect(panel).toMatch(/0 L+… {2}VP 0/);
  });
});
