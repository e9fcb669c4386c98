// TypeScript declarations for the package's library entry points
// (`bot-arena/engine`, `bot-arena/protocol`) into dist/types/, run at prepack.
// tsc keeps the sources' extensionless relative imports ('./board'), which a
// consumer resolving as Node does (moduleResolution node16/nodenext, an ESM
// package) cannot follow, so each one is rewritten to the file it names
// ('./board.js', './rules/index.js').
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const TYPES_DIR = join(root, 'dist', 'types');
const ENTRIES = ['engine/index.ts', 'src/protocol/index.ts'];

export function buildTypes() {
  rmSync(TYPES_DIR, { recursive: true, force: true });
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(
    process.execPath,
    [
      tsc,
      '--declaration',
      '--emitDeclarationOnly',
      '--noEmit',
      'false',
      '--outDir',
      TYPES_DIR,
      '--rootDir',
      root,
      '--target',
      'es2022',
      '--module',
      'esnext',
      '--moduleResolution',
      'bundler',
      '--strict',
      '--skipLibCheck',
      '--types',
      'node',
      '--resolveJsonModule',
      '--isolatedModules',
      '--verbatimModuleSyntax',
      ...ENTRIES.map((e) => join(root, e)),
    ],
    { cwd: root, stdio: 'inherit' },
  );
  for (const file of walk(TYPES_DIR)) {
    const text = readFileSync(file, 'utf8');
    const fixed = text.replace(
      /(from\s+|import\()(['"])(\.{1,2}\/[^'"]*)\2/g,
      (m, lead, quote, spec) => `${lead}${quote}${withExtension(file, spec)}${quote}`,
    );
    if (fixed !== text) writeFileSync(file, fixed);
  }
}

function withExtension(file, spec) {
  if (/\.(js|mjs|json)$/.test(spec)) return spec;
  const target = resolve(dirname(file), spec);
  if (existsSync(`${target}.d.ts`)) return `${spec}.js`;
  if (existsSync(join(target, 'index.d.ts'))) return `${spec}/index.js`;
  throw new Error(`build-types: ${file} imports ${spec}, which has no declaration file`);
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.name.endsWith('.d.ts')) yield path;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildTypes();
}
