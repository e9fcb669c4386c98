// Files shipped with the package (docs/, dist/web/), found from wherever the
// code runs: the source tree under a TypeScript loader, the bundle in dist/,
// or the single executable (scripts/build-binary.mjs), which carries them as
// SEA assets under their package paths (`docs/rules.md`).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Set to true by scripts/build-binary.mjs (esbuild define); absent everywhere else.
declare const __ARENA_SEA__: boolean | undefined;

/** Whether this is the single executable, whose package files are SEA assets. */
export const IN_BINARY: boolean = typeof __ARENA_SEA__ !== 'undefined' && __ARENA_SEA__ === true;

/** The asset holding the list of every other asset's name (SEA assets cannot be listed in Node 20). */
export const ASSET_LIST = 'arena-assets.json';

/** The package root: the nearest directory above this module that has docs/rules.md. */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'docs', 'rules.md')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find the package's docs/ above ${from}; reinstall arena`);
  }
}

/** A package file as text, e.g. readPackageFile('docs/rules.md'). */
export function readPackageFile(rel: string): string {
  if (IN_BINARY) {
    const bytes = readPackageAsset(rel);
    if (!bytes) throw new Error(`this arena binary was built without ${rel}`);
    return bytes.toString('utf8');
  }
  return readFileSync(join(packageRoot(), rel), 'utf8');
}

/** A file the single executable carries, or undefined (also outside the binary). */
export function readPackageAsset(rel: string): Buffer | undefined {
  if (!IN_BINARY || !binaryAssetNames().includes(rel)) return undefined;
  return Buffer.from(sea().getRawAsset(rel) as ArrayBuffer);
}

/** The package paths of every file the single executable carries ([] outside it). */
export function binaryAssetNames(): string[] {
  if (!IN_BINARY) return [];
  assetNames ??= JSON.parse(sea().getAsset(ASSET_LIST, 'utf8') as string) as string[];
  return assetNames;
}

let assetNames: string[] | undefined;

interface SeaModule {
  getAsset(key: string, encoding?: string): string | ArrayBuffer;
  getRawAsset(key: string): ArrayBuffer;
}

function sea(): SeaModule {
  // Inside the single executable `require` is Node's own (built-in modules
  // only), and node:sea exists from Node 20.12; never reached elsewhere.
  return require('node:sea') as SeaModule;
}
