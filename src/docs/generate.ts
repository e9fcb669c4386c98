// Everything under docs/ that is generated, as {path: content}: the tables of
// docs/rules.md, the examples of docs/protocol.md, and docs/schema/*.json.
// `npm run docs` writes them; a test checks the files on disk are current.
import { jsonSchema, PUBLISHED_SCHEMA_NAMES } from '../protocol/json-schema';
import { readPackageFile } from './package-files';
import { protocolExamplesBlock } from './protocol-examples';
import { fillBlocks, rulesBlocks } from './rules-tables';

export function generatedDocs(): Record<string, string> {
  const out: Record<string, string> = {
    'docs/rules.md': fillBlocks(readPackageFile('docs/rules.md'), rulesBlocks()),
    'docs/protocol.md': fillBlocks(readPackageFile('docs/protocol.md'), { examples: protocolExamplesBlock() }),
  };
  for (const name of PUBLISHED_SCHEMA_NAMES)
    out[`docs/schema/${name}.json`] = `${JSON.stringify(jsonSchema(name), null, 2)}\n`;
  return out;
}
