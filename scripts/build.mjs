// Bundles the CLI, the benchmarks, the package's library entry points
// (engine, protocol) and the example bots with esbuild into dist/.
// Why a bundle: under a loader such as tsx every imported binding is read
// through a getter, which costs the engine's hot loop about 3x; a bundle
// flattens modules into plain variables. Dependencies stay external (npm
// installs them), but for commander and zod in the programs (arena, bench,
// the example bots): inlined, they cost no package lookups at start-up, and
// zod alone is some 60 ES modules (about 95 ms to import on its own). The
// library entries (engine, protocol) keep zod external, so a user's schemas
// and ours share one zod; they are a second esbuild build. scripts/build-binary.mjs
// makes the self-contained binary.
//
// Code splitting: each command imports its heavy modules with `await
// import()` when it runs, and esbuild turns those into chunks
// (dist/chunks/*.mjs) that load only then, so `arena --help` parses the
// command definitions and nothing else.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { inputsFile } from './bundle-fresh.mjs';
import { oneStartChunk } from './one-start-chunk.mjs';
import { zodEnglishOnly } from './zod-english-only.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** dist/arena.mjs, the command line: a build of its own (see one-start-chunk.mjs). */
const CLI = { arena: 'src/cli/main.ts' };

/** dist/<name>.mjs for each other program entry. */
const PROGRAMS = {
  bench: 'bench/run.ts',
  // What `arena demo` runs when no TypeScript loader is installed (src/cli/example-bot-command.ts).
  'examples/starter-bot': 'examples/starter-bot/bot.ts',
  'examples/heuristic-bot': 'examples/heuristic-bot/bot.ts',
};

/** `import ... from 'bot-arena/engine'` and 'bot-arena/protocol' in an installed package. */
const LIBRARIES = {
  engine: 'engine/index.ts',
  protocol: 'src/protocol/index.ts',
};

/** dist/<name>.mjs for each entry. */
export const ENTRIES = { ...CLI, ...PROGRAMS, ...LIBRARIES };

/**
 * The worker thread of `arena simulate --workers` (src/sim/parallel.ts), one
 * self-contained CommonJS script: the bundle starts it as a file, the single
 * executable as code it carries. `arena` runs it, so it counts among arena's
 * inputs. `out` must match SIM_WORKER_SCRIPT in src/cli/sim-worker-script.ts,
 * where the CLI looks for it.
 */
export const SIM_WORKER = { entry: 'src/sim/worker-main.ts', out: 'dist/sim-worker.cjs' };

export function simWorkerOptions(outfile, extra = {}) {
  return {
    absWorkingDir: root,
    entryPoints: [join(root, SIM_WORKER.entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    metafile: true,
    ...extra,
  };
}

/** Packages the programs inline (see above); npm installs the rest. */
const INLINED_IN_PROGRAMS = ['commander', 'zod'];

/** Packages left to npm: every dependency but those inlined. */
function externalPackages(inlined) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !inlined.includes(name));
}

/**
 * Chunks no current build refers to are removed after this long: a process started before a rebuild may still import
 * them.
 */
const KEEP_OLD_CHUNKS_MS = 10 * 60_000;

/** The commit the build is made from, for `arena --version`; "unknown" outside a git checkout. */
export function buildCommit(dir = root) {
  try {
    return (
      execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || 'unknown'
    );
  } catch {
    return 'unknown';
  }
}

