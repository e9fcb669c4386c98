import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: forks keep heavy property tests from starving socket tests.
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
  },
});
