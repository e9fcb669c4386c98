// `arena replay` checks a record's events by replaying them rather than with
// the event schemas (src/tui/open-timeline.ts). These tamper with the parts the
// replay does not regenerate (stamps, keys, a strike's echoed data) and with
// parts it does, and require the same refusal, with the same message, as the
// full schema check (parseRecord) or the verifier gives.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSource, parseRecord, RecordLoadError } from '../../src/arena/load';
import { openTimeline } from '../../src/tui/open-timeline';
import { buildTimeline, ReplayVerifyError } from '../../src/tui/timeline';
import { FIXTURE_4P, FIXTURE_TALK, readFixture } from './helpers';

type Json = Record<string, unknown> & { replay: Array<Record<string, unknown>> };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-open-timeline-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const talk = (): Json => JSON.parse(readFileSync(FIXTURE_TALK, 'utf8')) as Json;
const firstOf = (r: Json, kind: string) => r.replay.findIndex((e) => e.kind === kind);

let n = 0;
function write(record: unknown): string {
  const path = join(dir, `r${n++}.json`);
  writeFileSync(path, JSON.stringify(record));
  return path;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

describe('openTimeline', () => {
  it('opens good records as buildTimeline does after the full schema check', async () => {
    for (const path of [FIXTURE_4P, FIXTURE_TALK]) {
      const t = await openTimeline(path, [fileSource], { frames: 'lazy' });
      const full = buildTimeline(readFixture(path), { frames: 'lazy' });
      expect(t.events.length).toBe(full.events.length);
      expect(t.outcome).toEqual(full.outcome);
    }
  });

  const tampers: Array<[string, (r: Json) => void]> = [
    [
      'a negative seq',
      (r) => {
        r.replay[5].seq = -1;
      },
    ],
    [
      'a non-integer seq',
      (r) => {
        r.replay[5].seq = 1.5;
      },
    ],
    [
      'a numeric timestamp',
      (r) => {
        r.replay[7].at = 12;
      },
    ],
    [
      'an extra key on an event',
      (r) => {
        r.replay[9].note = 'hi';
      },
    ],
    [
      'a strike with a reason the spec does not have',
      (r) => {
        (r.replay[firstOf(r, 'timeout')].data as Record<string, unknown>).reason = 'bored';
      },
    ],
    [
      'a strike with a negative count',
      (r) => {
        (r.replay[firstOf(r, 'timeout')].data as Record<string, unknown>).strikes = -2;
      },
    ],
    [
      'a strike with an extra data key',
      (r) => {
        (r.replay[firstOf(r, 'timeout')].data as Record<string, unknown>).extra = 1;
      },
    ],
    [
      'an event that is not an object',
      (r) => {
        (r.replay as unknown[])[3] = 'roll';
      },
    ],
    [
      'a header field of the wrong type',
      (r) => {
        r.seatCount = '4';
      },
    ],
    [
      'both a bad header and a bad event (the first issue wins)',
      (r) => {
        r.vp = 'x';
        r.replay[2].seq = -4;
      },
    ],
  ];
  for (const [what, tamper] of tampers) {
    it(`refuses ${what} with the full schema check's message`, async () => {
      const r = talk();
      tamper(r);
      const path = write(r);
      const full = await failure(parseRecord(readFileSync(path, 'utf8'), path));
      expect(full).toBeInstanceOf(RecordLoadError);
      const fast = await failure(openTimeline(path, [fileSource]));
      expect(fast).toBeInstanceOf(RecordLoadError);
      expect(fast.message).toBe(full.message);
    });
  }

  it('a strike with a valid reason changed is still accepted (the refusal above is the schema, not the replay)', async () => {
    const r = talk();
    const data = r.replay[firstOf(r, 'timeout')].data as Record<string, unknown>;
    data.reason = data.reason === 'late' ? 'malformed' : 'late';
    await expect(openTimeline(write(r), [fileSource])).resolves.toBeDefined();
  });

  it('refuses a schema-valid record the engine does not reproduce, as the verifier does', async () => {
    const r = talk();
    const roll = r.replay[firstOf(r, 'roll')].data as { dice: number[] };
    roll.dice = roll.dice[0] === 1 ? [2, roll.dice[1]] : [1, roll.dice[1]];
    const path = write(r);
    await expect(parseRecord(readFileSync(path, 'utf8'), path)).resolves.toBeDefined();
    const fast = await failure(openTimeline(path, [fileSource]));
    expect(fast).toBeInstanceOf(ReplayVerifyError);
    expect(fast.message).toMatch(/does not verify at event \d+ \(roll\)/);
  });
});
