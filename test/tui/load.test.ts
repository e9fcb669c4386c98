// The loader and verifier: what a user gets for each kind of bad input.
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRecord, RecordLoadError, type RecordSource } from '../../src/tui/load';
import { buildTimeline, ReplayVerifyError } from '../../src/tui/timeline';
import { FIXTURE_4P, FIXTURE_TALK, readFixture } from './helpers';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-tui-load-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function loadError(ref: string): Promise<RecordLoadError> {
  const err = await loadRecord(ref).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(RecordLoadError);
  return err as RecordLoadError;
}

describe('loadRecord', () => {
  it('reads a record file', async () => {
    const { record, origin } = await loadRecord(FIXTURE_4P);
    expect(origin).toBe(FIXTURE_4P);
    expect(record.id).toBe('m-tui-fixture');
    expect(record.seatCount).toBe(4);
  });

  it('opens the newest record in a directory, skipping summary.json', async () => {
    copyFileSync(FIXTURE_4P, join(dir, 'm-old.json'));
    copyFileSync(FIXTURE_TALK, join(dir, 'm-new.json'));
    writeFileSync(join(dir, 'summary.json'), '{"not": "a record"}');
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    utimesSync(join(dir, 'm-old.json'), new Date(1_000_000), new Date(1_000_000));
    utimesSync(join(dir, 'm-new.json'), new Date(2_000_000), new Date(2_000_000));
    utimesSync(join(dir, 'summary.json'), new Date(3_000_000), new Date(3_000_000));
    const { record, origin } = await loadRecord(dir);
    expect(record.id).toBe('m-tui-talk');
    expect(origin).toBe(join(dir, 'm-new.json'));
  });

  it('says a directory without records has none and how to make one', async () => {
    writeFileSync(join(dir, 'summary.json'), '{}');
    const err = await loadError(dir);
    expect(err.code).toBe('empty_dir');
    expect(err.message).toContain('arena play --out');
  });

  it('says a missing file is missing', async () => {
    const err = await loadError(join(dir, 'nope.json'));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('no such file');
  });

  it('says a match id needs the service', async () => {
    const err = await loadError('m-20260101-abcd-0001');
    expect(err.code).toBe('needs_server');
    expect(err.message).toMatch(/comes with the service/);
  });

  it('refuses a file that is not JSON', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{"id": "m-1", ');
    const err = await loadError(path);
    expect(err.code).toBe('not_json');
    expect(err.message).toContain(path);
  });

  it('refuses JSON that is not a match record, naming the field', async () => {
    const path = join(dir, 'other.json');
    const record = JSON.parse(readFileSync(FIXTURE_4P, 'utf8')) as Record<string, unknown>;
    delete record.seed;
    writeFileSync(path, JSON.stringify(record));
    const err = await loadError(path);
    expect(err.code).toBe('not_a_record');
    expect(err.message).toContain('seed');
  });

  it('lets a later source (a server) claim match ids', async () => {
    const fake: RecordSource = {
      claims: async (ref) => ref === 'm-remote',
      load: async () => ({ record: readFixture(FIXTURE_TALK), origin: 'https://arena.example/matches/m-remote' }),
    };
    const { origin } = await loadRecord('m-remote', [fake]);
    expect(origin).toContain('m-remote');
  });
});

describe('buildTimeline refuses records that do not replay', () => {
  it('names the event where a tampered action diverges', () => {
    const record = readFixture(FIXTURE_4P);
    const i = record.replay.findIndex((e) => e.kind === 'action' && (e.data as { kind: string }).kind === 'setup');
    const tampered = structuredClone(record);
    const data = tampered.replay[i].data as { action: { settlement: number; road: number } };
    // Another legal-looking answer: the engine will build elsewhere, and the next event differs.
    data.action = { settlement: data.action.settlement === 0 ? 2 : 0, road: data.action.settlement === 0 ? 3 : 0 };
    let err: unknown;
    try {
      buildTimeline(tampered);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ReplayVerifyError);
    const v = err as ReplayVerifyError;
    expect(v.eventIndex).not.toBeNull();
    expect(v.eventIndex!).toBeGreaterThanOrEqual(i);
    expect(v.eventIndex!).toBeLessThanOrEqual(i + 2);
    expect(v.message).toContain(`does not verify at event ${v.eventIndex}`);
  });

  it('refuses a record whose replay was cut short', () => {
    const record = readFixture(FIXTURE_TALK);
    const cut = { ...record, replay: record.replay.filter((e) => e.kind !== 'end') };
    expect(() => buildTimeline(cut)).toThrow(ReplayVerifyError);
  });

  it('refuses a running match, which has no public seed yet', () => {
    const record = { ...readFixture(FIXTURE_TALK), status: 'running' as const, seed: null, replay: [] };
    expect(() => buildTimeline(record)).toThrow(/no public seed and replay/);
  });

  it('refuses a record made under other rules', () => {
    const record = { ...readFixture(FIXTURE_TALK), rulesVersion: 'pioneers/0' };
    expect(() => buildTimeline(record)).toThrow(/played under rules pioneers\/0/);
  });
});

describe('hostile records', () => {
  it('never echoes control characters from the file in the error', async () => {
    const path = join(dir, 'evil.json');
    const record = JSON.parse(readFileSync(FIXTURE_TALK, 'utf8')) as Record<string, unknown>;
    record['\x1b[2Jboom'] = 1;
    writeFileSync(path, JSON.stringify(record));
    const err = await loadError(path);
    expect(err.code).toBe('not_a_record');
    expect(err.message).not.toMatch(/\x1b/);
  });
});
