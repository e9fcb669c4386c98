// Bundles the dashboard (src/web, React DOM) with esbuild into dist/web/:
//   dist/web/assets/<name>-<hash>.{js,css}   content-hashed, served as immutable
//   dist/web/assets/*.gz, *.br               precompressed copies of the same bytes
//   dist/web/index.html                      the one HTML document (no inline script)
//   dist/web/manifest.json                   what `serve` loads (src/service/dashboard.ts)
// Several processes may build at once (parallel test files): hashed files have
// the same bytes whoever writes them, and index.html and manifest.json are
// replaced by rename, so a reader never sees a half-written build.
import { build } from 'esbuild';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, delimiter, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIR = join(root, 'dist', 'web');
const ENTRY = join(root, 'src', 'web', 'main.tsx');
const TEMPLATE = join(root, 'src', 'web', 'index.html');
/** Old hashed files stay this long after a newer build, for pages loaded before it. */
const KEEP_OLD_MS = 10 * 60_000;

function atomicWrite(path, contents) {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
}

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Builds dist/web. Returns the manifest. `quiet` silences esbuild's warnings.
 * NODE_PATH (as for node itself) adds directories to resolve packages from.
 */
export async function buildWeb({ quiet = false } = {}) {
  const startedAt = Math.floor(Date.now());
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: ENTRY },
    bundle: true,
    write: false,
    metafile: true,
    outdir: join(WEB_DIR, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    nodePaths: (process.env.NODE_PATH ?? '').split(delimiter).filter(Boolean),
    logLevel: quiet ? 'error' : 'warning',
  });
  const assetsDir = join(WEB_DIR, 'assets');
  mkdirSync(assetsDir, { recursive: true });
  const files = {};
  let js = null;
  let css = null;
  for (const out of result.outputFiles) {
    const name = basename(out.path);
    const path = join(assetsDir, name);
    if (!existsSync(path)) atomicWrite(path, out.contents);
    // Precompressed once here, so serving costs no CPU per request.
    const gz = gzipSync(out.contents, { level: 9 });
    const br = brotliCompressSync(out.contents, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
    if (!existsSync(`${path}.gz`)) atomicWrite(`${path}.gz`, gz);
    if (!existsSync(`${path}.br`)) atomicWrite(`${path}.br`, br);
    files[`/assets/${name}`] = { bytes: out.contents.length, gzip: gz.length, brotli: br.length };
    if (name.endsWith('.js')) js = `/assets/${name}`;
    if (name.endsWith('.css')) css = `/assets/${name}`;
  }
  if (!js || !css) throw new Error('build-web: esbuild produced no main .js or .css');
  const template = readFileSync(TEMPLATE, 'utf8');
  const html = template
    .replace('<!--css-->', `<link rel="stylesheet" href="${escapeAttr(css)}">`)
    .replace('<!--js-->', `<script type="module" src="${escapeAttr(js)}"></script>`);
  if (html.includes('<!--css-->') || html.includes('<!--js-->') || !html.includes(js))
    throw new Error('build-web: index.html template lacks <!--css--> or <!--js-->');
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes('node_modules'))
    .sort();
  const manifest = { builtAt: new Date(startedAt).toISOString(), startedAt, js, css, files, inputs };
  atomicWrite(join(WEB_DIR, 'index.html'), html);
  atomicWrite(join(WEB_DIR, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  pruneOld(assetsDir, new Set(Object.keys(files).map((f) => basename(f))));
  return manifest;
}

/** Removes hashed files of earlier builds once they are old enough that no page still loads them. */
function pruneOld(assetsDir, keep) {
  const now = Date.now();
  for (const name of readdirSync(assetsDir)) {
    const base = name.replace(/\.(gz|br)$/, '');
    if (keep.has(base) || name.endsWith('.tmp')) continue;
    try {
      if (now - statSync(join(assetsDir, name)).mtimeMs > KEEP_OLD_MS) unlinkSync(join(assetsDir, name));
    } catch {
      // another build removed it first
    }
  }
}

/** Whether dist/web matches its sources: every bundled project file is older than the build. */
export function webIsFresh() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(WEB_DIR, 'manifest.json'), 'utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(manifest.inputs) || manifest.inputs.length === 0 || typeof manifest.startedAt !== 'number')
    return false;
  for (const rel of [...manifest.inputs, relative(root, TEMPLATE)]) {
    try {
      if (statSync(join(root, rel)).mtimeMs >= manifest.startedAt) return false;
    } catch {
      return false;
    }
  }
  return Object.keys(manifest.files ?? {}).every((f) => existsSync(join(WEB_DIR, f)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const m = await buildWeb();
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  for (const [f, s] of Object.entries(m.files)) process.stderr.write(`${f}  ${kb(s.bytes)}  gzip ${kb(s.gzip)}\n`);
}
