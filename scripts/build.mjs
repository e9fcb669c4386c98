// Bundles the CLI (and the benchmarks) with esbuild into dist/.
// Why a bundle: under a loader such as tsx every imported binding is read
// through a getter, which costs the engine's hot loop about 3x; a bundle
// flattens modules into plain variables. Dependencies stay external.
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const ENTRIES = {
  arena: join(root, 'src/cli/main.ts'),
  bench: join(root, 'bench/run.ts'),
};

export async function buildAll({ quiet = false } = {}) {
  const result = await build({
    write: false,
    entryPoints: ENTRIES,
    outdir: join(root, 'dist'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    sourcemap: 'linked',
    logLevel: quiet ? 'error' : 'warning',
    // Lets bundled code that uses require() (via createRequire) keep working.
    banner: { js: "import { createRequire as __arenaRequire } from 'node:module'; const require = __arenaRequire(import.meta.url);" },
  });
  // Write each file to a temporary name, then rename: several `arena` processes
  // may rebuild at once, and none may ever import a half-written bundle.
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (const file of result.outputFiles) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(tmp, file.contents);
    renameSync(tmp, file.path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildAll();
}
