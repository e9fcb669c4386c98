// The one description of events (src/protocol/describe.ts) that the terminal
// and the dashboard both draw: every kind the schema knows has words, in both
// the full and the live (public) form, and a whole game reads without a gap.
import { describe, expect, it } from 'vitest';
import { createBuiltinBot, gameEvents, isOver, newGame, pendingDecisions, publicEvent, submit } from '../../engine';
import { describeEvent, describedText, type DescribedEvent, type Segment } from '../../src/protocol/describe';
import { GameEventKindSchema, GameEventSchema, PublicGameEventSchema } from '../../src/protocol/events';

const text = (ev: DescribedEvent) => describedText(describeEvent(ev));

/** For each kind: events (full or public form) and the line each must read as. */
const SAMPLES: Record<string, Array<[DescribedEvent, string]>> = {
  start: [
    [
      { kind: 'start', data: { rulesVersion: 'pioneers/1', seatCount: 4, board: boardOf('describe/board') } },
      'match starts: 4 seats, rules pioneers/1',
    ],
  ],
  action: [
    [
      { kind: 'action', seat: 1, data: { kind: 'setup', action: { settlement: 12, road: 15 } } },
      'seat 1 → place a settlement at vertex 12 and a road on edge 15',
    ],
    [
      { kind: 'action', seat: 2, data: { kind: 'discard', action: { cards: { ore: 2, wool: 1 } }, default: true } },
      'seat 2 → discard 2 ore, 1 wool (default)',
    ],
    [
      { kind: 'action', seat: 0, data: { kind: 'bandit', action: { hex: 4, victim: 3 } } },
      'seat 0 → move the bandit to hex 4 and rob seat 3',
    ],
    [
      { kind: 'action', seat: 3, data: { kind: 'trade', action: { accept: true, talk: 'deal' } } },
      'seat 3 → accept the offer “deal”',
    ],
    [
      {
        kind: 'action',
        seat: 0,
        data: { kind: 'turn', action: { type: 'offer_trade', give: { ore: 1 }, get: { wool: 1 }, to: 2 } },
      },
      'seat 0 → offer 1 ore for 1 wool to seat 2',
    ],
    [
      { kind: 'action', seat: 0, data: { kind: 'turn', action: { type: 'play_knight', hex: 7 } } },
      'seat 0 → play a knight: bandit to hex 7',
    ],
    [
      { kind: 'action', seat: 0, data: { kind: 'turn', action: { type: 'bank_trade', give: 'brick', get: 'ore' } } },
      'seat 0 → trade brick to the bank for ore',
    ],
  ],
  roll: [
    [
      { kind: 'roll', seat: 2, data: { dice: [3, 5], produced: [{ grain: 1 }, {}, { ore: 2, wool: 1 }, {}] } },
      'seat 2 rolled 3+5=8: seat 0 +1 grain, seat 2 +2 ore +1 wool',
    ],
    [
      { kind: 'roll', seat: 1, data: { dice: [3, 4], produced: [{}, {}, {}] } },
      'seat 1 rolled 3+4=7: the bandit moves',
    ],
    [
      { kind: 'roll', seat: 1, data: { dice: [6, 6], produced: [{}, {}, {}] } },
      'seat 1 rolled 6+6=12: nothing produced',
    ],
  ],
  payout: [
    [
      { kind: 'payout', seat: 0, data: { gained: { brick: 1, grain: 1 } } },
      'seat 0 receives 1 brick, 1 grain for the second settlement',
    ],
  ],
  discard: [[{ kind: 'discard', seat: 3, data: { cards: { lumber: 4 } } }, 'seat 3 discarded 4 lumber']],
  bandit: [
    [{ kind: 'bandit', seat: 0, data: { hex: 9 } }, 'seat 0 moved the bandit to hex 9'],
    [
      { kind: 'bandit', seat: 0, data: { hex: 4, victim: 1, stole: 'ore' } },
      'seat 0 moved the bandit to hex 4 and stole 1 ore from seat 1',
    ],
    [
      { kind: 'bandit', seat: 0, data: { hex: 4, victim: 1, stole: null } },
      'seat 0 moved the bandit to hex 4 and robbed seat 1, who had no cards',
    ],
    [
      { kind: 'bandit', seat: 0, data: { hex: 4, victim: 1, stoleCard: true } },
      'seat 0 moved the bandit to hex 4 and stole a card from seat 1',
    ],
    [
      { kind: 'bandit', seat: 0, data: { hex: 4, victim: 1, stoleCard: false } },
      'seat 0 moved the bandit to hex 4 and robbed seat 1, who had no cards',
    ],
  ],
  build: [
    [
      { kind: 'build', seat: 1, data: { what: 'road', at: 7, free: true } },
      'seat 1 built a road on edge 7 (free, roadworks)',
    ],
    [{ kind: 'build', seat: 1, data: { what: 'settlement', at: 23 } }, 'seat 1 built a settlement at vertex 23'],
  ],
  dev: [
    [
      { kind: 'dev', seat: 2, data: { action: 'buy', card: 'victory_point' } },
      'seat 2 bought a dev card (victory point)',
    ],
    [{ kind: 'dev', seat: 2, data: { action: 'buy' } }, 'seat 2 bought a dev card'],
    [{ kind: 'dev', seat: 2, data: { action: 'play', card: 'knight' } }, 'seat 2 played a knight'],
    [
      { kind: 'dev', seat: 2, data: { action: 'play', card: 'roadworks', edges: [3, 5] } },
      'seat 2 played roadworks on edges 3 and 5',
    ],
    [
      { kind: 'dev', seat: 2, data: { action: 'play', card: 'windfall', take: { ore: 2 } } },
      'seat 2 played windfall: took 2 ore',
    ],
    [
      { kind: 'dev', seat: 2, data: { action: 'play', card: 'embargo', resource: 'wool', taken: [0, 2, 0, 1] } },
      'seat 2 played embargo on wool: took 3',
    ],
  ],
  trade: [
    [
      { kind: 'trade', seat: 3, data: { from: 3, to: 0, give: { ore: 1 }, get: { wool: 1 } } },
      'seat 3 traded 1 ore for 1 wool with seat 0',
    ],
    [
      { kind: 'trade', seat: 1, data: { from: 1, to: 'bank', give: { brick: 4 }, get: { ore: 1 } } },
      'seat 1 traded 4 brick to the bank for 1 ore',
    ],
    [{ kind: 'trade', seat: 3, data: { from: 3, accepted: false } }, "seat 3's offer found no taker"],
  ],
  talk: [[{ kind: 'talk', seat: 0, data: { message: 'gg' } }, 'seat 0 says “gg”']],
  award: [
    [
      { kind: 'award', seat: 2, data: { award: 'longestRoad', seat: 2, from: 1 } },
      'seat 2 takes the longest road from seat 1',
    ],
    [{ kind: 'award', seat: 2, data: { award: 'largestArmy', seat: 2, from: null } }, 'seat 2 takes the largest army'],
    [{ kind: 'award', data: { award: 'longestRoad', seat: null, from: 1 } }, 'nobody holds the longest road now'],
  ],
  timeout: [
    [
      {
        kind: 'timeout',
        seat: 1,
        data: { reason: 'illegal', strikes: 1, decision: 'turn', code: 'occupied', message: 'occupied: vertex 12' },
      },
      'seat 1 strike 1: illegal on a turn decision (occupied: vertex 12)',
    ],
    [
      { kind: 'timeout', seat: 1, data: { reason: 'late', strikes: 2, decision: 'setup' } },
      'seat 1 strike 2: late on a setup decision',
    ],
  ],
  resign: [
    [
      { kind: 'resign', seat: 1, data: { strikes: 3 } },
      'seat 1 resigned after 3 strikes; the engine plays for it from now on',
    ],
  ],
  end: [
    [
      { kind: 'end', data: { reason: 'win', winner: 1, placements: [2, 1, 3, 3], vp: [8, 10, 4, 4], turns: 90 } },
      'game over (win) after 90 turns: #1 seat 1 10 VP, #2 seat 0 8 VP, #3 seat 2 4 VP, #3 seat 3 4 VP',
    ],
    [
      { kind: 'end', data: { reason: 'cap', winner: null, placements: [1, 2, 3], vp: [9, 7, 2], turns: 500 } },
      'game over (turn cap) after 500 turns: #1 seat 0 9 VP, #2 seat 1 7 VP, #3 seat 2 2 VP',
    ],
    [{ kind: 'end', data: { reason: 'aborted', turns: 12 } }, 'match aborted after 12 turns: no placements'],
  ],
};

