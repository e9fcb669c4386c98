import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // tsconfig.json "paths": the example bots import the package by name.
  resolve: {
    alias: {
      'bot-arena/engine': fileURLToPath(new URL('./engine/index.ts', import.meta.url)),
      'bot-arena/protocol': fileURLToPath(new URL('./src/protocol/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: forks keep heavy property tests from starving socket tests.
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
  },
});
