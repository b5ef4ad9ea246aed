import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { openServerDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The error-log check (tests/support/error-log-check.ts) fails a test during which the server
 * logged an error it did not declare, whether the server runs inside the test worker or as
 * `node server.js`. The error provoked: the API's category list fails with its table gone,
 * and the app logs "unhandled error" (the database answers, so it is no outage). Each `it.fails` test passes only if the test failed; the test after it shows that the
 * failure was the check's, not some other error.
 */

const shared = sharedServer();

describe.skipIf(!shared.url).each([
  ['inside the test worker', false],
  ['as a process of its own', true],
])(`the error-log check with the server %s (${shared.dialect})`, (_where, childProcess) => {
  let server: TestServer;
  let failure: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: false, childProcess });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** How many whole "unhandled error" lines the server has printed so far. */
  function unhandledErrors(): number {
    const output = server.output();
    return output
      .slice(0, output.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((line) => line.includes('"msg":"unhandled error"')).length;
  }

  /** Makes the server log "unhandled error" (level error) once, and waits until it has. */
  async function provokeErrorLog() {
    const database = openServerDatabase(server);
    try {
      await sql`ALTER TABLE categories RENAME TO categories_away`.execute(database.db);
      try {
        // A new whole line, not the one an earlier test provoked: until it is in, the check
        // that runs after this test could not read it.
        const before = unhandledErrors();
        expect((await fetch(`${server.url}/api/v1/categories`)).status).toBe(500);
        await expect.poll(unhandledErrors, { timeout: 15_000 }).toBeGreaterThan(before);
      } finally {
        await sql`ALTER TABLE categories_away RENAME TO categories`.execute(database.db);
      }
    } finally {
      await database.close();
    }
  }

  it.fails('an error the test did not declare fails it', async () => {
    onTestFailed(({ task }) => {
      failure = (task.result?.errors ?? []).map((error) => error.message);
    });
    await provokeErrorLog();
  });

  it('…and the failure above was the error-log check naming the line', () => {
    expect(failure).toHaveLength(1);
    expect(failure[0]).toMatch(/^The server logged 1 unexpected error\(s\) during this test/);
    expect(failure[0]).toContain('"msg":"unhandled error"');
  });

  it('an error the test declared does not fail it', async () => {
    server.expectErrorLog(/unhandled error/);
    await provokeErrorLog();
  });
});
