import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecisionResponseSchema } from '../../src/protocol';
import { classifyFrame } from '../../src/runner/answer-frame';

// classifyFrame skips the schema for answers that are plainly well-formed; this
// checks that it never accepts what the schema refuses, nor reads id/action differently.
describe('classifyFrame', () => {
  const idLike = fc.oneof(
    fc.integer({ min: -3, max: 5 }),
    fc.constantFrom(2 ** 53 - 1, 2 ** 53, -0, 1.5, Number.MAX_VALUE),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.constant([1]),
  );
  const frameLike = fc.oneof(
    fc.record({ id: idLike, action: fc.jsonValue() }, { requiredKeys: [] }),
    fc.record({ id: idLike, action: fc.jsonValue(), extra: fc.jsonValue() }, { requiredKeys: ['extra'] }),
    fc.record({ id: idLike, action: fc.jsonValue(), debug: fc.jsonValue() }, { requiredKeys: ['debug'] }),
    fc.jsonValue(),
  );

  it('agrees with DecisionResponseSchema on every JSON value', () => {
    fc.assert(
      fc.property(frameLike, fc.integer({ min: 0, max: 5 }), (value, pendingId) => {
        const text = JSON.stringify(value);
        const verdict = classifyFrame(text, false, pendingId, () => false);
        const schema = DecisionResponseSchema.safeParse(JSON.parse(text));
        if (!schema.success) {
          expect(verdict.type).toBe('malformed');
          if (verdict.type === 'malformed') expect(verdict.detail).toMatch(/^not a DecisionResponse/);
        } else if (schema.data.id === pendingId) {
          const want = schema.data.debug === undefined ? {} : { debug: schema.data.debug };
          expect(verdict).toEqual({ type: 'answer', id: pendingId, action: schema.data.action, ...want });
        } else {
          expect(verdict.type).toBe('malformed');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('carries a note of any type as sent (bounded later, never a strike)', () => {
    expect(classifyFrame('{"id":4,"action":{},"debug":"why"}', false, 4, () => false)).toEqual({
      type: 'answer',
      id: 4,
      action: {},
      debug: 'why',
    });
    expect(classifyFrame('{"id":4,"action":{},"debug":[1]}', false, 4, () => false)).toEqual({
      type: 'answer',
      id: 4,
      action: {},
      debug: [1],
    });
    expect(classifyFrame('{"id":4,"action":{}}', false, 4, () => false)).toEqual({ type: 'answer', id: 4, action: {} });
  });

  it('an answer for a past decision is stale, an unknown id malformed, binary and non-JSON malformed', () => {
    expect(classifyFrame('{"id":3,"action":{"type":"end_turn"}}', false, 4, (id) => id === 3)).toEqual({
      type: 'stale',
      id: 3,
    });
    expect(classifyFrame('{"id":9,"action":{}}', false, 4, () => false)).toMatchObject({
      type: 'malformed',
      detail: 'answer for unknown decision id 9 (expected 4)',
    });
    expect(classifyFrame(Buffer.from('{"id":4,"action":{}}'), true, 4, () => false)).toMatchObject({
      type: 'malformed',
    });
    expect(classifyFrame('{"id":4,', false, 4, () => false)).toMatchObject({
      type: 'malformed',
      detail: expect.stringMatching(/^not JSON/),
    });
    expect(classifyFrame('{"id":4}', false, 4, () => false)).toMatchObject({
      type: 'malformed',
      detail: expect.stringMatching(/action/),
    });
  });
});
