import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.ts';
import { createPostgresDatabase, POSTGRES_ADMIN_URL, postgresAvailable, startTestServer, type TestServer } from '../support/server.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';

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
    // A request in the instant before the pool has heard of every cut connection may borrow one
    // and fail once (the health check says so); the next ones go out on new connections.
    server.expectErrorLog(/health check failed/);
    const started = Date.now();
    while ((await fetch(`${server.url}/healthz`)).status !== 200) {
      expect(Date.now() - started).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
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

describe.skipIf(!postgresReachable)('PostgreSQL unreachable for 20 seconds', () => {
  it('answers clear errors without hanging, says not ready, keeps what it acknowledged, and recovers by itself', async () => {
    const database = await createPostgresDatabase();
    const direct = new URL(database.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(database.url);
    proxied.port = String(proxy.port);
    const server = await startTestServer({ dialect: 'postgres', seed: false, childProcess: true, databaseUrl: proxied.href, env: { APP_MODE: 'demo', SEED_DEMO: 'true', DEMO_ADMIN_PASSWORD: 'secret123', TRUST_PROXY: 'true' } });
    try {
      const visitor = new HttpClient(server.url);
      const request = async (name: string) =>
        visitor.postForm('/request-vehicle', { name, phone: '98765 43210', model: 'Toyota Innova Crysta', year: '2020', budget: '₹15,00,000', description: 'Before the outage', botCheck: await visitor.botToken('REQUEST_FORM') });
      const acknowledged = await request('Asha Before');
      expect(acknowledged.status).toBeLessThan(400);

      await proxy.stop();
      server.expectErrorLog(/.*/);
      const outageStarted = Date.now();
      const answers: Array<{ path: string; status: number; ms: number; text: string }> = [];
      while (Date.now() - outageStarted < 20_000) {
        for (const path of ['/', '/api/v1/vehicles', '/readyz']) {
          const started = Date.now();
          const response = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(15_000) });
          answers.push({ path, status: response.status, ms: Date.now() - started, text: await response.text() });
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      console.info(`[outage] ${answers.length} answers while unreachable: ${[...new Set(answers.map((answer) => `${answer.path} ${answer.status}`))].join(', ')}; slowest ${Math.max(...answers.map((answer) => answer.ms))} ms`);
      for (const answer of answers) {
        // Within the pool's 10-second connection timeout, never a hang; never a stack trace.
        expect(answer.ms, answer.path).toBeLessThan(12_000);
        expect(answer.text).not.toMatch(/ECONNREFUSED|at .*\.js:\d+/);
      }
      expect(answers.filter((answer) => answer.path === '/readyz').every((answer) => answer.status === 503)).toBe(true);
      // Pages and the API say the site is unavailable for a moment (503), not "something broke" (500).
      expect(answers.filter((answer) => answer.path !== '/readyz').every((answer) => answer.status === 503)).toBe(true);
      expect(answers.find((answer) => answer.path === '/')!.text).toContain('We cannot reach our records for a moment. Please try again in a minute.');
      expect(JSON.parse(answers.find((answer) => answer.path === '/api/v1/vehicles')!.text)).toMatchObject({ status: 503, detail: 'We cannot reach our records for a moment. Please try again in a minute.' });

      await proxy.start();
      const recovered = Date.now();
      while ((await fetch(`${server.url}/readyz`)).status !== 200) {
        expect(Date.now() - recovered).toBeLessThan(15_000);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect((await fetch(`${server.url}/api/v1/vehicles`)).status).toBe(200);
      expect((await request('Asha After')).status).toBeLessThan(400);
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ name: string }>("SELECT name FROM vehicle_requests WHERE name LIKE 'Asha %' ORDER BY id");
        expect(rows.map((row) => row.name)).toEqual(['Asha Before', 'Asha After']);
      } finally {
        await admin.end();
      }
    } catch (error) {
      console.error(server.output().slice(-3000));
      throw error;
    } finally {
      await server.stop();
      await proxy.close();
      await database.drop();
    }
  }, 180_000);
});
