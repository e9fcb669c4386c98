// Writes a starter (catalog.ts) into a new directory: its files as shipped,
// but for the TypeScript starter's dependency on this package, which in the
// repository points at the checkout ("file:../..") and in a new directory
// must name the package and its version.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { binaryAssetNames, IN_BINARY, packageRoot, readPackageFile } from '../docs/package-files';
import { isStarterFile, type Starter } from './catalog';

/** Why DIR cannot take a starter, or undefined when it can (missing, or an empty directory). */
export function targetProblem(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) return 'is not a directory';
  if (readdirSync(dir).length > 0) return 'is not empty';
  return undefined;
}

/** The starter's files, as paths relative to its directory, sorted. */
export function starterFileNames(starter: Starter): string[] {
  const prefix = `${starter.dir}/`;
  const names = IN_BINARY
    ? binaryAssetNames()
        .filter((n) => n.startsWith(prefix))
        .map((n) => n.slice(prefix.length))
    : [...walk(join(packageRoot(), starter.dir))].map((f) =>
        relative(join(packageRoot(), starter.dir), f).split(sep).join('/'),
      );
  return names.filter(isStarterFile).sort();
}

/** The text of each file as it goes into a new directory. */
export function starterFiles(starter: Starter, version: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of starterFileNames(starter)) {
    let text = readPackageFile(`${starter.dir}/${name}`);
    if (name === 'package.json') text = pinOwnPackage(text, version);
    files.set(name, text);
  }
  if (files.size === 0) throw new Error(`this arena was built without the ${starter.lang} starter (${starter.dir})`);
  return files;
}

/** Writes the starter into dir (created with its parents); refuses a directory with anything in it. */
export function writeStarter(starter: Starter, dir: string, version: string): string[] {
  const problem = targetProblem(dir);
  if (problem) throw new Error(`${dir} ${problem}`);
  const files = starterFiles(starter, version);
  for (const [name, text] of files) {
    const path = join(dir, ...name.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { flag: 'wx' });
  }
  return [...files.keys()];
}

/**
 * A dependency on this package by a local path becomes one on its name and version (`npm install <tarball>` then fills
 * it in).
 */
function pinOwnPackage(text: string, version: string): string {
  const pkg = JSON.parse(text) as { dependencies?: Record<string, string> };
  const spec = pkg.dependencies?.['bot-arena'];
  if (!spec?.startsWith('file:')) return text;
  pkg.dependencies!['bot-arena'] = `^${version}`;
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (!isStarterFile(entry.name)) continue;
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}
