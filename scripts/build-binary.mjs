// `npm run build:binary`: the single executable dist/arena-<platform>-<arch>
// (dist/arena-linux-x64 on Linux on x64), which holds Node itself, the whole
// program with every dependency, and the package files it reads (docs/, the
// starters `arena new` writes, and the dashboard's dist/web/ when it has been
// built), and runs where there is no Node and no node_modules.
//
// Node's own single executable applications (SEA): esbuild bundles
// src/cli/binary-main.ts into one CommonJS script (Node 20's SEA runs exactly
// one CJS script), `node --experimental-sea-config` turns it with the assets
// into a blob (with V8's code cache, so start-up skips most compiling), and
// postject writes the blob into a copy of the node binary that runs this
// script. No base binary is downloaded: the build uses the Node it runs on.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCommit, SIM_WORKER, simWorkerOptions } from './build.mjs';
import { zodEnglishOnly } from './zod-english-only.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The fuse Node's SEA support looks for in its own binary (the Node docs name it). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** Must match src/docs/package-files.ts ASSET_LIST. */
const ASSET_LIST = 'arena-assets.json';

export function binaryPath(platform = process.platform, arch = process.arch) {
  return join(root, 'dist', `arena-${platform}-${arch}${platform === 'win32' ? '.exe' : ''}`);
}

export async function buildBinary({ quiet = false } = {}) {
  const work = join(root, 'dist', 'binary');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const script = join(work, 'arena.cjs');
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'src', 'cli', 'binary-main.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    jsx: 'automatic',
    // Smaller is faster to load (the code cache is V8's compiled script).
    minify: true,
    // The SEA script's import() cannot load anything, not even node:fs:
    // esbuild turns every import() into require(), which loads built-ins.
    supported: { 'dynamic-import': false },
    legalComments: 'eof',
    logLevel: quiet ? 'error' : 'warning',
    define: {
      __ARENA_COMMIT__: JSON.stringify(buildCommit()),
      __ARENA_SEA__: 'true',
      // React and Ink in their production builds.
      'process.env.NODE_ENV': '"production"',
      // ws tries optional native add-ons, which a SEA cannot load (and warns about).
      'process.env.WS_NO_BUFFER_UTIL': '"1"',
      'process.env.WS_NO_UTF_8_VALIDATE': '"1"',
      // A CommonJS script has no import.meta; the module is the executable itself.
      'import.meta.url': '__arenaModuleUrl',
    },
    banner: { js: 'var __arenaModuleUrl = require("node:url").pathToFileURL(process.execPath).href;' },
    plugins: [seaCompat(), zodEnglishOnly()],
  });

  const simWorker = join(work, 'sim-worker.cjs');
  await build(
    simWorkerOptions(simWorker, { minify: true, legalComments: 'eof', logLevel: quiet ? 'error' : 'warning' }),
  );
  const assets = { ...packageAssets(), ...(await exampleBots(work, quiet)), [SIM_WORKER.out]: simWorker };
  const assetList = join(work, ASSET_LIST);
  writeFileSync(assetList, JSON.stringify(Object.keys(assets)));
  const blob = join(work, 'arena.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify(
      {
        main: script,
        output: blob,
        disableExperimentalSEAWarning: true,
        useCodeCache: true,
        assets: { ...assets, [ASSET_LIST]: assetList },
      },
      null,
      1,
    ),
  );
  // The blob must come from the same Node as the executable it goes into (the code cache is V8's).
  execFileSync(process.execPath, ['--experimental-sea-config', config], {
    cwd: root,
    stdio: quiet ? 'ignore' : 'inherit',
  });

  const out = binaryPath();
  const tmp = `${out}.${process.pid}.tmp`;
  copyFileSync(process.execPath, tmp);
  chmodSync(tmp, 0o755);
  const macos = process.platform === 'darwin';
  if (macos) execFileSync('codesign', ['--remove-signature', tmp]);
  const { inject } = require('postject');
  await inject(tmp, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: SEA_FUSE,
    machoSegmentName: macos ? 'NODE_SEA' : undefined,
  });
  if (macos) execFileSync('codesign', ['--sign', '-', tmp]);
  renameSync(tmp, out);
  if (!quiet)
    process.stderr.write(
      `build-binary: wrote ${relative(root, out)} (${Math.round(statSync(out).size / 1e6)} MB; ${Object.keys(assets).length} package files)\n`,
    );
  return out;
}

/**
 * The example bots `arena demo` starts, each one CommonJS bundle (ws inlined), as assets dist/examples/<name>-bot.cjs.
 */
async function exampleBots(work, quiet) {
  const assets = {};
  for (const name of ['starter', 'heuristic']) {
    const out = join(work, 'examples', `${name}-bot.cjs`);
    await build({
      absWorkingDir: root,
      entryPoints: [join(root, 'examples', `${name}-bot`, 'bot.ts')],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: true,
      legalComments: 'eof',
      logLevel: quiet ? 'error' : 'warning',
      supported: { 'dynamic-import': false },
      plugins: [exampleMainBlock()],
      define: {
        'process.env.WS_NO_BUFFER_UTIL': '"1"',
        'process.env.WS_NO_UTF_8_VALIDATE': '"1"',
        // Set by src/cli/binary-main.ts to argv[1]'s URL: the bot is the program.
        'import.meta.url': 'globalThis.__arenaExampleMain',
      },
    });
    assets[`dist/examples/${name}-bot.cjs`] = out;
  }
  return assets;
}

