import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { createPostgresDatabase, freePort, POSTGRES_ADMIN_URL, postgresAvailable, startTestServer, testModeEnv, type TestServer } from '../support/server.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

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
    await Promise.all(Array.from({ length: 4 }, async () => (await fetch(`${server.url}/api/v1/categories`)).body?.cancel()));
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
    // and fail once; the next ones go out on new connections.
    server.expectErrorLog(/unhandled error/);
    const started = Date.now();
    while ((await fetch(`${server.url}/api/v1/categories`)).status !== 200) {
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
      // Liveness asks nothing of the database: restarting the instance would not bring it back.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    // By itself, within a few checks: on a loaded machine the first new connection may take longer than a check allows.
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, { timeout: 5_000, interval: 250 }).toBe(200);
  });
});

/** A test drive booked through the API by a new person with a verified phone; resolves with its id once acknowledged (201). */
async function bookTestDrive(server: TestServer, databaseUrl: string): Promise<number> {
  const person = new HttpClient(server.url);
  const email = uniqueEmail('outage');
  await signUp(person, email);
  const userId = (await person.session())!.user.id;
  const direct = new pg.Client({ connectionString: databaseUrl });
  await direct.connect();
  let vehicleId: number;
  try {
    const now = new Date().toISOString();
    // The phone is set verified here: the OTP flow has its own tests.
    await direct.query(
      'INSERT INTO profiles (user_id, email, name, photo_url, phone, phone_verified, created_at, last_login_at, updated_at) VALUES ($1, $2, $3, $4, $5, 1, $6, NULL, $6) ON CONFLICT (user_id) DO UPDATE SET phone = excluded.phone, phone_verified = 1',
      [userId, email, 'Asha Rao', '', '+919876500456', now],
    );
    const { rows } = await direct.query<{ id: number }>("SELECT MAX(id) AS id FROM vehicles WHERE status = 'available' AND purpose <> 'rental'");
    vehicleId = Number(rows[0]!.id);
  } finally {
    await direct.end();
  }
  // The demo week holds some slots: the first free hour four days ahead.
  const day = addDays(indiaDay(Date.now()), 4);
  for (let hour = 10; hour <= 18; hour++) {
    const response = await person.request('/api/v1/test-drives', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vehicleId, slot: `${day}T${hour}:00`, mode: 'hub' }),
    });
    if (response.status === 201) return ((await response.json()) as { testDrive: { id: number } }).testDrive.id;
    expect(response.status, await response.text()).toBe(409);
  }
  throw new Error(`No free test-drive hour on ${day}`);
}

