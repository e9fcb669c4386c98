import type { BenchSuite } from './harness';

// Placeholder until this suite is written.
export async function run(): Promise<BenchSuite[]> {
  return [];
}
