// Start-up: each command loads only what it uses. The bundle is split by
// esbuild at every `await import()`, so a command's heavy modules sit in
// chunks that load only when its action runs. This runs the real launcher
// with a loader hook that records every module Node loads, and maps each
// loaded file of dist/ back to the sources esbuild put in it.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TRACE = fileURLToPath(new URL('./support/trace-loads.mjs', import.meta.url));

interface Loaded {
  code: number | null;
  stdout: string;
  stderr: string;
  /** npm packages loaded, by name. */
  packages: string[];
  /** Source files (relative to the repository) inside the dist/ files that were loaded. */
  sources: string[];
}

function run(args: string[]): Loaded {
  const dir = mkdtempSync(join(tmpdir(), 'arena-lazy-'));
  try {
    const traceFile = join(dir, 'trace.txt');
    writeFileSync(traceFile, '');
    const r = spawnSync(process.execPath, ['--import', TRACE, join(ROOT, 'bin', 'arena'), ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        NODE_OPTIONS: '',
        HOME: dir,
        ARENA_CONFIG_DIR: join(dir, 'config'),
        ARENA_TRACE_FILE: traceFile,
      },
    });
    const urls = readFileSync(traceFile, 'utf8')
      .split('\n')
      .filter((u) => u.startsWith('file:'));
    const files = urls.map((u) => fileURLToPath(u));
    const packages = new Set<string>();
    for (const f of files) {
      const m = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(f);
      if (m) packages.add(m[1].split(sep).join('/'));
    }
    // Read after the run: the launcher rebuilds dist/ if a source changed meanwhile.
    const outputs = JSON.parse(readFileSync(join(ROOT, 'dist', 'arena.outputs.json'), 'utf8')) as Record<
      string,
      string[]
    >;
    const sources = new Set<string>();
    for (const f of files) {
      const rel = relative(ROOT, f).split(sep).join('/');
      for (const input of outputs[rel] ?? []) sources.add(input);
    }
    // Packages the bundle inlines (commander, zod) show up as its sources.
    for (const s of sources) {
      const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s);
      if (m) packages.add(m[1]);
    }
    return {
      code: r.status,
      stdout: r.stdout,
      stderr: r.stderr,
      packages: [...packages].sort(),
      sources: [...sources].sort(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const HEAVY_PACKAGES = ['ink', 'react', 'undici', 'openskill', 'string-width'];
/**
 * The TUI (but for the two constants replay's help names), the view schemas, the
 * tournament's ratings and the HTTP client: none is needed to print help or a public key.
 */
const HEAVY_SOURCES = [
  /^src\/tui\/(?!plain-width\.ts$|record-limits\.ts$)/,
  /^src\/protocol\/view\.ts$/,
  /^src\/arena\/ratings\.ts$/,
  /^src\/client\/signed-request\.ts$/,
];

function expectLight(r: Loaded): void {
  expect(r.code, r.stderr).toBe(0);
  expect(r.packages.filter((p) => HEAVY_PACKAGES.includes(p))).toEqual([]);
  expect(r.sources.filter((s) => HEAVY_SOURCES.some((re) => re.test(s)))).toEqual([]);
  // The trace saw the command definitions themselves, so an empty list above means something.
  expect(r.sources).toContain('src/cli/main.ts');
}

describe('start-up loads only what the command uses', () => {
  it('arena --help loads no Ink, React, undici, openskill, view schemas or TUI', () => {
    const r = run(['--help']);
    expectLight(r);
    expect(r.stdout).toContain('Usage: arena');
  });

  it('arena play --help likewise', () => {
    const r = run(['play', '--help']);
    expectLight(r);
    expect(r.stdout).toContain('Usage: arena play');
  });

  it('arena keys public FILE likewise', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-lazy-key-'));
    try {
      const key = join(dir, 'key.pem');
      writeFileSync(key, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
      const r = run(['keys', 'public', key, '--format', 'raw']);
      expectLight(r);
      expect(Buffer.from(r.stdout.trim(), 'base64')).toHaveLength(32);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the trace does see heavy modules when a command needs them', () => {
    // `schema` prints JSON Schema from the zod view schemas; `board` draws with the TUI's renderer.
    const schema = run(['schema', 'PioneersView']);
    expect(schema.code, schema.stderr).toBe(0);
    expect(schema.packages).toContain('zod');
    expect(schema.sources).toContain('src/protocol/view.ts');
    const board = run(['board']);
    expect(board.code, board.stderr).toBe(0);
    expect(board.sources.some((s) => s.startsWith('src/tui/'))).toBe(true);
  });
});

describe('what the bundles carry', () => {
  const inputs = (name: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'dist', `${name}.inputs.json`), 'utf8')) as { inputs: string[] }).inputs;

  it('the CLI inlines zod with its English messages only (no package lookups, half the bytes to parse)', () => {
    const zod = inputs('arena').filter((f) => f.startsWith('node_modules/zod/'));
    expect(zod.length).toBeGreaterThan(20);
    expect(zod.filter((f) => f.includes('/locales/')).sort()).toEqual([
      'node_modules/zod/v4/locales/en.js',
      'node_modules/zod/v4/locales/index.js',
    ]);
    expect(readFileSync(join(ROOT, 'dist', 'arena.mjs'), 'utf8')).not.toMatch(/from ["']zod["']/);
  });

  it('a schema error still reads in English', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-lazy-zod-'));
    try {
      const bad = join(dir, 'bad.json');
      writeFileSync(
        bad,
        JSON.stringify({
          id: 'm-1',
          game: 'pioneers',
          status: 'completed',
          players: [{ seat: 0, botId: 'a', botName: 'a' }],
        }),
      );
      const r = run(['replay', '--plain', bad]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('is not a match record: player 0 has no "placement" (a number expected)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the protocol library imports the user's zod, so their schemas and ours mix", () => {
    expect(inputs('protocol').some((f) => f.startsWith('node_modules/zod/'))).toBe(false);
    expect(readFileSync(join(ROOT, 'dist', 'protocol.mjs'), 'utf8')).toMatch(/from ["']zod["']/);
  });
});
