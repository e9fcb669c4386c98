// `npm run man`: regenerates man/*.1 from the CLI definitions, and lists them
// in package.json "man" (what `npm install -g` links, so `man arena-play` works).
// `npm run man -- --check`: exits 1 naming the pages that are stale, writes nothing.
// The pages must not depend on who generates them: help text never names the
// caller's paths or environment (test/cli/manpages.test.ts runs this with odd ones).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../src/cli/main';
import { renderManPages } from '../src/cli/manpage';
import pkg from '../package.json' with { type: 'json' };

const dir = join(import.meta.dirname, '..', 'man');
const pages = renderManPages(buildProgram(), pkg.version);
const pkgFile = join(import.meta.dirname, '..', 'package.json');
const manList = pages.map((p) => `./man/${p.file}`).sort();
const listed = (): string[] => (JSON.parse(readFileSync(pkgFile, 'utf8')) as { man?: string[] }).man ?? [];
const listCurrent = () => JSON.stringify(listed()) === JSON.stringify(manList);

if (process.argv.includes('--check')) {
  const onDisk = readdirSync(dir).filter((f) => f.endsWith('.1'));
  const stale = pages
    .filter((p) => !onDisk.includes(p.file) || readFileSync(join(dir, p.file), 'utf8') !== p.content)
    .map((p) => p.file);
  const extra = onDisk.filter((f) => !pages.some((p) => p.file === f));
  const unlisted = listCurrent() ? [] : ['package.json "man"'];
  if (stale.length || extra.length || unlisted.length) {
    process.stderr.write(
      `man: stale: ${[...stale, ...extra.map((f) => `${f} (no such command)`), ...unlisted].join(', ')}; run npm run man\n`,
    );
    process.exitCode = 1;
  } else {
    process.stderr.write(`man: ${pages.length} pages current\n`);
  }
} else {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.1')) rmSync(join(dir, f));
  for (const p of pages) writeFileSync(join(dir, p.file), p.content);
  if (!listCurrent()) {
    const json = JSON.parse(readFileSync(pkgFile, 'utf8')) as Record<string, unknown>;
    json.man = manList;
    writeFileSync(pkgFile, `${JSON.stringify(json, null, 2)}\n`);
  }
  process.stderr.write(`man: wrote ${pages.length} pages to man/\n`);
}
