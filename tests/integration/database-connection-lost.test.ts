import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_ADMIN_URL, postgresAvailable, startTestServer, type TestServer } from '../support/server.ts';

/**
 * PostgreSQL drops a connection: a restart, a failover, an administrator ending sessions. The
 * pool reports it on an idle connection as an `error` event, which used to end the server's
 * process. The server must keep serving on new connections. Runs once (in the SQLite project,
 * vitest.config.ts), on a PostgreSQL server of its own: SQLite has no connection to lose.
 */
const postgresReachable = await postgresAvailable();

describe.skipIf(!postgresReachable)('a dropped PostgreSQL connection', () => {
  let server: TestServer;

  beforeAll(async () => {
    // A child process: the event used to end the whole process, which a test worker would hide.
    server = await startTestServer({ dialect: 'postgres', seed: false, childProcess: true });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('is logged as a warning, and the server answers from a new connection', async () => {
    // Warm the pool so it holds idle connections for the database to cut.
    await Promise.all(Array.from({ length: 4 }, () => fetch(`${server.url}/healthz`)));
    const name = new URL(server.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      const ended = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      expect(ended.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await server.waitForOutput(/an idle connection was lost/);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    const listing = await fetch(`${server.url}/api/v1/vehicles`);
    expect(listing.status).toBe(200);
  });

  it('says not ready while the database refuses connections, and ready again by itself once it takes them', async () => {
    const name = new URL(server.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      const started = Date.now();
      const refused = await fetch(`${server.url}/readyz`);
      // Answered within its own timeout, never a hang.
      expect(Date.now() - started).toBeLessThan(5000);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({ status: 'not ready' });
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});
