// The layering of docs/architecture.md as dependency-cruiser rules, checked by
// test/layering.test.ts (and `npx depcruise engine src examples test bench scripts bin`).
//
//   cli -> (arena | service | sim | tui | client) -> runner -> engine
//   with protocol, keys, probe and config shared below them, net (the address
//   policy every outgoing connection obeys) below the runner, and fs (file-system
//   helpers that import nothing) and text (escaping text from outside) below
//   all of those;
//   term holds terminal helpers for cli; web imports only engine and protocol.
//
// Each layer lists what of the project it may import (its own directory is
// always allowed); npm packages and node built-ins are not restricted here.
// Type-only imports count: a type is a dependency too.

/** Project code, as opposed to node_modules, node: built-ins and package.json. */
const PROJECT = '^(engine|src|examples|test|bench|scripts|bin)/';

/**
 * A layer: code under `from` may import only its own directory and `allowed`
 * (directories, or single files written as a path ending in `.ts`).
 */
function layer(name, from, allowed, comment) {
  const own = from.replace(/^\^/, '').replace(/\/$/, '');
  const ok = [own, ...allowed].map((a) => (a.endsWith('.ts') ? `${a.replace(/\./g, '\\.')}$` : `${a}/`));
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from },
    to: { path: PROJECT, pathNot: `^(${ok.join('|')})` },
  };
}

// The engine's front door: code outside engine/ imports engine/index.ts, or
// one of the modules kept out of it on purpose (engine/index.ts says why each).
const ENGINE_DOORS = [
  'index.ts',
  'rules-version.ts',
  'bots/names.ts',
  'rules-data.ts',
  'board-data.ts',
  'view-bytes.ts',
];

module.exports = {
  forbidden: [
    layer(
      'engine-stands-alone',
      '^engine/',
      [],
      'The engine is pure TypeScript with no I/O: it imports nothing outside engine/.',
    ),
    layer(
      'protocol-imports-nothing',
      '^src/protocol/',
      [],
      'The zod schemas are the contract; they import nothing of the project.',
    ),
    layer(
      'fs-imports-nothing',
      '^src/fs/',
      [],
      'File-system and stream helpers (mkdir -p that cannot hang, reads with a limit) import nothing of the project.',
    ),
    layer(
      'text-imports-nothing',
      '^src/text/',
      [],
      'Text from outside made safe to show (control characters escaped) imports nothing of the project.',
    ),
    layer(
      'keys-import-nothing',
      '^src/keys/',
      ['src/fs'],
      'Ed25519 signing imports nothing of the project but the file-system helpers.',
    ),
    layer(
      'config-below-everything',
      '^src/config/',
      ['src/keys', 'src/protocol', 'src/fs'],
      'Config (paths, profile, platform key) uses keys and protocol only.',
    ),
    layer(
      'net-imports-nothing',
      '^src/net/',
      [],
      'The address policy and pinned lookup every outgoing connection uses import nothing of the project.',
    ),
    layer(
      'runner-on-engine',
      '^src/runner/',
      ['engine', 'src/protocol', 'src/keys', 'src/net'],
      'The runner plays matches on the engine; it knows no arena, service, probe or terminal.',
    ),
    layer(
      'probe-on-runner',
      '^src/probe/',
      ['engine', 'src/runner', 'src/net', 'src/protocol', 'src/keys', 'src/config', 'src/fs'],
      "The deploy and conformance checks use the runner's socket path; shared by arena, service and cli.",
    ),
    layer(
      'arena-is-a-library',
      '^src/arena/',
      ['src/text', 'engine', 'src/runner', 'src/net', 'src/probe', 'src/protocol', 'src/keys', 'src/config', 'src/fs'],
      'Tournaments, ratings, stats: used by the service too, so no terminal (term, tui), no cli, no process.exit.',
    ),
    layer(
      'sim-on-engine',
      '^src/sim/',
      ['engine', 'src/runner', 'src/net', 'src/protocol', 'src/keys', 'src/config', 'src/fs'],
      'In-process simulation.',
    ),
    layer(
      'client-on-keys',
      '^src/client/',
      ['src/keys', 'src/protocol', 'src/config', 'src/fs'],
      'The signed API client.',
    ),
    layer(
      'tui-below-cli',
      '^src/tui/',
      [
        'src/text',
        'engine',
        'src/arena',
        'src/runner',
        'src/net',
        'src/probe',
        'src/protocol',
        'src/keys',
        'src/config',
        'src/term',
        'src/fs',
      ],
      'The replay viewer; commands call it, never the reverse.',
    ),
    layer(
      'term-below-cli',
      '^src/term/',
      [
        'src/text',
        'engine',
        'src/arena',
        'src/sim',
        'src/runner',
        'src/net',
        'src/probe',
        'src/protocol',
        'src/keys',
        'src/config',
        'src/fs',
      ],
      'Terminal helpers for commands; they import no command.',
    ),
    layer(
      'web-on-engine-and-protocol',
      '^src/web/',
      ['engine', 'src/protocol'],
      'The dashboard reaches the service over HTTP only.',
    ),
    {
      name: 'engine-front-door',
      comment: `Outside engine/, import the engine only through engine/${ENGINE_DOORS.join(', engine/')} (the rest is its inside; tests may reach it).`,
      severity: 'error',
      from: { path: '^(src|examples|bench|scripts|bin)/' },
      to: { path: '^engine/', pathNot: `^engine/(${ENGINE_DOORS.map((d) => d.replace(/\./g, '\\.')).join('|')})$` },
    },
    {
      name: 'service-no-terminal',
      comment: 'serve runs without a terminal: it must not import the cli, tui, term or web code.',
      severity: 'error',
      from: { path: '^src/service/' },
      to: { path: '^src/(cli|tui|term|web)/' },
    },
    {
      name: 'examples-copyable',
      comment: 'Example bots are copied out of the repository: engine, protocol and keys (and each other) only.',
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: PROJECT, pathNot: '^(examples|engine|src/protocol|src/keys)/' },
    },
    {
      name: 'only-tests-import-examples',
      comment: 'Production code never imports the copy-me examples (the demo starts them as processes).',
      severity: 'error',
      from: { pathNot: '^(test|examples)/' },
      to: { path: '^examples/' },
    },
    {
      name: 'only-tests-import-tests',
      comment: 'Nothing but tests (and the benchmarks, which reuse test bots) imports test/.',
      severity: 'error',
      from: { pathNot: '^(test|bench)/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment:
        'Modules that import each other at run time cannot be loaded or understood one at a time (type-only cycles are harmless).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'every-import-resolves',
      comment: 'An import the cruiser cannot resolve would escape every rule above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|coverage|man|docs)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
