// Bundles the CLI (and the benchmarks) with esbuild into dist/.
// Why a bundle: under a loader such as tsx every imported binding is read
// through a getter, which costs the engine's hot loop about 3x; a bundle
// flattens modules into plain variables. Dependencies stay external.
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { inputsFile } from './bundle-fresh.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const ENTRIES = {
  arena: join(root, 'src/cli/main.ts'),
  bench: join(root, 'bench/run.ts'),
};

export async function buildAll({ quiet = false } = {}) {
  // Before esbuild reads anything: a file saved during the build counts as newer.
  // Whole milliseconds, as mtimes on some file systems are.
  const startedAt = Math.floor(Date.now());
  const result = await build({
    write: false,
    absWorkingDir: root,
    metafile: true,
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
  const atomicWrite = (path, contents) => {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, contents);
    renameSync(tmp, path);
  };
  for (const file of result.outputFiles) atomicWrite(file.path, file.contents);
  // What each bundle is made of, for bin/arena's staleness check (bundle-fresh.mjs).
  for (const name of Object.keys(ENTRIES)) {
    const output = result.metafile.outputs[relative(root, join(root, 'dist', `${name}.mjs`))];
    if (!output) throw new Error(`esbuild produced no dist/${name}.mjs`);
    atomicWrite(inputsFile(root, name), JSON.stringify({ startedAt, inputs: Object.keys(output.inputs).sort() }, null, 1) + '\n');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildAll();
}
