// Users have docs/rules.md, docs/protocol.md and `arena rules`, not the spec
// the project was built from: nothing they read may send them to "the spec".
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main';
import { renderManPages } from '../../src/cli/manpage';
import { jsonSchema, PUBLISHED_SCHEMA_NAMES } from '../../src/protocol/json-schema';
import pkg from '../../package.json' with { type: 'json' };

const root = join(__dirname, '..', '..');
const SPEC = /\bspec\b/i;

/** The lines of `text` that mention the spec, prefixed with where they are. */
function mentions(where: string, text: string): string[] {
  return text
    .split('\n')
    .filter((l) => SPEC.test(l))
    .map((l) => `${where}: ${l.trim()}`);
}

describe('no help, schema or man page cites "the spec"', () => {
  it("every command's --help (the man pages render the full help of each)", () => {
    const pages = renderManPages(buildProgram(), pkg.version);
    expect(pages.length).toBeGreaterThan(30);
    expect(pages.flatMap((p) => mentions(p.file, p.content))).toEqual([]);
  });

  it('every published JSON Schema, as `arena schema` prints it and as docs/schema ships it', () => {
    const found = PUBLISHED_SCHEMA_NAMES.flatMap((n) => [
      ...mentions(`arena schema ${n}`, JSON.stringify(jsonSchema(n), null, 2)),
      ...mentions(`docs/schema/${n}.json`, readFileSync(join(root, 'docs/schema', `${n}.json`), 'utf8')),
    ]);
    expect(found).toEqual([]);
  });

  it('the man pages on disk and the user docs', () => {
    const man = readdirSync(join(root, 'man')).filter((f) => f.endsWith('.1'));
    expect(man.length).toBeGreaterThan(30);
    const files = [...man.map((f) => `man/${f}`), 'docs/rules.md', 'docs/protocol.md'];
    expect(files.flatMap((f) => mentions(f, readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });

  it('the check itself finds a mention', () => {
    expect(mentions('x', "a\nsee the spec's rules\nspecify")).toEqual(["x: see the spec's rules"]);
  });
});
