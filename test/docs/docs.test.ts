// docs/ says what the engine does: its tables come from the engine's
// constants, its examples from real positions, its schemas from the zod
// schemas. A change to any of them without `npm run docs` fails here.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rulesData } from '../../engine/rules-data';
import { submit } from '../../engine/index';
import { generatedDocs } from '../../src/docs/generate';
import { protocolExamples } from '../../src/docs/protocol-examples';
import { fillBlocks, rulesBlocks } from '../../src/docs/rules-tables';
import { DecisionRequestSchema, DecisionResponseSchema } from '../../src/protocol/index';
import { PUBLISHED_SCHEMA_NAMES } from '../../src/protocol/json-schema';

const root = join(__dirname, '..', '..');

describe('generated docs', () => {
  const files = generatedDocs();

  it('are current on disk (run `npm run docs` after changing the engine or a schema)', () => {
    for (const [rel, content] of Object.entries(files)) {
      expect(existsSync(join(root, rel)), `${rel} is missing: run npm run docs`).toBe(true);
      expect(readFileSync(join(root, rel), 'utf8'), `${rel} is stale: run npm run docs`).toBe(content);
    }
    const schemas = readdirSync(join(root, 'docs/schema')).sort();
    expect(schemas).toEqual(PUBLISHED_SCHEMA_NAMES.map((n) => `${n}.json`).sort());
  });

  it('fill every table of the rules from the engine, and a changed constant changes the document', () => {
    const rules = files['docs/rules.md'];
    const data = rulesData();
    for (const r of data.rejections) expect(rules).toContain(`| \`${r.code}\` | ${r.meaning} |`);
    expect(rules).toContain(`| road | 1 brick, 1 lumber | ${data.pieceLimits.road} |`);
    expect(rules).toContain('| `knight` | 14 |');
    const tampered = fillBlocks(rules, { ...rulesBlocks(), costs: 'nothing' });
    expect(tampered).not.toBe(rules);
    expect(() => fillBlocks('<!-- generated:nope -->\n<!-- /generated -->', {})).toThrow(
      /no generated block named "nope"/,
    );
  });
});

describe('protocol examples', () => {
  const examples = protocolExamples();

  it('cover every decision kind with a valid request and a legal answer in that very position', () => {
    expect(examples.map((e) => e.kind)).toEqual(['setup', 'turn', 'discard', 'bandit', 'trade']);
    for (const e of examples) {
      expect(DecisionRequestSchema.parse(e.request)).toBeTruthy();
      expect(DecisionResponseSchema.parse(e.answer).id).toBe(e.request.id);
      const r = submit(e.game, e.request.seat, e.answer.action);
      expect(r.ok, `${e.kind}: ${JSON.stringify(r)}`).toBe(true);
    }
  });

  it('are what docs/protocol.md shows', () => {
    const doc = readFileSync(join(root, 'docs/protocol.md'), 'utf8');
    for (const e of examples) expect(doc).toContain(`"kind": "${e.kind}"`);
  });
});
