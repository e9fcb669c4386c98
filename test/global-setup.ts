// Builds the CLI bundle once before any test spawns `bin/arena`, so parallel
// test files do not all rebuild it at the same moment on a clean checkout.
import { buildAll } from '../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await buildAll({ quiet: true });
}
