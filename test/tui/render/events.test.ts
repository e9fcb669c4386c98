// Event sentences: what the log tells a reader.
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../engine/types';
import { describeEvent } from '../../../src/tui/render/events';
import { renderLog } from '../../../src/tui/render/log';
import { lineText } from '../../../src/tui/render/style';
import { FIXTURE_4P, fixtureTimeline } from '../helpers';

const names = ['ada', 'bob', 'cyd', 'dee'];
const say = (ev: GameEvent, short = false) => lineText(describeEvent(ev, { names, short }));

describe('describeEvent', () => {
  it('rolls say who rolled what and who got paid', () => {
    expect(say({ kind: 'roll', seat: 2, data: { dice: [3, 5], produced: [{ grain: 1 }, {}, { ore: 2 }, {}] } })).toBe(
      'seat 2 (cyd) rolled 3+5=8: seat 0 +1 grain, seat 2 +2 ore',
    );
    expect(say({ kind: 'roll', seat: 1, data: { dice: [3, 4], produced: [{}, {}, {}, {}] } })).toBe(
      'seat 1 (bob) rolled 3+4=7: the bandit moves',
    );
    expect(say({ kind: 'roll', seat: 0, data: { dice: [2, 2], produced: [{ brick: 1, wool: 2 }, {}, {}, {}] } })).toBe(
      'seat 0 (ada) rolled 2+2=4: seat 0 +1 brick +2 wool',
    );
  });

  it('trades read as trades, offers name both sides, talk is quoted', () => {
    expect(
      say({
        kind: 'action',
        seat: 3,
        data: { kind: 'turn', action: { type: 'offer_trade', give: { ore: 1 }, get: { wool: 1 }, talk: 'fair?' } },
      }),
    ).toBe('seat 3 (dee) → offer 1 ore for 1 wool to everyone “fair?”');
    expect(say({ kind: 'trade', seat: 3, data: { from: 3, to: 0, give: { ore: 1 }, get: { wool: 1 } } })).toBe(
      'seat 3 (dee) traded 1 ore for 1 wool with seat 0',
    );
    expect(say({ kind: 'trade', seat: 3, data: { from: 3, accepted: false } })).toBe(
      "seat 3 (dee)'s offer found no taker",
    );
    expect(say({ kind: 'trade', seat: 1, data: { from: 1, to: 'bank', give: { brick: 4 }, get: { ore: 1 } } })).toBe(
      'seat 1 (bob) traded 4 brick to the bank for 1 ore',
    );
    expect(say({ kind: 'talk', seat: 0, data: { message: 'gg' } })).toBe('seat 0 (ada) says “gg”');
  });

  it('builds, strikes, defaults and the end', () => {
    expect(say({ kind: 'build', seat: 1, data: { what: 'city', at: 23 } })).toBe(
      'seat 1 (bob) built a city at vertex 23',
    );
    expect(say({ kind: 'timeout', seat: 2, data: { reason: 'late', strikes: 2, decision: 'turn' } })).toBe(
      'seat 2 (cyd) strike 2: late on a turn decision',
    );
    expect(
      say({
        kind: 'timeout',
        seat: 0,
        data: {
          reason: 'illegal',
          strikes: 1,
          decision: 'turn',
          code: 'cannot_afford',
          message: 'a city needs 3 ore and 2 grain',
        },
      }),
    ).toBe('seat 0 (ada) strike 1: illegal on a turn decision (cannot_afford: a city needs 3 ore and 2 grain)');
    expect(say({ kind: 'action', seat: 2, data: { kind: 'turn', action: { type: 'end_turn' }, default: true } })).toBe(
      'seat 2 (cyd) → end the turn (default)',
    );
    expect(
      say({ kind: 'end', data: { reason: 'win', winner: 1, placements: [2, 1, 3, 3], vp: [8, 10, 4, 4], turns: 90 } }),
    ).toBe('game over (win) after 90 turns: #1 seat 1 10 VP, #2 seat 0 8 VP, #3 seat 2 4 VP, #3 seat 3 4 VP');
  });

  it('uses short seat labels on narrow screens', () => {
    expect(say({ kind: 'build', seat: 1, data: { what: 'road', at: 7 } }, true)).toBe('s1 built a road on edge 7');
    expect(say({ kind: 'bandit', seat: 3, data: { hex: 4, victim: 0, stole: null } }, true)).toBe(
      's3 moved the bandit to hex 4 and robbed s0, who had no cards',
    );
  });
});

describe('strike reasons', () => {
  it("name the rejection code once, also when the runner's message already starts with it", () => {
    // The runner records {code, message: "code: message"}; older records may hold either form.
    const line = say({
      kind: 'timeout',
      seat: 1,
      data: {
        reason: 'illegal',
        strikes: 1,
        decision: 'setup',
        code: 'occupied',
        message: 'occupied: setup settlement 12',
      },
    });
    expect(line).toBe('seat 1 (bob) strike 1: illegal on a setup decision (occupied: setup settlement 12)');
    expect(
      say({
        kind: 'timeout',
        seat: 1,
        data: { reason: 'malformed', strikes: 2, decision: 'turn', message: 'not JSON' },
      }),
    ).toBe('seat 1 (bob) strike 2: malformed on a turn decision (not JSON)');
    expect(
      say({ kind: 'timeout', seat: 1, data: { reason: 'illegal', strikes: 2, decision: 'turn', code: 'occupied' } }),
    ).toBe('seat 1 (bob) strike 2: illegal on a turn decision (occupied)');
  });
});

describe('the log beside the board', () => {
  const t = fixtureTimeline(FIXTURE_4P);

  it('shows the events up to the cursor, the cursor last, and nothing that has not happened yet', () => {
    for (const index of [0, 3, 150, t.events.length - 1]) {
      const lines = renderLog(t, index, { width: 200, height: 12 }).map(lineText);
      expect(lines).toHaveLength(Math.min(12, index + 1));
      expect(lines.at(-1)!.startsWith('▶')).toBe(true);
      const shown = lines.map((l) => l.slice(1).trim().replace(/^\d+ /, ''));
      const expected = t.events
        .slice(Math.max(0, index - 11), index + 1)
        .map((e) => lineText(describeEvent(e, { names: t.names })));
      expect(shown).toEqual(expected);
    }
  });
});

describe('untrusted text from bots', () => {
  it('never passes control characters (escape sequences, newlines) to the terminal', () => {
    const evil: GameEvent = { kind: 'talk', seat: 1, data: { message: 'hi\x1b[2J\x1b]0;pwned\x07\nthere\r' } };
    const text = lineText(describeEvent(evil, { names: ['a', 'b\x1b[31mred', 'c'] }));
    expect(text).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(text).toContain('hi');
    expect(text).toContain('there');
  });
});