/**
 * An example bot runs itself with top-level await in its "run as a program"
 * block (it is ESM, and readable so); a CommonJS bundle has no top-level
 * await, so that block runs in an async function here instead. The bot file
 * must end with that block; anything else fails the build.
 */
function exampleMainBlock() {
  const opening = 'if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {';
  return {
    name: 'example-main-block',
    setup(b) {
      b.onLoad({ filter: /[\\/]examples[\\/][a-z-]+-bot[\\/]bot\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const at = text.lastIndexOf(`\n${opening}\n`);
        if (at < 0 || !text.trimEnd().endsWith('\n}'))
          throw new Error(`build-binary: ${args.path} no longer ends with its "${opening} ... }" block`);
        const end = text.trimEnd().length - 1;
        const contents = `${text.slice(0, at)}\n${opening}\n void (async () => {${text.slice(at + opening.length + 2, end)}})();\n}\n`;
        return { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * Package files the program reads, as SEA asset name -> file: docs/, and the
 * dashboard's current build (dist/web: what its manifest names) when there is one.
 */
function packageAssets() {
  const assets = {};
  const add = (file) => {
    assets[relative(root, file).split(sep).join('/')] = file;
  };
  for (const file of walk(join(root, 'docs'))) add(file);
  // The starters `arena new` writes (src/starters/catalog.ts), as shipped.
  for (const dir of STARTER_DIRS) for (const file of walk(join(root, dir), isStarterPart)) add(file);
  const web = join(root, 'dist', 'web');
  if (existsSync(join(web, 'manifest.json'))) {
    const manifest = JSON.parse(readFileSync(join(web, 'manifest.json'), 'utf8'));
    add(join(web, 'manifest.json'));
    add(join(web, 'index.html'));
    for (const rel of Object.keys(manifest.files ?? {})) {
      for (const suffix of ['', '.gz', '.br'])
        if (existsSync(join(web, `${rel}${suffix}`))) add(join(web, `${rel}${suffix}`));
    }
  }
  return assets;
}

/** Must match the dirs in src/starters/catalog.ts STARTERS. */
const STARTER_DIRS = ['examples/python-bot', 'examples/starter-bot', 'examples/javascript-bot', 'examples/go-bot'];
/** Must match isStarterFile in src/starters/catalog.ts: what a working copy installs or builds is not packed. */
const STARTER_SKIP = new Set(['node_modules', 'package-lock.json', '__pycache__', 'bot', 'runs', 'dist', 'go.sum']);
const isStarterPart = (name) => !name.startsWith('.') && !STARTER_SKIP.has(name) && !name.endsWith('.pyc');

function* walk(dir, keep = () => true) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (!keep(entry.name)) continue;
    if (entry.isDirectory()) yield* walk(path, keep);
    else if (!entry.name.endsWith('.tmp')) yield path;
  }
}

/**
 * What stands between two dependencies and one CommonJS script: top-level
 * await. yoga-layout (Ink's layout engine) awaits its WebAssembly at the top
 * of its entry; here it is compiled and instantiated synchronously instead
 * (Node allows that at any size), through Emscripten's instantiateWasm hook.
 * Ink awaits two imports when $DEV is "true" (React devtools); the binary
 * has no devtools, so those branches are cut. Each rewrite checks that the
 * code it replaces is still there, so an upgrade that changes it fails the
 * build instead of the binary.
 */
function seaCompat() {
  const rewrite = (file, text, pairs) => {
    for (const [from, to] of pairs) {
      if (!text.includes(from))
        throw new Error(`build-binary: ${file} changed; expected to find ${JSON.stringify(from)}`);
      text = text.replace(from, to);
    }
    return text;
  };
  return {
    name: 'sea-compat',
    setup(b) {
      b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (args) => {
        const wasmFile = join(dirname(args.path), '..', 'binaries', 'yoga-wasm-base64-esm.js');
        const base64 = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(
          readFileSync(wasmFile, 'utf8'),
        )?.[1];
        if (!base64) throw new Error(`build-binary: no WebAssembly found in ${wasmFile}`);
        const contents = rewrite(args.path, readFileSync(args.path, 'utf8'), [
          [
            'const Yoga = wrapAssembly(await loadYoga());',
            `const yogaModule = {
  instantiateWasm(imports, receive) {
    const module = new WebAssembly.Module(Buffer.from(${JSON.stringify(base64)}, 'base64'));
    const instance = new WebAssembly.Instance(module, imports);
    receive(instance, module);
    return instance.exports;
  },
};
loadYoga(yogaModule);
if (!yogaModule.calledRun) throw new Error('yoga-layout did not start synchronously');
const Yoga = wrapAssembly(yogaModule);`,
          ],
        ]);
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
      b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
        const contents = rewrite(args.path, readFileSync(args.path, 'utf8'), [
          [
            "await import('./devtools.js');",
            "throw Object.assign(new Error('no React devtools in the arena binary'), { code: 'ERR_MODULE_NOT_FOUND' });",
          ],
          ['? await loadPackageJson()', '? { name: undefined, version: undefined }'],
        ]);
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildBinary();
}
