// An esbuild plugin that keeps what a command line loads before any command
// runs in one file. esbuild's code splitting puts the code an entry shares
// with the modules it loads by import() into a chunk per set of importers:
// `arena --help` loaded the entry and 19 small chunks (src/cli/errors.ts, the
// config errors, ...), each one more file for Node to find, read, compile and
// link (about 0.7 ms apiece here, a tenth of the start-up). Node has always
// loaded the entry's static imports by the time an import() runs, so each
// import() target may as well import the entry's own modules too: then they
// all have the same importers and share one chunk.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Finds, with a first build of the same options (no output), the targets of
 * import() that the entry does not itself import statically, and returns a
 * plugin that adds `import "<entry>"` to each.
 */
export async function oneStartChunk(build, options, root, entry) {
  const probe = await build({ ...options, write: false, metafile: true, sourcemap: false });
  const inputs = probe.metafile.inputs;
  const closure = new Set([entry]);
  const todo = [entry];
  const targets = new Set();
  while (todo.length) {
    const file = todo.pop();
    for (const imp of inputs[file]?.imports ?? []) {
      if (imp.external) continue;
      if (imp.kind === 'dynamic-import') targets.add(imp.path);
      else if (imp.kind === 'import-statement' && !closure.has(imp.path)) {
        closure.add(imp.path);
        todo.push(imp.path);
      }
    }
  }
  // Every module reachable by import() anywhere, transitively, may hold further import()s.
  const seen = new Set(targets);
  const more = [...targets];
  while (more.length) {
    for (const imp of inputs[more.pop()]?.imports ?? []) {
      if (imp.external || seen.has(imp.path)) continue;
      if (imp.kind === 'dynamic-import') targets.add(imp.path);
      seen.add(imp.path);
      more.push(imp.path);
    }
  }
  // A target inside the entry's closure would make an import cycle; it is loaded already anyway.
  const patched = new Set([...targets].filter((t) => !closure.has(t) && /\.tsx?$/.test(t)).map((t) => join(root, t)));
  const entryPath = join(root, entry);
  return {
    name: 'one-start-chunk',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (!patched.has(args.path)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        return { contents: `${source}\nimport ${JSON.stringify(entryPath)};\n`, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}
