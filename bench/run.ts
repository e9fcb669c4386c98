// `npm run bench`: runs every suite, prints a table per suite, then one JSON document.
// Usage: npm run bench [-- suite...] [--runs N]   (suites: engine, keys, runner, scale, search, serve, serve-matches,
// serve-live, simulate, startup, tournament-memory)
import { formatSuite, withRatios, type BenchSuite } from './harness';

/** Options a suite may read (only `runner` does). */
interface BenchOptions {
  runs?: number;
}

const suites: Record<string, (o: BenchOptions) => Promise<BenchSuite[]>> = {
  engine: async () => (await import('./engine')).run(),
  keys: async () => (await import('./keys')).run(),
  runner: async (o) => (await import('./runner')).run(o),
  scale: async () => (await import('./scale')).run(),
  serve: async () => (await import('./serve')).run(),
  // The live hub's cost per flush first (a few seconds), then the 200-match load.
  'serve-matches': async () => [
    ...(await (await import('./serve-live')).run()),
    ...(await (await import('./serve-matches')).run()),
  ],
  'serve-live': async () => (await import('./serve-live')).run(),
  search: async () => (await import('./search')).run(),
  simulate: async () => (await import('./simulate')).run(),
  startup: async () => (await import('./startup')).run(),
  'tournament-memory': async () => (await import('./tournament-memory')).run(),
};

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(
    `Usage: npm run bench [-- suite...] [--runs N]\n\nRuns every suite, or the ones named, and prints a table per suite (ratios to a\nbaseline measured in the same run), then one JSON document of all of them.\n\n--runs N  runner: runs of interleaved rounds pooled for its verdict (default 3; or BENCH_RUNS)\n\nSuites: ${Object.keys(suites).join(', ')}\n`,
  );
  process.exit(0);
}
const args = process.argv.slice(2);
const options: BenchOptions = {};
const wanted: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const runs = a === '--runs' ? (args[++i] ?? '') : a.startsWith('--runs=') ? a.slice('--runs='.length) : undefined;
  if (runs !== undefined) {
    const n = Number(runs);
    if (!Number.isInteger(n) || n < 1) {
      process.stderr.write(`bench: --runs takes a positive integer, got "${runs}"\n`);
      process.exit(2);
    }
    options.runs = n;
  } else if (!a.startsWith('-')) wanted.push(a);
}
const names = wanted.length ? wanted : Object.keys(suites);
const results: BenchSuite[] = [];
for (const name of names) {
  const load = suites[name];
  if (!load) {
    process.stderr.write(`bench: unknown suite "${name}"; choose from ${Object.keys(suites).join(', ')}\n`);
    process.exit(2);
  }
  process.stderr.write(`bench: running ${name}...\n`);
  for (const s of await load(options)) {
    const suite = withRatios(s);
    results.push(suite);
    process.stdout.write(formatSuite(suite) + '\n\n');
  }
}
process.stdout.write(
  JSON.stringify({ node: process.version, date: new Date().toISOString(), suites: results }, null, 2) + '\n',
);
