// `npm run man`: regenerates man/*.1 from the CLI definitions.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../src/cli/main';
import { renderManPages } from '../src/cli/manpage';
import pkg from '../package.json' with { type: 'json' };

const dir = join(import.meta.dirname, '..', 'man');
mkdirSync(dir, { recursive: true });
for (const f of readdirSync(dir)) if (f.endsWith('.1')) rmSync(join(dir, f));
const pages = renderManPages(buildProgram(), pkg.version);
for (const p of pages) writeFileSync(join(dir, p.file), p.content);
process.stderr.write(`man: wrote ${pages.length} pages to man/\n`);
