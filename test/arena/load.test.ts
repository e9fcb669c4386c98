// The loader and verifier: what a user gets for each kind of bad input.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, copyFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import type { MatchRecord } from '../../src/protocol/match';
import { runMatch } from '../../src/runner/index';
import {
  loadRecord,
  readRecordFile,
  RECORD_LIMITS,
  RecordLoadError,
  stdinSource,
  type RecordSource,
} from '../../src/arena/load';
import { buildTimeline, ReplayVerifyError } from '../../src/tui/timeline';
import { FIXTURE_4P, FIXTURE_TALK, readFixture } from '../tui/helpers';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-tui-load-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function loadError(ref: string): Promise<RecordLoadError> {
  const err = await loadRecord(ref).then(
    () => null,
    (e: unknown) => e,
  );
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

  it('says a match id needs a server to fetch it from', async () => {
    const err = await loadError('m-20260101-abcd-0001');
    expect(err.code).toBe('needs_server');
    expect(err.message).toMatch(/no server to fetch match "m-20260101-abcd-0001" from: pass --url/);
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

describe('pipes and stdin', () => {
  it('reads a FIFO whose writer sends the record in parts, waiting for each', async () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    // Opened read-write, the writer end exists before the reader looks (as with `<(command)`).
    const writer = await open(fifo, 'r+');
    const text = readFileSync(FIXTURE_4P, 'utf8');
    const reading = readRecordFile(fifo);
    await writer.write(text.slice(0, 1000));
    await sleep(50);
    await writer.write(text.slice(1000));
    await writer.close();
    expect(await reading).toBe(text);
  });

  it('refuses a FIFO nobody writes to at once, without waiting', async () => {
    const fifo = join(dir, 'idle.json');
    execFileSync('mkfifo', [fifo]);
    const err = await readRecordFile(fifo).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RecordLoadError);
    expect((err as Error).message).toMatch(/idle\.json is a pipe with nothing written to it/);
  });

  it('- reads the record from stdin, and says what to do when stdin is a terminal or too much', async () => {
    const text = readFileSync(FIXTURE_4P);
    const piped = stdinSource(Readable.from([text.subarray(0, 500), text.subarray(500)]));
    expect(await piped.claims('-')).toBe(true);
    expect(await piped.claims('m.json')).toBe(false);
    const { record, origin } = await loadRecord('-', [piped]);
    expect(origin).toBe('stdin');
    expect(record.id).toBe('m-tui-fixture');

    const tty = Object.assign(Readable.from([text]), { isTTY: true });
    await expect(loadRecord('-', [stdinSource(tty)])).rejects.toThrow(
      /"-" reads the record from stdin, but stdin is a terminal: pipe one in/,
    );

    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const endless = Readable.from(
      (function* () {
        for (;;) yield chunk;
      })(),
    );
    const err = await loadRecord('-', [stdinSource(endless)]).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as Error).message).toBe(
      `stdin is over ${RECORD_LIMITS.fileBytes / 1024 / 1024} MiB, more than a match record can be, so this is not one`,
    );
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

describe('buildTimeline refuses records whose header contradicts the replay', () => {
  const finished = readFixture(FIXTURE_4P);
  const refusal = (record: MatchRecord): string => {
    try {
      buildTimeline(record);
    } catch (err) {
      expect(err).toBeInstanceOf(ReplayVerifyError);
      return (err as Error).message;
    }
    throw new Error('the record was accepted');
  };

  it('accepts the untouched records', () => {
    expect(() => buildTimeline(finished)).not.toThrow();
    expect(() => buildTimeline(readFixture(FIXTURE_TALK))).not.toThrow();
  });

  it('changed placements', () => {
    const r = structuredClone(finished);
    const first = r.players.find((p) => p.placement === 1)!;
    const other = r.players.find((p) => p.placement !== 1)!;
    [first.placement, other.placement] = [other.placement, first.placement];
    const low = Math.min(first.seat, other.seat);
    const claimed = r.players.find((p) => p.seat === low)!.placement;
    const real = finished.players.find((p) => p.seat === low)!.placement;
    expect(refusal(r)).toContain(
      `the header gives seat ${low} placement ${claimed}, but the replay gives it placement ${real}`,
    );
  });

  it('changed VP', () => {
    const r = structuredClone(finished);
    r.vp = r.vp!.map((v, s) => (s === 0 ? v + 1 : v));
    expect(refusal(r)).toMatch(/VP/);
  });

  it('a finished game marked aborted (placements and VP removed to match)', () => {
    const r = { ...structuredClone(finished), status: 'aborted' as const, vp: null };
    r.players = r.players.map((p) => ({ ...p, placement: null }));
    expect(refusal(r)).toMatch(/aborted.*replay ends with a (win|turn cap)/);
  });

  it('a running match that carries a seed and replay', () => {
    expect(refusal({ ...structuredClone(finished), status: 'running' })).toMatch(/running/);
  });

  it('a replay cut short where an answer ends, with no end', () => {
    const r = structuredClone(finished);
    // An end of turn is the first event of its answer: everything before it is whole answers.
    const lastEnd = r.replay.findLastIndex(
      (e) => e.kind === 'action' && (e.data as { action: { type?: string } }).action.type === 'end_turn',
    );
    r.replay = r.replay.slice(0, lastEnd);
    expect(refusal(r)).toMatch(/stops before the game ends/);
  });

  it("a seat count other than the replay's, and players that do not fill the seats", () => {
    const three = {
      ...structuredClone(finished),
      seatCount: 3,
      vp: finished.vp!.slice(0, 3),
      players: finished.players.filter((p) => p.seat < 3),
    };
    expect(refusal(three)).toMatch(/3 seats.*start.*4/);
    const twice = structuredClone(finished);
    twice.players[1] = { ...twice.players[1], seat: twice.players[0].seat };
    expect(refusal(twice)).toMatch(/seat/);
  });

  it('an aborted game marked completed, or with placements', async () => {
    const stop = new AbortController();
    const { match } = await runMatch({
      matchId: 'm-aborted-header',
      seed: 'tui-aborted-2',
      platformKey: generateKeyPairSync('ed25519').privateKey,
      entrants: ['a', 'b', 'c'].map((n) => ({
        botId: n,
        botName: n,
        source: { type: 'builtin' as const, bot: 'random' as const },
      })),
      signal: stop.signal,
      onEvent: (e) => {
        if (e.seq === 200) stop.abort();
      },
    });
    expect(match.status).toBe('aborted');
    expect(() => buildTimeline(match)).not.toThrow();
    expect(refusal({ ...match, status: 'completed' })).toMatch(/completed.*aborted/);
    expect(refusal({ ...match, players: match.players.map((p) => ({ ...p, placement: p.seat + 1 })) })).toMatch(
      /placement/,
    );
    expect(refusal({ ...match, vp: [1, 1, 1] })).toMatch(/VP/);
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
