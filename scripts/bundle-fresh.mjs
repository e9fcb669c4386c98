// Whether dist/<name>.mjs still matches its sources. The build records the
// exact files esbuild bundled (dist/<name>.inputs.json, from its metafile) and
// when it started reading them; the bundle is fresh while every one of those
// files exists and is older than that. So whatever the bundle includes (src/,
// engine/, package.json, or anything else a change makes it import) is
// checked, and nothing it does not include.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function inputsFile(root, name) {
  return join(root, 'dist', `${name}.inputs.json`);
}

export function bundleIsFresh(root, name = 'arena') {
  let record;
  try {
    statSync(join(root, 'dist', `${name}.mjs`));
    record = JSON.parse(readFileSync(inputsFile(root, name), 'utf8'));
  } catch {
    return false;
  }
  if (!record || typeof record.startedAt !== 'number' || !Array.isArray(record.inputs) || record.inputs.length === 0)
    return false;
  for (const rel of record.inputs) {
    let mtime;
    try {
      mtime = statSync(join(root, rel)).mtimeMs;
    } catch {
      return false; // a bundled file was moved or deleted
    }
    if (mtime >= record.startedAt) return false;
  }
  return true;
}
