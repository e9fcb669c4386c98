import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The API, scheduler, live-stream and crash tests run a second time on the Postgres store
 * (test/support/test-store.ts reads ARENA_TEST_STORE): one matrix, not copies.
 */
const ON_POSTGRES = [
  'test/service/http/api.test.ts',
  'test/service/http/api-security.test.ts',
  'test/service/http/api-bot-urls.test.ts',
  'test/service/http/api-opponents.test.ts',
  'test/service/scheduler/scheduler.test.ts',
  'test/service/store/store-crash.test.ts',
  'test/service/live/live-stream.test.ts',
  'test/client/live-follow.test.ts',
  'test/service/scheduler/owner-data.test.ts',
  'test/e2e/challenge.test.ts',
  'test/e2e/webhooks.test.ts',
  'test/e2e/qualification.test.ts',
];

/**
 * Suites about what only the Postgres store has (a cluster of serve processes on one database, the shared live hub):
 * only in the postgres project.
 */
const POSTGRES_ONLY = [
  'test/e2e/cluster.test.ts',
  'test/cli/serve-roles.test.ts',
  'test/service/queue/match-worker.test.ts',
  'test/service/live/pg-hub.test.ts',
  'test/e2e/live-across-processes.test.ts',
];

export default defineConfig({
  // tsconfig.json "paths": the example bots import the package by name.
  resolve: {
    alias: {
      'bot-arena/engine': fileURLToPath(new URL('./engine/index.ts', import.meta.url)),
      'bot-arena/protocol': fileURLToPath(new URL('./src/protocol/index.ts', import.meta.url)),
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: forks keep heavy property tests from starving socket tests.
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'file',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, ...POSTGRES_ONLY],
        },
      },
      {
        extends: true,
        test: { name: 'postgres', include: [...ON_POSTGRES, ...POSTGRES_ONLY], env: { ARENA_TEST_STORE: 'postgres' } },
      },
    ],
  },
});
