// Shared by the TUI tests: the fixture records and their timelines (built once per file).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MatchRecordSchema, type MatchRecord } from '../../src/protocol/match';
import { buildTimeline, type Timeline } from '../../src/tui/timeline';

export const FIXTURE_4P = fileURLToPath(new URL('./fixtures/match-4p.json', import.meta.url));
export const FIXTURE_TALK = fileURLToPath(new URL('./fixtures/match-talk.json', import.meta.url));
export const GOLDEN_DIR = fileURLToPath(new URL('./golden/', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function readFixture(path: string): MatchRecord {
  return MatchRecordSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

const cache = new Map<string, Timeline>();
export function fixtureTimeline(path: string): Timeline {
  let t = cache.get(path);
  if (!t) {
    try {
      t = buildTimeline(readFixture(path));
    } catch (err) {
      throw new Error(
        `the fixture ${path} no longer replays with this engine (${(err as Error).message.slice(0, 200)}…). ` +
          'If the engine changed on purpose, regenerate: node --import tsx test/tui/fixtures/make-fixture.ts && UPDATE_GOLDEN=1 npx vitest run test/tui',
      );
    }
    cache.set(path, t);
  }
  return t;
}
