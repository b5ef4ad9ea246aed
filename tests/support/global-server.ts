import type { TestProject } from 'vitest/node';
import { ensureSeededTemplate, errorLogLines, postgresAvailable, startTestServer, type Dialect } from './server.ts';

/**
 * One seeded server per project, shared by its test files (they only read the demo data).
 * Tests read it with `sharedServer()` from ./shared.ts. First the run's seeded template of the
 * project's database (server.ts): every server started with `seed: true` copies it.
 */
export default async function setup(project: TestProject) {
  const provided = project.config.provide as { dialect?: Dialect } | undefined;
  const provide = project.provide as (key: string, value: unknown) => void;
  const dialect = provided?.dialect ?? 'sqlite';
  if (dialect === 'postgres' && !(await postgresAvailable())) {
    console.warn('PostgreSQL is not reachable: skipping the PostgreSQL integration tests (outside CI only).');
    provide('serverUrl', '');
    provide('serverDataDir', '');
    return;
  }
  const template = await ensureSeededTemplate(dialect);
  // A process of its own: it outlives every test file, and the site tests read the real `node server.js`.
  const server = await startTestServer({ dialect, seed: true, childProcess: true });
  provide('serverUrl', server.url);
  provide('serverDataDir', server.dataDir);
  return async () => {
    await server.stop();
    await template.remove?.();
    // Every test file shares this server, so no test can declare an error on it: any error it
    // logged fails the run (a test that provokes errors on purpose starts its own server).
    // A throw here is only printed by Vitest ("error during close"), so the exit code says it.
    const errors = errorLogLines(server.output());
    if (errors.length > 0) {
      console.error(`\nThe shared ${dialect} test server logged ${errors.length} error(s); the run fails:\n${errors.join('\n')}\n`);
      process.exitCode = 1;
    }
  };
}
