import { availableParallelism } from 'node:os';
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
export const dialectIndependentIntegrationTests = [
  'tests/integration/page-cache.test.ts',
  'tests/integration/page-cache-property.test.ts',
  'tests/integration/search-parity.test.ts',
  'tests/integration/database-connection-lost.test.ts',
  'tests/integration/instances.test.ts',
  'tests/integration/migrate-to-postgres.test.ts',
  'tests/integration/object-storage.test.ts',
  'tests/integration/jobs-instances.test.ts',
];

/**
 * Test files run side by side, twice as many as there are cores (Vitest's default is one fewer
 * than the cores: a single file at a time on a 2-core machine). An integration file spends most
 * of its time waiting for its server, which runs in a process of its own, so one file alone
 * never keeps even one core busy; measured in docs/decisions/016-time-and-caches-handed-in.md.
 * `--maxWorkers` on the command line still overrides it.
 */
const testWorkers = Math.max(2, availableParallelism() * 2);

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    maxWorkers: testWorkers,
    // The built server that integration and browser tests open inside their worker
    // (tests/support/server.ts) is loaded by Node as `node server.js` loads it, not through Vite.
    server: { deps: { external: [/\/build\/server\//] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // One worker process runs many unit files, loading the modules they share once: unit
          // tests change no module state, environment or globals (decision 037). Half the CPU.
          isolate: false,
        },
      },
      ...(['sqlite', 'postgres'] as const).map((dialect) => ({
        extends: true as const,
        test: {
          name: `integration-${dialect}`,
          include: ['tests/integration/**/*.test.ts'],
          exclude: dialect === 'postgres' ? dialectIndependentIntegrationTests : [],
          globalSetup: ['tests/support/global-server.ts'],
          // Every /api/v1 answer a test receives is checked against the OpenAPI document (decision 078).
          setupFiles: ['tests/support/error-log-check.ts', 'tests/support/api/contract-check.ts'],
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
          // One browser file at a time, on the run's one Chromium: `npm test` runs this project
          // beside the unit and integration tests, which keep both cores busy; a second browser
          // lane made the whole run longer (536 s instead of about 250 s, decision 037).
          maxWorkers: 1,
          // Its own group, after the others, when one Vitest run has every project: a group has one worker count.
          sequence: { groupOrder: 1 },
          globalSetup: ['tests/support/global-server.ts', 'tests/support/global-browser.ts'],
          setupFiles: ['tests/support/error-log-check.ts'],
          provide: { dialect: 'sqlite' as const },
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
