import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/main';
import { processIO } from '../../src/cli/io';
import { renderManPages } from '../../src/cli/manpage';
import pkg from '../../package.json' with { type: 'json' };

const root = join(__dirname, '..', '..');
const manDir = join(root, 'man');

// Variables that decide where arena keeps its files; the pages must not show any of them.
const ODD_ENV = {
  HOME: '/nonexistent/home',
  XDG_CONFIG_HOME: '/nonexistent/xdg',
  ARENA_CONFIG_DIR: '/nonexistent/arena-config',
};

/** Renders the pages with these variables set in process.env and in the IO the commands get. */
function renderWith(env: Record<string, string | undefined>) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  try {
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    return renderManPages(buildProgram({ ...processIO(), env: { ...process.env } }), pkg.version);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

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
    const onDisk = readdirSync(manDir)
      .filter((f) => f.endsWith('.1'))
      .sort();
    expect(onDisk).toEqual(pages.map((p) => p.file).sort());
    for (const p of pages) {
      const file = join(manDir, p.file);
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file, 'utf8'), `${p.file} is stale: run npm run man`).toBe(p.content);
    }
  });

  it('do not depend on who generates them: HOME, XDG_CONFIG_HOME and ARENA_CONFIG_DIR change nothing', () => {
    const odd = renderWith(ODD_ENV);
    const unset = renderWith({ HOME: undefined, XDG_CONFIG_HOME: undefined, ARENA_CONFIG_DIR: undefined });
    for (const set of [odd, unset]) {
      expect(set.map((p) => p.file)).toEqual(pages.map((p) => p.file));
      set.forEach((p, i) => expect(p.content, p.file).toBe(pages[i].content));
    }
    for (const p of odd) expect(p.content).not.toContain('/nonexistent');
  });

  it('`npm run man -- --check` passes with those variables set, and writes nothing', async () => {
    const before = readdirSync(manDir).map((f) => [f, readFileSync(join(manDir, f), 'utf8')]);
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/man.ts', '--check'], {
        cwd: root,
        env: { PATH: process.env.PATH, ...ODD_ENV },
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(r.stderr).toMatch(/pages current/);
    expect(r.code).toBe(0);
    expect(readdirSync(manDir).map((f) => [f, readFileSync(join(manDir, f), 'utf8')])).toEqual(before);
  });
});