export async function buildAll({ quiet = false } = {}) {
  // Before esbuild reads anything: a file saved during the build counts as newer.
  // Whole milliseconds, as mtimes on some file systems are.
  const startedAt = Math.floor(Date.now());
  const options = (entries, inlined, extra = {}) => ({
    ...extra,
    write: false,
    absWorkingDir: root,
    metafile: true,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, src]) => [name, join(root, src)])),
    outdir: join(root, 'dist'),
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: externalPackages(inlined),
    jsx: 'automatic',
    sourcemap: 'linked',
    define: { __ARENA_COMMIT__: JSON.stringify(buildCommit()) },
    logLevel: quiet ? 'error' : 'warning',
    // Lets bundled code that uses require() (via createRequire) keep working.
    banner: {
      js: "import { createRequire as __arenaRequire } from 'node:module'; const require = __arenaRequire(import.meta.url);",
    },
  });
  // The programs without comments and blanks: V8 parses every byte of a module at
  // start-up (zod and commander are mostly doc comments); names stay, and the
  // linked source maps give positions (node --enable-source-maps).
  const program = (entries, plugins = []) =>
    options(entries, INLINED_IN_PROGRAMS, {
      plugins: [zodEnglishOnly(), ...plugins],
      minifyWhitespace: true,
      minifySyntax: true,
    });
  const cliStart = await oneStartChunk(build, program(CLI), root, CLI.arena);
  const builds = await Promise.all([
    build(program(CLI, [cliStart])),
    build(program(PROGRAMS)),
    build(options(LIBRARIES, ['commander'])),
    build(
      simWorkerOptions(join(root, SIM_WORKER.out), {
        write: false,
        sourcemap: 'linked',
        logLevel: quiet ? 'error' : 'warning',
      }),
    ),
  ]);
  const workerInputs = Object.keys(builds[3].metafile.inputs);
  // The builds name their chunks by content hash, so they never collide in dist/chunks/.
  const result = {
    outputFiles: builds.flatMap((b) => b.outputFiles),
    metafile: { outputs: Object.assign({}, ...builds.map((b) => b.metafile.outputs)) },
  };
  // Write each file to a temporary name, then rename: several `arena` processes
  // may rebuild at once, and none may ever import a half-written file. Chunks
  // first (their names are content hashes, so a concurrent build writes the
  // same bytes), then the entries that import them.
  mkdirSync(join(root, 'dist', 'chunks'), { recursive: true });
  mkdirSync(join(root, 'dist', 'examples'), { recursive: true });
  const atomicWrite = (path, contents) => {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, contents);
    renameSync(tmp, path);
  };
  const isChunk = (path) => relative(join(root, 'dist'), path).startsWith('chunks');
  for (const file of result.outputFiles.filter((f) => isChunk(f.path))) atomicWrite(file.path, file.contents);
  for (const file of result.outputFiles.filter((f) => !isChunk(f.path))) atomicWrite(file.path, file.contents);
  pruneOldChunks(new Set(result.outputFiles.map((f) => f.path)));
  // What each bundle is made of, for bin/arena's staleness check (bundle-fresh.mjs),
  // and which source files each of its output files holds (dist/<name>.outputs.json,
  // for test/e2e/package-lazy-load.test.ts).
  const outputs = result.metafile.outputs;
  for (const name of Object.keys(ENTRIES)) {
    const entry = `dist/${name}.mjs`;
    if (!outputs[entry]) throw new Error(`esbuild produced no ${entry}`);
    const files = reachable(outputs, entry);
    const inputs = [
      ...new Set([...files.flatMap((f) => Object.keys(outputs[f].inputs)), ...(name === 'arena' ? workerInputs : [])]),
    ].sort();
    const chunks = Object.fromEntries(files.map((f) => [f, Object.keys(outputs[f].inputs).sort()]));
    atomicWrite(inputsFile(root, name), JSON.stringify({ startedAt, inputs }, null, 1) + '\n');
    atomicWrite(join(root, 'dist', `${name}.outputs.json`), JSON.stringify(chunks, null, 1) + '\n');
  }
}

/** The entry and every output file it imports, statically or with import(), transitively. */
function reachable(outputs, entry) {
  const seen = new Set([entry]);
  const todo = [entry];
  while (todo.length) {
    for (const imp of outputs[todo.pop()].imports) {
      if (imp.external || !outputs[imp.path] || seen.has(imp.path)) continue;
      seen.add(imp.path);
      todo.push(imp.path);
    }
  }
  return [...seen].sort();
}

/**
 * Removes chunks of earlier builds once they are old enough, and names the
 * rest in dist/chunks/.npmignore so that `npm pack` ships this build's chunks
 * only (package.json "files" takes dist/chunks/*.mjs).
 */
function pruneOldChunks(current) {
  const dir = join(root, 'dist', 'chunks');
  const now = Date.now();
  const kept = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (current.has(path) || name === '.npmignore' || name.endsWith('.tmp')) continue;
    try {
      if (now - statSync(path).mtimeMs > KEEP_OLD_CHUNKS_MS) unlinkSync(path);
      else kept.push(name);
    } catch {
      // another build removed it first
    }
  }
  const ignore = join(dir, '.npmignore');
  const tmp = `${ignore}.${process.pid}.tmp`;
  writeFileSync(
    tmp,
    ['# Chunks of earlier builds, kept a while for processes still running them; not packed.', ...kept.sort()].join(
      '\n',
    ) + '\n',
  );
  renameSync(tmp, ignore);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildAll();
}
