// `npm run docs`: regenerates the generated parts of docs/ from the engine's
// constants and the zod schemas (see src/docs/generate.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedDocs } from '../src/docs/generate';

const root = join(import.meta.dirname, '..');
const files = generatedDocs();
for (const [rel, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}
process.stderr.write(`docs: wrote ${Object.keys(files).length} files\n`);