describe.skipIf(!postgresReachable)('PostgreSQL unreachable for 20 seconds', () => {
  it('answers clear errors without hanging, says not ready, keeps the lead and the test-drive booking it acknowledged, and recovers by itself', async () => {
    const database = await createPostgresDatabase();
    const direct = new URL(database.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(database.url);
    proxied.port = String(proxy.port);
    const server = await startTestServer({
      dialect: 'postgres',
      seed: false,
      childProcess: true,
      databaseUrl: proxied.href,
      env: { APP_MODE: 'demo', SEED_DEMO: 'true', DEMO_ADMIN_PASSWORD: 'secret123', TRUST_PROXY: 'true' },
    });
    try {
      const visitor = new HttpClient(server.url);
      const request = async (name: string) =>
        visitor.postForm('/request-vehicle', {
          name,
          phone: '98765 43210',
          model: 'Toyota Innova Crysta',
          year: '2020',
          budget: '₹15,00,000',
          description: 'Before the outage',
          botCheck: await visitor.botToken('REQUEST_FORM'),
        });
      const acknowledged = await request('Asha Before');
      expect(acknowledged.status).toBeLessThan(400);
      const bookedTestDrive = await bookTestDrive(server, database.url);

      await proxy.stop();
      server.expectErrorLog(/.*/);
      const outageStarted = Date.now();
      const answers: Array<{ path: string; status: number; ms: number; text: string; fromPageCache: boolean }> = [];
      while (Date.now() - outageStarted < 20_000) {
        for (const path of ['/', '/api/v1/vehicles', '/readyz', '/healthz']) {
          const started = Date.now();
          const response = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(15_000) });
          answers.push({
            path,
            status: response.status,
            ms: Date.now() - started,
            text: await response.text(),
            fromPageCache: response.headers.get('x-cache') === 'hit',
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      console.info(
        `[outage] ${answers.length} answers while unreachable: ${[...new Set(answers.map((answer) => `${answer.path} ${answer.status}`))].join(', ')}; slowest ${Math.max(...answers.map((answer) => answer.ms))} ms`,
      );
      for (const answer of answers) {
        // Within the pool's 10-second connection timeout, never a hang; never a stack trace.
        expect(answer.ms, answer.path).toBeLessThan(12_000);
        expect(answer.text).not.toMatch(/ECONNREFUSED|at .*\.js:\d+/);
      }
      expect(answers.filter((answer) => answer.path === '/readyz').every((answer) => answer.status === 503)).toBe(true);
      // Alive all along: the process runs, only the database is away.
      expect(answers.filter((answer) => answer.path === '/healthz').every((answer) => answer.status === 200)).toBe(true);
      // Pages and the API say the site is unavailable for a moment (503), not "something broke" (500).
      // The home page the instance rendered for itself before it said it was ready (warm-up.ts)
      // may still be in the page cache (5 s) for the first moments: that one is served as it is.
      const needingTheDatabase = answers.filter((answer) => !['/readyz', '/healthz'].includes(answer.path) && !answer.fromPageCache);
      expect(needingTheDatabase.every((answer) => answer.status === 503)).toBe(true);
      expect(answers.filter((answer) => answer.fromPageCache).every((answer) => answer.path === '/' && answer.status === 200)).toBe(true);
      expect(needingTheDatabase.find((answer) => answer.path === '/')!.text).toContain(
        'We cannot reach our records for a moment. Please try again in a minute.',
      );
      expect(JSON.parse(answers.find((answer) => answer.path === '/api/v1/vehicles')!.text)).toMatchObject({
        status: 503,
        detail: 'We cannot reach our records for a moment. Please try again in a minute.',
      });

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
        const drives = await admin.query<{ status: string }>('SELECT status FROM test_drives WHERE id = $1', [bookedTestDrive]);
        expect(drives.rows).toEqual([{ status: 'booked' }]);
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

/** The kinds of cut the test makes, in turn: as a failover, a middlebox, an administrator and a restart do. */
const CUTS = ['reset', 'close', 'terminate', 'refuse'] as const;
const ROUNDS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!postgresReachable)('PostgreSQL connections killed under requests, many times', () => {
  it('answers every request 200, or 503 with Retry-After, never 500: the API, the pages and their data requests, reads and writes', async () => {
    const database = await createPostgresDatabase();
    const direct = new URL(database.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(database.url);
    proxied.port = String(proxy.port);
    // No page cache: every page asks the database, as a signed-in person's always does. No
    // worker: this is about requests (a job whose last try falls on a cut is reported failed).
    const server = await startTestServer({
      dialect: 'postgres',
      seed: false,
      childProcess: true,
      databaseUrl: proxied.href,
      env: { APP_MODE: 'demo', SEED_DEMO: 'true', TRUST_PROXY: 'true', PAGE_CACHE_SECONDS: '0', WORKER: 'off' },
    });
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const person = new HttpClient(server.url);
      await signUp(person, uniqueEmail('cut'));
      const listing = (await (await fetch(`${server.url}/api/v1/vehicles`)).json()) as { items: Array<{ id: number; status: string }> };
      const car = listing.items.find((item) => item.status === 'available')!.id;
      const day = addDays(indiaDay(Date.now()), 3);
      const anonymous = (path: string) => () => fetch(`${server.url}${path}`);
      const requests: Array<{ kind: 'api' | 'page' | 'data'; name: string; send: () => Promise<Response> }> = [
        { kind: 'api', name: '/api/v1/categories', send: anonymous('/api/v1/categories') },
        { kind: 'api', name: '/api/v1/vehicles', send: anonymous('/api/v1/vehicles?q=swift') },
        { kind: 'api', name: '/api/v1/test-drives/slots', send: anonymous(`/api/v1/test-drives/slots?vehicleId=${car}&date=${day}`) },
        { kind: 'api', name: '/api/v1/me/inspections', send: () => person.get('/api/v1/me/inspections') },
        { kind: 'page', name: '/', send: anonymous('/') },
        { kind: 'page', name: '/vehicle/:id', send: anonymous(`/vehicle/${car}`) },
        { kind: 'page', name: '/profile', send: () => person.get('/profile') },
        { kind: 'page', name: 'POST /vehicle/:id (wishlist)', send: () => person.postForm(`/vehicle/${car}`, { wishlisted: 'true' }) },
        { kind: 'data', name: '/profile.data', send: () => person.get('/profile.data') },
        { kind: 'data', name: '/vehicle/:id.data', send: anonymous(`/vehicle/${car}.data`) },
        { kind: 'data', name: 'POST /vehicle/:id.data (wishlist)', send: () => person.postForm(`/vehicle/${car}.data`, { wishlisted: 'false' }) },
      ];
      const answers: Array<{ kind: string; name: string; cut: string; status: number; retryAfter: string | null; type: string; text: string }> = [];
      for (let round = 0; round < ROUNDS; round++) {
        const cut = CUTS[round % CUTS.length]!;
        const inFlight = requests.map(async ({ kind, name, send }) => {
          const response = await send();
          return {
            kind,
            name,
            cut,
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            type: response.headers.get('content-type') ?? '',
            text: await response.text(),
          };
        });
        // A few milliseconds into the requests, at a different moment each round.
        await sleep((round * 3) % 13);
        if (cut === 'terminate')
          await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database.name]);
        else if (cut === 'refuse') {
          await proxy.stop();
          await sleep(15);
          await proxy.start();
        } else proxy.cut(cut);
        answers.push(...(await Promise.all(inFlight)));
      }
      const tally = new Map<string, number>();
      for (const answer of answers) tally.set(`${answer.name} ${answer.status}`, (tally.get(`${answer.name} ${answer.status}`) ?? 0) + 1);
      console.info(`[cuts] ${answers.length} answers over ${ROUNDS} cuts: ${[...tally].map(([key, count]) => `${key} ×${count}`).join(', ')}`);

      const wrong = answers.filter((answer) => answer.status !== 200 && answer.status !== 503);
      expect(wrong.map((answer) => `${answer.name} after ${answer.cut}: ${answer.status} ${answer.text.slice(0, 120)}`)).toEqual([]);
      const outages = answers.filter((answer) => answer.status === 503);
      for (const answer of outages) {
        expect(answer.retryAfter, answer.name).toBe('30');
        expect(answer.text).not.toMatch(/ECONNRESET|terminated|57P01|at \S+ \(/);
        if (answer.kind === 'api')
          expect(JSON.parse(answer.text)).toMatchObject({ status: 503, detail: 'We cannot reach our records for a moment. Please try again in a minute.' });
        else expect(answer.text).toContain('We cannot reach our records for a moment. Please try again in a minute.');
      }
      // The cuts did land under requests of every kind.
      expect(new Set(outages.map((answer) => answer.kind))).toEqual(new Set(['api', 'page', 'data']));
      // And the next requests go out on new connections.
      for (const { name, send } of requests) expect((await send()).status, name).toBe(200);
    } catch (error) {
      console.error(server.output().slice(-3000));
      throw error;
    } finally {
      await admin.end();
      await server.stop();
      await proxy.close();
      await database.drop();
    }
  }, 240_000);
});

describe.skipIf(!postgresReachable)('while migrations run', () => {
  it('is alive (/healthz 200) and not ready (/readyz 503), and ready by itself once they are done', async () => {
    const database = await createPostgresDatabase();
    // Kysely's migrator takes this PostgreSQL advisory lock before migrating: held here, the
    // server waits in the middle of its start, as behind a long migration or another instance's.
    const MIGRATION_LOCK = '3853314791062309107';
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'gaadi-migrating-'));
    const child = spawn(process.execPath, ['server.js'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...testModeEnv(port, dataDir, false), DATABASE_URL: database.url },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    try {
      await expect.poll(async () => (await fetch(`${url}/healthz`).catch(() => null))?.status, { timeout: 30_000, interval: 200 }).toBe(200);
      const waiting = await fetch(`${url}/readyz`);
      expect(waiting.status).toBe(503);
      expect(await waiting.json()).toEqual({ status: 'not ready' });
      expect((await fetch(`${url}/`)).status).toBe(503);
      // The first migration's table is not there yet: the server is waiting to migrate.
      const tables = await holder.query<{ count: string }>("SELECT count(*) FROM information_schema.tables WHERE table_name = 'categories'");
      expect(tables.rows[0]?.count, 'nothing migrated yet').toBe('0');

      await holder.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
      await expect.poll(async () => (await fetch(`${url}/readyz`)).status, { timeout: 60_000, interval: 250 }).toBe(200);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
      await holder.end();
      await rm(dataDir, { recursive: true, force: true });
      await database.drop();
    }
  }, 120_000);
});
