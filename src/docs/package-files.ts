// Files shipped with the package (docs/), found from wherever the code runs:
// the source tree under a TypeScript loader, or the bundle in dist/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the nearest directory above this module that has docs/rules.md. */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'docs', 'rules.md')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find the package's docs/ above ${from}; reinstall arena`);
  }
}

export function readPackageFile(rel: string): string {
  return readFileSync(join(packageRoot(), rel), 'utf8');
}