function boardOf(seed: string) {
  const start = gameEvents(newGame(seed, 4))[0];
  if (start.kind !== 'start') throw new Error('a game starts with its start event');
  return start.data.board;
}

/** Every seat a line refers to, and that no part is empty or undefined. */
function seatsOf(segments: Segment[]): number[] {
  return segments.flatMap((s) => (typeof s === 'object' && 'seat' in s ? [s.seat] : []));
}

describe('describeEvent: one description for the terminal and the dashboard', () => {
  it('has words for every event kind of the schema', () => {
    const kinds = GameEventKindSchema.options;
    expect(
      kinds.filter((k) => !SAMPLES[k]?.length),
      'kinds with no described sample: add them here and words in src/protocol/describe.ts',
    ).toEqual([]);
    expect(Object.keys(SAMPLES).filter((k) => !(kinds as readonly string[]).includes(k))).toEqual([]);
  });

  for (const kind of GameEventKindSchema.options) {
    it(`${kind}: each form reads as written`, () => {
      for (const [ev, line] of SAMPLES[kind] ?? []) {
        // The samples are real events: the full form or the live one.
        expect(
          GameEventSchema.safeParse(ev).success || PublicGameEventSchema.safeParse(ev).success,
          JSON.stringify(ev),
        ).toBe(true);
        expect(text(ev)).toBe(line);
        // Not the fallback for a kind this build does not know.
        expect(text(ev)).not.toMatch(new RegExp(`: ${kind}$`));
      }
    });
  }

  it('refers to seats as seat references, the acting one first, for the renderers to draw', () => {
    const roll = describeEvent(SAMPLES.roll[0][0]);
    expect(roll[0]).toEqual({ seat: 2 });
    expect(seatsOf(roll)).toEqual([2, 0, 2]);
    expect(describeEvent(SAMPLES.bandit[1][0])).toContainEqual({ hex: 4 });
    expect(describeEvent(SAMPLES.talk[0][0])).toContainEqual({ text: '“gg”', mark: 'talk' });
    expect(describeEvent(SAMPLES.timeout[1][0])[1]).toMatchObject({ mark: 'strike' });
  });

  it('reads a whole game, each event in both forms, with no gap and no hidden fact in the live form', () => {
    const g = newGame('describe/game', 4);
    const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('random', `describe/game:${s}`));
    while (!isOver(g)) for (const d of [...pendingDecisions(g)]) submit(g, d.seat, bots[d.seat].decide(g, d.seat));
    const seen = new Set<string>();
    for (const ev of gameEvents(g)) {
      seen.add(ev.kind);
      for (const form of [ev, publicEvent(ev)] as DescribedEvent[]) {
        const segments = describeEvent(form);
        const line = describedText(segments);
        expect(line).not.toMatch(/undefined|NaN|\[object Object\]|null/);
        expect(
          seatsOf(segments).every((s) => Number.isInteger(s) && s >= 0 && s < 4),
          line,
        ).toBe(true);
      }
      if (ev.kind === 'dev' && ev.data.action === 'buy')
        expect(text(publicEvent(ev) as DescribedEvent)).not.toContain('(');
      if (ev.kind === 'bandit' && 'stole' in ev.data && ev.data.stole)
        expect(text(publicEvent(ev) as DescribedEvent)).not.toContain(ev.data.stole);
    }
    expect(seen.size).toBeGreaterThan(8);
  });
});
