// One answer validator (issue 8, item 3). The zod schemas a bot author reads
// (src/protocol/actions.ts) and the engine's shape check the arena runs
// (engine/shape.ts) must accept exactly the same answers and read them the
// same way; and the runner's judge (src/runner/answer-frame.ts judgeAction,
// also used by `arena bot check`) must classify every answer as the two
// layers would: shape refused -> illegal, rules refused -> illegal with the
// rule's code, else applied. Answers are generated near the valid ones (legal
// moves of real positions, mutated) and at random.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneGame, legalActions, submit } from '../../engine';
import { MAX_ANSWER_COUNT as ENGINE_MAX_COUNT, SHAPE_CODES, parseAnswer } from '../../engine/shape';
import type { DecisionKind } from '../../engine/types';
import { findPosition } from '../../src/probe/positions';
import { ActionSchemaByKind, DECISION_KINDS, MAX_ANSWER_COUNT, RESOURCE_NAMES } from '../../src/protocol';
import { judgeAction } from '../../src/runner/answer-frame';

const FIELDS = [
  'type',
  'edge',
  'vertex',
  'hex',
  'victim',
  'edges',
  'take',
  'resource',
  'give',
  'get',
  'to',
  'talk',
  'settlement',
  'road',
  'cards',
  'accept',
];
const TYPES = [
  'build_road',
  'build_settlement',
  'build_city',
  'buy_dev',
  'play_knight',
  'play_roadworks',
  'play_windfall',
  'play_embargo',
  'bank_trade',
  'offer_trade',
  'end_turn',
];

// Values at and just past every bound, and of every wrong type.
const num = fc.oneof(
  fc.integer({ min: -2, max: 75 }),
  fc.constantFrom(
    0,
    -0,
    18,
    19,
    53,
    54,
    71,
    72,
    3,
    4,
    MAX_ANSWER_COUNT,
    MAX_ANSWER_COUNT + 1,
    5000,
    65_538,
    1.5,
    2 ** 53,
    -1,
  ),
);
const wrong = fc.constantFrom<unknown>(null, '3', true, [], {}, 'brick');
const scalar = fc.oneof({ weight: 4, arbitrary: num }, { weight: 1, arbitrary: wrong });
const resourceKey = fc.oneof(
  fc.constantFrom(...RESOURCE_NAMES),
  fc.constantFrom('gold', 'Brick', '', '__proto__', 'constructor', 'toString'),
);

/**
 * ResourceCounts-like objects, built through JSON text so a key like "__proto__" is an own key, as JSON.parse makes it.
 */
const counts = fc
  .array(
    fc.tuple(
      resourceKey,
      fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 3 }) }, { weight: 1, arbitrary: scalar }),
    ),
    { maxLength: 4 },
  )
  .map(
    (pairs) =>
      JSON.parse(`{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`) as unknown,
  );
const talk = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('x'.repeat(240), 'x'.repeat(241), 'é'.repeat(240), '\u{1F600}'.repeat(240), '\u{1F600}'.repeat(241)),
  wrong,
);
const fieldValue = fc.oneof(
  scalar,
  counts,
  talk,
  fc.constantFrom(...RESOURCE_NAMES, ...TYPES),
  fc.array(scalar, { maxLength: 3 }),
  fc.boolean(),
  fc.jsonValue({ maxDepth: 2 }),
);

type Edit =
  | { op: 'set'; key: string; value: unknown }
  | { op: 'del'; key: string }
  | { op: 'extra'; key: string; value: unknown };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ op: fc.constant('set' as const), key: fc.constantFrom(...FIELDS), value: fieldValue }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('del' as const), key: fc.constantFrom(...FIELDS) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('extra' as const),
      key: fc.constantFrom('debug', 'why', 'score', 'id', 'kind'),
      value: fc.jsonValue({ maxDepth: 2 }),
    }),
  },
);

function applyEdits(base: unknown, edits: Edit[]): unknown {
  const o = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
  for (const e of edits) {
    if (e.op === 'del') delete o[e.key];
    else Object.defineProperty(o, e.key, { value: e.value, enumerable: true, writable: true, configurable: true });
  }
  return JSON.parse(JSON.stringify(o)); // what a bot's JSON becomes on arrival
}

/** A well-formed answer of the kind (legal or not), from fields in range. */
function shaped(kind: DecisionKind): fc.Arbitrary<unknown> {
  const small = fc.dictionary(fc.constantFrom(...RESOURCE_NAMES), fc.integer({ min: 0, max: 3 }), { maxKeys: 3 });
  const res = fc.constantFrom(...RESOURCE_NAMES);
  const edge = fc.integer({ min: 0, max: 71 });
  const hex = fc.integer({ min: 0, max: 18 });
  const seat = fc.integer({ min: 0, max: 3 });
  switch (kind) {
    case 'setup':
      return fc.record({ settlement: fc.integer({ min: 0, max: 53 }), road: edge });
    case 'discard':
      return fc.record({ cards: small });
    case 'bandit':
      return fc.record({ hex, victim: seat, talk: fc.string({ maxLength: 5 }) }, { requiredKeys: ['hex'] });
    case 'trade':
      return fc.record({ accept: fc.boolean(), talk: fc.string({ maxLength: 5 }) }, { requiredKeys: ['accept'] });
    case 'turn':
      return fc.oneof(
        fc.record({ type: fc.constant('build_road'), edge }),
        fc.record({ type: fc.constantFrom('build_settlement', 'build_city'), vertex: fc.integer({ min: 0, max: 53 }) }),
        fc.record({ type: fc.constantFrom('buy_dev', 'end_turn') }),
        fc.record({ type: fc.constant('play_knight'), hex, victim: seat }, { requiredKeys: ['type', 'hex'] }),
        fc.record({ type: fc.constant('play_roadworks'), edges: fc.array(edge, { minLength: 1, maxLength: 2 }) }),
        fc.record({ type: fc.constant('play_windfall'), take: small }),
        fc.record({ type: fc.constant('play_embargo'), resource: res }),
        fc.record({ type: fc.constant('bank_trade'), give: res, get: res }),
        fc.record(
          { type: fc.constant('offer_trade'), give: small, get: small, to: seat, talk: fc.string({ maxLength: 5 }) },
          { requiredKeys: ['type', 'give', 'get'] },
        ),
      );
  }
}

