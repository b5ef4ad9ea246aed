import { defineConfig } from 'vitest/config';

/**
 * Four projects: unit tests of pure code, integration tests against the running server on
 * SQLite and on PostgreSQL (the same files, run twice), and browser tests in Chromium.
 * Integration and browser tests need `npm run build` first; `npm test` does it.
 */
/**
 * Integration test files that run once, in the SQLite project: they start their own servers
 * (search-parity starts one on each database itself). Left out of the PostgreSQL project
 * rather than skipped there, because under CI a skipped test fails the run (scripts/test.mjs).
 */
export const dialectIndependentIntegrationTests = ['tests/integration/page-cache.test.ts', 'tests/integration/search-parity.test.ts'];

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      ...(['sqlite', 'postgres'] as const).map((dialect) => ({
        extends: true as const,
        test: {
          name: `integration-${dialect}`,
          include: ['tests/integration/**/*.test.ts'],
          exclude: dialect === 'postgres' ? dialectIndependentIntegrationTests : [],
          globalSetup: ['tests/support/global-server.ts'],
          setupFiles: ['tests/support/error-log-check.ts'],
          provide: { dialect },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      })),
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/global-server.ts'],
          setupFiles: ['tests/support/error-log-check.ts'],
          provide: { dialect: 'sqlite' as const },
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
