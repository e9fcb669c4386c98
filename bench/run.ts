// `npm run bench`: runs every suite, prints a table per suite, then one JSON document.
// Usage: npm run bench [-- suite...]   (suites: engine, keys, runner, search, serve, serve-matches, simulate, startup, tournament-memory)
import { formatSuite, withRatios, type BenchSuite } from './harness';

const suites: Record<string, () => Promise<BenchSuite[]>> = {
  engine: async () => (await import('./engine')).run(),
  keys: async () => (await import('./keys')).run(),
  runner: async () => (await import('./runner')).run(),
  serve: async () => (await import('./serve')).run(),
  'serve-matches': async () => (await import('./serve-matches')).run(),
  search: async () => (await import('./search')).run(),
  simulate: async () => (await import('./simulate')).run(),
  startup: async () => (await import('./startup')).run(),
  'tournament-memory': async () => (await import('./tournament-memory')).run(),
};

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(`Usage: npm run bench [-- suite...]\n\nRuns every suite, or the ones named, and prints a table per suite (ratios to a\nbaseline measured in the same run), then one JSON document of all of them.\n\nSuites: ${Object.keys(suites).join(', ')}\n`);
  process.exit(0);
}
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(suites);
const results: BenchSuite[] = [];
for (const name of names) {
  const load = suites[name];
  if (!load) {
    process.stderr.write(`bench: unknown suite "${name}"; choose from ${Object.keys(suites).join(', ')}\n`);
    process.exit(2);
  }
  process.stderr.write(`bench: running ${name}...\n`);
  for (const s of await load()) {
    const suite = withRatios(s);
    results.push(suite);
    process.stdout.write(formatSuite(suite) + '\n\n');
  }
}
process.stdout.write(JSON.stringify({ node: process.version, date: new Date().toISOString(), suites: results }, null, 2) + '\n');
