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
  const closure = reach(inputs, entry, (kind) => kind === 'import-statement');
  // Every import() target of every module the program can load.
  const targets = new Set();
  for (const file of reach(inputs, entry, () => true)) {
    for (const imp of inputs[file]?.imports ?? [])
      if (!imp.external && imp.kind === 'dynamic-import') targets.add(imp.path);
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
        return {
          contents: `${source}\nimport ${JSON.stringify(entryPath)};\n`,
          loader: args.path.endsWith('x') ? 'tsx' : 'ts',
        };
      });
    },
  };
}

/** The modules reachable from `entry` over import edges whose kind `follow` accepts (the entry included). */
function reach(inputs, entry, follow) {
  const seen = new Set([entry]);
  const todo = [entry];
  while (todo.length) {
    for (const imp of inputs[todo.pop()]?.imports ?? []) {
      if (imp.external || !follow(imp.kind) || seen.has(imp.path)) continue;
      seen.add(imp.path);
      todo.push(imp.path);
    }
  }
  return seen;
}
