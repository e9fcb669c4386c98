import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/main';
import { renderManPages } from '../../src/cli/manpage';
import pkg from '../../package.json' with { type: 'json' };

const manDir = join(__dirname, '..', '..', 'man');

describe('man pages', () => {
  const pages = renderManPages(buildProgram(), pkg.version);

  it('has one page per command, each with a NAME and the full help', () => {
    const names = pages.map((p) => p.file);
    expect(names).toContain('arena.1');
    expect(names).toContain('arena-simulate.1');
    for (const p of pages) {
      expect(p.content).toMatch(/^\.TH /);
      expect(p.content).toMatch(/\.SH NAME\n\S+ \\- \S/);
      expect(p.content).toContain('Usage: arena');
    }
  });

  it('are checked in and current (run `npm run man` after changing a command)', () => {
    const onDisk = readdirSync(manDir).filter((f) => f.endsWith('.1')).sort();
    expect(onDisk).toEqual(pages.map((p) => p.file).sort());
    for (const p of pages) {
      const file = join(manDir, p.file);
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file, 'utf8'), `${p.file} is stale: run npm run man`).toBe(p.content);
    }
  });
});