/**
 * Near-valid and invalid answers for a kind: well-formed ones and legal moves, with 0 to 2 edits; and anything at all.
 */
function answers(kind: DecisionKind, legal: readonly unknown[]): fc.Arbitrary<unknown> {
  const base = legal.length ? fc.oneof(shaped(kind), fc.constantFrom(...legal)) : shaped(kind);
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(base, fc.array(edit, { maxLength: 2 })).map(([b, e]) => applyEdits(b, e)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

describe('one answer validator', () => {
  it('the count bound is the same number in both layers', () => {
    expect(MAX_ANSWER_COUNT).toBe(ENGINE_MAX_COUNT);
  });

  it.each([...DECISION_KINDS])(
    'zod and the engine accept exactly the same %s answers, and read them the same way',
    (kind) => {
      let accepted = 0;
      let refused = 0;
      fc.assert(
        fc.property(answers(kind, []), (value) => {
          const z = ActionSchemaByKind[kind].safeParse(value);
          const e = parseAnswer(kind, value);
          expect(
            e.ok,
            `${JSON.stringify(value)}: zod ${z.success ? 'accepts' : z.error.message}, engine ${e.ok ? 'accepts' : e.message}`,
          ).toBe(z.success);
          if (e.ok && z.success) {
            accepted++;
            // Same fields kept, same values: the engine's reading of zod's output is its reading of the raw answer,
            // and the engine's canonical answer is one zod leaves as it is.
            expect(parseAnswer(kind, z.data)).toEqual(e);
            expect(ActionSchemaByKind[kind].parse(e.action)).toEqual(e.action);
          } else {
            refused++;
            if (!e.ok) expect(SHAPE_CODES).toContain(e.code);
          }
        }),
        { numRuns: 2500 },
      );
      // Both sides of the boundary were exercised.
      expect(accepted).toBeGreaterThan(100);
      expect(refused).toBeGreaterThan(100);
    },
  );

  it.each([...DECISION_KINDS])(
    'the runner and bot check classify %s answers in a real position as the two layers do',
    (kind) => {
      const pos = findPosition(kind, 'agreement');
      if (!pos) throw new Error(`no ${kind} position`);
      const legal = legalActions(pos.game, pos.seat).map((a) => JSON.parse(JSON.stringify(a)) as unknown);
      const seen = { applied: 0, shape: 0, rule: 0 };
      fc.assert(
        fc.property(answers(kind, legal), (value) => {
          // The reference: zod's shape, then the engine's rules on what zod kept.
          const z = ActionSchemaByKind[kind].safeParse(value);
          let expected: 'applied' | 'shape' | 'rule';
          if (!z.success) expected = 'shape';
          else expected = submit(cloneGame(pos.game), pos.seat, z.data).ok ? 'applied' : 'rule';
          const v = judgeAction(cloneGame(pos.game), pos.seat, value);
          const got =
            v.type === 'applied' ? 'applied' : (SHAPE_CODES as readonly string[]).includes(v.code) ? 'shape' : 'rule';
          expect(got, `${JSON.stringify(value)} -> ${v.type === 'illegal' ? v.detail : 'applied'}`).toBe(expected);
          seen[got]++;
        }),
        { numRuns: 800 },
      );
      expect(seen.applied).toBeGreaterThan(0);
      expect(seen.shape).toBeGreaterThan(0);
      if (kind !== 'trade') expect(seen.rule).toBeGreaterThan(0); // every well-formed trade answer is legal
    },
  );

  it('the edge cases of issue 8 come out the same in both layers', () => {
    const cases: Array<[DecisionKind, unknown, boolean]> = [
      ['bandit', { hex: 3, victim: null }, false],
      ['trade', { accept: true, talk: null }, false],
      ['turn', { type: 'play_windfall', take: { brick: 3 } }, false],
      ['turn', { type: 'end_turn', debug: 1 }, true],
      ['discard', { cards: { ore: 1, gold: 1 } }, false],
      ['turn', { type: 'play_roadworks', edges: [4, 4] }, true],
      ['discard', { cards: { ore: 5000 } }, false],
      ['discard', { cards: { ore: 1000 } }, true],
      // Characters are code points, as JSON Schema's maxLength and Python's len count them: 240 emoji are 480 UTF-16
      // units.
      ['trade', { accept: true, talk: '\u{1F600}'.repeat(240) }, true],
      ['trade', { accept: true, talk: '\u{1F600}'.repeat(241) }, false],
      ['bandit', { hex: 3, talk: `${'x'.repeat(239)}\u{1F600}` }, true],
    ];
    for (const [kind, value, ok] of cases) {
      expect(ActionSchemaByKind[kind].safeParse(value).success, JSON.stringify(value)).toBe(ok);
      expect(parseAnswer(kind, value).ok, JSON.stringify(value)).toBe(ok);
    }
  });
});
