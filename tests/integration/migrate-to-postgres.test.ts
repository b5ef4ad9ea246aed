import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock.ts';
import { installationId } from '../../server/db/installation.ts';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient, logIn, signUp, uniqueEmail } from '../support/http-client.ts';
import { startLocalS3, type LocalS3 } from '../support/s3rver.ts';
import { createPostgresDatabase, startTestServer, type TestServer } from '../support/server.ts';

/**
 * `npm run migrate-to-postgres` moves the demo installation (SQLite + local media, with a week of
 * bookings, test drives and leads) to PostgreSQL, and the site on PostgreSQL shows the same cars,
 * photos, accounts, leads and bookings (issue 26). Runs once (vitest.config.ts).
 */

const root = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'secret123';

type Car = { id: number; name: string; price: number | string; images?: string[]; imageUrl?: string };

/** What a visitor and the admin see of an installation, in a form two servers can be compared by. */
async function whatTheSiteShows(server: TestServer) {
  const cars = ((await (await fetch(`${server.url}/api/v1/vehicles?perPage=100`)).json()) as { total: number; items: Car[] }).items;
  const photoUrl = /src="(\/media\/[^"]+)"/.exec(await (await fetch(`${server.url}/`)).text())?.[1];
  const photo = photoUrl ? await fetch(`${server.url}${photoUrl}`) : null;
  const admin = new HttpClient(server.url, { address: null });
  expect((await admin.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: PASSWORD, botCheck: await admin.botToken('LOGIN') })).status).toBe(
    302,
  );
  const csv = async (kind: string) => (await (await admin.get(`/admin/leads-export/${kind}`)).text()).replaceAll(server.url, 'ORIGIN');
  const desk = await (await admin.get('/admin/rentals')).text();
  return {
    cars: cars.map((car) => `${car.id} ${car.name} ${car.price}`),
    photo: photo
      ? `${photo.status} ${createHash('sha256')
          .update(Buffer.from(await photo.arrayBuffer()))
          .digest('hex')}`
      : 'none',
    requests: await csv('requested-vehicles'),
    sellers: await csv('selling-vehicles'),
    bookings: [...new Set(desk.match(/\/admin\/rentals\/bookings\/\d+/g) ?? [])].sort(),
  };
}

/**
 * Runs the built command as `npm run migrate-to-postgres` does, without its build-when-stale step
 * (the suite built the app; a build during the run would take it from under the other tests).
 * Not spawnSync: the S3 server answering it runs in this process.
 */
const RUN_BUILT_COMMAND = `const { migrateToPostgres } = await import('./build/server/index.js');
process.exitCode = (await migrateToPostgres(process.argv.slice(1), process.env, (line) => console.log(line))) ? 0 : 1;`;

async function migrate(dataDir: string, to: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', RUN_BUILT_COMMAND, '--', '--from', dataDir, '--to', to], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, output };
}

describe('moving an installation from SQLite to PostgreSQL', () => {
  let before: TestServer;
  let after: TestServer | undefined;
  let target: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let s3: LocalS3;
  const email = uniqueEmail('mover');

  beforeAll(async () => {
    // The demo as `npm run demo` makes it: inventory, photos and a week of work, on SQLite.
    before = await startTestServer({
      dialect: 'sqlite',
      seed: false,
      childProcess: true,
      env: { APP_MODE: 'demo', SEED_DEMO: 'true', DEMO_ADMIN_PASSWORD: PASSWORD },
    });
    target = await createPostgresDatabase();
    s3 = await startLocalS3();
  }, 300_000);
  afterAll(async () => {
    await after?.stop();
    await before?.stop();
    await target?.drop();
    await s3?.close();
  });

  it('copies every table, verified, resumes without copying twice, and the site on PostgreSQL shows the same', async () => {
    expect((await signUp(new HttpClient(before.url), email)).status).toBeLessThan(400);
    const shown = await whatTheSiteShows(before);
    // The demo's stock for sale, less the six cars its week sells.
    expect(shown.cars.length).toBeGreaterThanOrEqual(40);
    expect(shown.photo).toMatch(/^200 /);
    expect(shown.bookings.length).toBeGreaterThan(3);
    await before.stopKeepingData();
    // The installation's id (made by its first refund, here by asking) moves with it, so the
    // refunds it owes keep their idempotency keys (decision 093).
    const source = openServerDatabase(before);
    const installation = await installationId({ database: source, clock: systemClock }).finally(() => source.close());

    const first = await migrate(before.dataDir, target.url, s3.env());
    expect(first.status, first.output).toBe(0);
    expect(first.output).toMatch(/All \d+ tables match \(counts and checksums\)\./);
    expect(first.output).toMatch(/ok {2}vehicles +53 rows \(53 copied now\)/);
    expect(first.output).toMatch(/ok {2}media\/ → bucket gaadi-media +\d+ files \(\d+ copied now\)/);
    expect(first.output).toMatch(/ok {2}private\/ → bucket gaadi-media +[1-9]\d* files/);
    // Run again (as after an interruption): nothing is copied twice and everything still matches.
    const again = await migrate(before.dataDir, target.url, s3.env());
    expect(again.status, again.output).toBe(0);
    expect(again.output).not.toMatch(/\([1-9]\d* copied now\)/);

    // A new instance with an empty data folder: the rows from PostgreSQL, the photos from the bucket.
    after = await startTestServer({
      dialect: 'postgres',
      seed: false,
      childProcess: true,
      databaseUrl: target.url,
      env: { APP_MODE: 'demo', SEED_DEMO: 'true', DEMO_ADMIN_PASSWORD: PASSWORD, ...s3.env() },
    });
    expect(await whatTheSiteShows(after)).toEqual(shown);
    // The account made on SQLite signs in on PostgreSQL.
    expect((await logIn(new HttpClient(after.url), email, 'correct-horse-7')).status).toBe(302);
    // Serial ids go on after the copied ones: the next car or lead gets a fresh number.
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ next: number }>("SELECT nextval(pg_get_serial_sequence('vehicles', 'id'))::int AS next");
      expect(rows[0]!.next).toBeGreaterThan(53);
      expect((await client.query<{ installation_id: string }>('SELECT installation_id FROM installation')).rows).toEqual([{ installation_id: installation }]);
    } finally {
      await client.end();
    }
  }, 300_000);

  it('refuses a target that is not a PostgreSQL address, saying how to call it', async () => {
    const refused = await migrate('/nonexistent', 'mysql://somewhere/db');
    expect(refused.status).toBe(1);
    expect(refused.output).toContain('--to must be a postgres:// address.');
    expect(refused.output).toContain('npm run migrate-to-postgres -- --to');
  });
});
