// Builds the CLI bundle and the dashboard once before any test runs, so
// parallel test files do not all rebuild them at the same moment on a clean
// checkout, and a test that serves a dashboard page (the sign-in page, say)
// never depends on another file having built it first.
import { buildAll } from '../scripts/build.mjs';
import { buildWeb } from '../scripts/build-web.mjs';

export default async function setup(): Promise<void> {
  await buildAll({ quiet: true });
  await buildWeb({ quiet: true });
}
