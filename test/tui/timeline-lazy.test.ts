// `arena replay --plain` and `--json` show one moment, so they build frames
// lazily (buildTimeline { frames: 'lazy' }): each frame must be exactly the
// one the viewer's eager timeline holds, at any index and in any order.
import { describe, expect, it } from 'vitest';
import { buildTimeline } from '../../src/tui/timeline';
import { FIXTURE_4P, FIXTURE_TALK, readFixture } from './helpers';

describe('lazy frames', () => {
  for (const fixture of [FIXTURE_4P, FIXTURE_TALK]) {
    it(`equal the eager frames (${fixture.split('/').pop()})`, () => {
      const record = readFixture(fixture);
      const eager = buildTimeline(record);
      const lazy = buildTimeline(record, { frames: 'lazy' });
      const n = eager.frames.length;
      expect(lazy.frames).toHaveLength(n);
      expect({ ...lazy, frames: null }).toEqual({ ...eager, frames: null });
      // The ends, every setup frame, and a spread of the rest, read out of order.
      const indices = [
        n - 1,
        0,
        ...Array.from({ length: 12 }, (_, i) => i + 1),
        ...Array.from({ length: 40 }, (_, i) => Math.floor((((i * 7919) % 97) / 97) * n)),
      ];
      for (const i of indices) expect(lazy.frames[i], `frame ${i}`).toEqual(eager.frames[i]);
    });
  }

  it('verify the record as strictly as the eager build', () => {
    const record = readFixture(FIXTURE_4P);
    const tampered = structuredClone(record);
    const roll = tampered.replay.findIndex((e) => e.kind === 'roll');
    (tampered.replay[roll] as { data: { dice: number[] } }).data.dice = [6, 6];
    expect(() => buildTimeline(tampered, { frames: 'lazy' })).toThrow(/does not verify/);
    expect(() => buildTimeline(tampered)).toThrow(/does not verify/);
  });
});
