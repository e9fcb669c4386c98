// `--plain` renders of the start and the end of the known match, checked in
// as golden files. After an intended change to the drawing (or a regenerated
// fixture), rewrite them with: UPDATE_GOLDEN=1 npx vitest run test/tui/golden.test.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPlain } from '../../src/tui/plain';
import { FIXTURE_4P, FIXTURE_TALK, GOLDEN_DIR, fixtureTimeline } from './helpers';

function golden(name: string, actual: string): void {
  const path = join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  expect(existsSync(path), `${path} is missing; create it with UPDATE_GOLDEN=1`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

describe('golden --plain renders', () => {
  const t = fixtureTimeline(FIXTURE_4P);

  it('start of the known match (100 columns)', () => {
    golden('match-4p-start.txt', renderPlain(t, 0, 100));
  });

  it('end of the known match (100 columns)', () => {
    golden('match-4p-end.txt', renderPlain(t, t.events.length - 1, 100));
  });

  it('end of the known match in 80 columns and in a wide terminal', () => {
    golden('match-4p-end-80.txt', renderPlain(t, t.events.length - 1, 80));
    golden('match-4p-end-140.txt', renderPlain(t, t.events.length - 1, 140));
  });

  it('a win with a resigned seat (3 seats)', () => {
    const talk = fixtureTimeline(FIXTURE_TALK);
    golden('match-talk-end.txt', renderPlain(talk, talk.events.length - 1, 100));
  });
});
