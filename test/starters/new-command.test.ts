// `arena new LANG DIR` in this process: what it writes (the examples' files,
// byte for byte, but for the TypeScript starter's dependency on this package),
// what it prints, and its refusals, which write nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };
import { boardData } from '../../engine/board-data';
import { runCli } from '../support/run-cli';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'arena-new-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DIRS = { python: 'python-bot', typescript: 'starter-bot', javascript: 'javascript-bot', go: 'go-bot' } as const;

/** The files a starter ships: git's view of examples/<dir> (nothing a working copy installed or built). */
function shipped(dir: string): string[] {
  return readdirSync(join(ROOT, 'examples', dir))
    .filter(
      (f) => !['node_modules', 'package-lock.json', '__pycache__', 'bot', 'go.sum'].includes(f) && !f.startsWith('.'),
    )
    .sort();
}

describe('arena new', () => {
  it('--list names the four languages, one line each', async () => {
    const r = await runCli(['new', '--list']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['python', 'typescript', 'javascript', 'go']);
  });

  for (const [lang, dir] of Object.entries(DIRS)) {
    it(`${lang}: writes examples/${dir} into a new directory (parents made) and prints the run and check commands`, async () => {
      const target = join(tmp, lang, 'nested', 'my-bot');
      const r = await runCli(['new', lang, target], { cwd: tmp, env: { PATH: '/usr/local/bin' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const files = readdirSync(target).sort();
      expect(files).toEqual(shipped(dir));
      expect(files).toContain('README.md');
      for (const f of files) {
        const written = readFileSync(join(target, f), 'utf8');
        const source = readFileSync(join(ROOT, 'examples', dir, f), 'utf8');
        if (lang === 'typescript' && f === 'package.json') {
          // The only change: the checkout's path becomes the package's name and version.
          const got = JSON.parse(written) as { dependencies: Record<string, string> };
          const want = JSON.parse(source) as { dependencies: Record<string, string> };
          expect(want.dependencies['bot-arena']).toBe('file:../..');
          expect(got).toEqual({ ...want, dependencies: { ...want.dependencies, 'bot-arena': `^${pkg.version}` } });
        } else {
          expect(written, f).toBe(source);
        }
      }
      const lines = r.stdout.trim().split('\n');
      expect(lines.at(-2)).toMatch(new RegExp(`^  cd ${target.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} && `));
      expect(lines.at(-1)).toMatch(/^ {2}(npx )?arena bot check http:\/\/127\.0\.0\.1:8080$/);
      // The README says the same two commands.
      const readme = readFileSync(join(target, 'README.md'), 'utf8');
      expect(readme).toContain('bot check http://127.0.0.1:8080');
      expect(readme).toMatch(/--port 8080/);
    });
  }

  it('the new starters ship the board exactly as `arena board --json` prints it', () => {
    for (const dir of ['javascript-bot', 'go-bot']) {
      expect(JSON.parse(readFileSync(join(ROOT, 'examples', dir, 'board.json'), 'utf8'))).toEqual(
        JSON.parse(JSON.stringify(boardData())),
      );
    }
  });

  it('an empty existing directory is fine', async () => {
    const target = join(tmp, 'empty');
    mkdirSync(target);
    const r = await runCli(['new', 'javascript', target], { cwd: tmp });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(target)).toContain('bot.mjs');
  });

  it('refuses a non-empty directory with one line, exit 2, and writes nothing', async () => {
    const target = join(tmp, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'mine.txt'), 'keep');
    const r = await runCli(['new', 'go', target], { cwd: tmp });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`arena: ${target} is not empty: arena new writes into a new or empty directory\n`);
    expect(r.stdout).toBe('');
    expect(readdirSync(target)).toEqual(['mine.txt']);
  });

  it("refuses a file in the directory's place", async () => {
    const target = join(tmp, 'a-file');
    writeFileSync(target, 'x');
    const r = await runCli(['new', 'go', target], { cwd: tmp });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('is not a directory');
    expect(readFileSync(target, 'utf8')).toBe('x');
  });

  it('refuses an unknown language with one line, exit 2, and creates no directory', async () => {
    const target = join(tmp, 'rusty');
    const r = await runCli(['new', 'rust', target], { cwd: tmp });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('arena: no "rust" starter; the languages are python, typescript, javascript, go\n');
    expect(existsSync(target)).toBe(false);
  });

  it('without a language and a directory: a usage error', async () => {
    const r = await runCli(['new', 'go'], { cwd: tmp });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('arena new LANG DIR');
  });
});
