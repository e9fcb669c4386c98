// `arena replay bad.json`: a file that is JSON but not a match record is
// refused with what it lacks, in words, not a raw schema path
// ("id: Invalid input: expected string, received undefined").
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecord, RecordLoadError } from '../../src/arena/load';
import { runCli } from '../support/run-cli';
import { FIXTURE_4P } from '../tui/helpers';

const dir = mkdtempSync(join(tmpdir(), 'arena-record-issue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture record with one change, as text. */
function variant(change: (r: Record<string, any>) => unknown): string {
  const record = JSON.parse(readFileSync(FIXTURE_4P, 'utf8')) as Record<string, any>;
  const replaced = change(record);
  return JSON.stringify(replaced ?? record);
}

async function refusal(text: string): Promise<string> {
  const err = await parseRecord(text, 'bad.json').then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RecordLoadError);
  expect((err as RecordLoadError).code).toBe('not_a_record');
  return (err as RecordLoadError).message;
}

describe('a record that fails its schema, in words', () => {
  it('arena replay bad.json names the missing field and exits 1', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(
      path,
      variant((r) => void delete r.id),
    );
    const r = await runCli(['replay', path, '--plain'], {
      env: { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config') },
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`arena: ${path} is not a match record: it has no "id" (text expected)\n`);
    expect(r.stderr).not.toMatch(/Invalid input|received undefined/);
  });

  it('says which part of the file: a player, a replay event, a field inside one', async () => {
    expect(await refusal(variant((r) => void delete r.players[0].placement))).toBe(
      'bad.json is not a match record: player 0 has no "placement" (a number expected)',
    );
    expect(await refusal(variant((r) => void delete r.replay[3].kind))).toMatch(
      /^bad\.json is not a match record: replay event 3 has no "kind" \(one of start, action, roll, /,
    );
    expect(await refusal(variant((r) => void (r.replay[3].data = { x: 1 })))).toBe(
      'bad.json is not a match record: replay event 3, "data" has no "what" (one of road, settlement, city)',
    );
  });

  it('says what a wrong value is and what was expected', async () => {
    expect(await refusal(variant((r) => void (r.id = 5)))).toBe(
      'bad.json is not a match record: "id" is 5, where text is expected',
    );
    expect(await refusal(variant((r) => void (r.status = 'weird')))).toBe(
      'bad.json is not a match record: "status" is "weird", not one of running, completed, aborted',
    );
    expect(await refusal(variant((r) => void (r.players[0].seat = 99)))).toBe(
      'bad.json is not a match record: player 0, "seat" is 99; at most 3 expected',
    );
    expect(await refusal(variant((r) => void (r.players = [])))).toBe(
      'bad.json is not a match record: "players" has 0 items; at least 3 expected',
    );
    expect(await refusal(variant((r) => void (r.extra = 1)))).toBe(
      'bad.json is not a match record: it has a field a match record does not have: "extra"',
    );
    expect(await refusal(variant(() => [1]))).toBe(
      'bad.json is not a match record: the record is a list, where an object is expected',
    );
  });

  it('shows a hostile value escaped, never raw', async () => {
    const message = await refusal(variant((r) => void (r.status = 'x\u001b[2Jy')));
    expect(message).not.toContain('\u001b');
  });
});
