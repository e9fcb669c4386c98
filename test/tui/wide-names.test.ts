// Names from a server may be in any script. A CJK character or an emoji takes
// two terminal columns, so the viewer measures and cuts names by columns:
// otherwise a line runs past the terminal's edge and the panels beside it shift.
import { describe, expect, it } from 'vitest';
import { shownNames } from '../../src/tui/render/screen';
import { renderPlain } from '../../src/tui/plain';
import { buildTimeline } from '../../src/tui/timeline';
import { displayWidth } from '../../src/term/width';
import { FIXTURE_4P, readFixture } from './helpers';

const WIDE = ['ボット'.repeat(8), '\u{1F916}\u{1F916} bot', 'e\u0301cole', '한국어 봇'];

describe('wide names in the viewer', () => {
  const record = readFixture(FIXTURE_4P);
  const t = buildTimeline({ ...record, players: record.players.map((p) => ({ ...p, botName: WIDE[p.seat] })) });

  it('are cut to 20 columns, between whole characters', () => {
    const names = shownNames(t);
    expect(names.map(displayWidth).every((w) => w <= 20)).toBe(true);
    expect(names[0]).toBe(`${'ボット'.repeat(3)}…`); // 18 columns and the ellipsis: a tenth character would make 21
    expect(names.slice(1)).toEqual(WIDE.slice(1));
  });

  it('keep every line within the terminal width', () => {
    for (const width of [80, 100, 140]) {
      for (const index of [0, t.events.length - 1]) {
        const lines = renderPlain(t, index, width).split('\n');
        const over = lines.filter((l) => displayWidth(l) > width);
        expect(over, `${width} columns, event ${index}`).toEqual([]);
      }
    }
  });
});
