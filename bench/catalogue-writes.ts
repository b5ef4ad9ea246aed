/**
 * What the catalogue's version costs the writes to `vehicles` on PostgreSQL: every statement that
 * writes a car bumps `catalogue_version` in the writer's transaction (a trigger, migration 026).
 * Kept in one row, concurrent writers of different cars queued behind that row until each
 * committed; migration 040 spreads it over 64 rows. Measured as ratios in one run, rounds
 * alternating so the machine's other load falls on all alike: writes per second with the version
 * as shipped (64 rows), and with the one row of 026, each ÷ the same writes with the trigger off.
 *
 *   npm run bench -- writes [--concurrency=16] [--seconds=3] [--rounds=3]
 *
 * One write is a reservation's shape: update the car, read its photos, update it again, commit
 * (four round trips, the version's lock held from the first to the commit).
 */
import pg from 'pg';
import { createCategory } from '../server/catalog/vehicles.ts';
import { openDatabase } from '../server/db/connection.ts';
import { demoCategories } from '../server/db/demo/inventory.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { createPostgresDatabase, postgresAvailable } from '../tests/support/server.ts';
import { loadAverage, option, random, writeResult } from './lib/common.ts';
import { fill } from './lib/inventory.ts';

const CONCURRENCY = Number(option('concurrency') ?? 16);
const SECONDS = Number(option('seconds') ?? 3);
const ROUNDS = Number(option('rounds') ?? 3);
const CARS = 2000;

type Mode = 'as shipped' | 'one row' | 'without the version';
const SHIPPED_BUMP = 'UPDATE catalogue_version SET version = version + 1 WHERE id = 1 + (txid_current() % 64)';
const ONE_ROW_BUMP = 'UPDATE catalogue_version SET version = version + 1 WHERE id = 1';
const bumpWith = (statement: string) =>
  `CREATE OR REPLACE FUNCTION catalogue_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${statement}; RETURN NULL; END $$`;

async function writesPerSecond(pool: pg.Pool): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let writes = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      const client = await pool.connect();
      try {
        for (let turn = 0; performance.now() < until; turn++) {
          // Each worker writes its own cars: no two writers ever want the same car's row.
          const id = 1 + ((worker + turn * CONCURRENCY) % CARS);
          await client.query('BEGIN');
          await client.query('UPDATE vehicles SET updated_at = $1 WHERE id = $2', [new Date().toISOString(), id]);
          await client.query('SELECT count(*) FROM vehicle_images WHERE vehicle_id = $1', [id]);
          await client.query('UPDATE vehicles SET status = status WHERE id = $1', [id]);
          await client.query('COMMIT');
          writes += 1;
        }
      } finally {
        client.release();
      }
    }),
  );
  return writes / SECONDS;
}

async function main() {
  if (!(await postgresAvailable())) {
    console.error('PostgreSQL is not reachable at 127.0.0.1:5432; nothing measured.');
    process.exit(1);
  }
  const created = await createPostgresDatabase();
  const database = openDatabase({ dataDir: '/tmp', databaseUrl: created.url });
  const pool = new pg.Pool({ connectionString: created.url, max: CONCURRENCY });
  const load = { start: loadAverage(), end: 0 };
  try {
    await migrateToLatest(database);
    const categoryIds = new Map<string, number>();
    for (const category of demoCategories) categoryIds.set(category.name, await createCategory(database, { name: category.name }, Date.now()));
    await fill(database, random(2024), categoryIds, 0, CARS);
    const samples: Record<Mode, number[]> = { 'as shipped': [], 'one row': [], 'without the version': [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of Object.keys(samples) as Mode[]) {
        await pool.query(`ALTER TABLE vehicles ${mode === 'without the version' ? 'DISABLE' : 'ENABLE'} TRIGGER catalogue_version_bump`);
        await pool.query(bumpWith(mode === 'one row' ? ONE_ROW_BUMP : SHIPPED_BUMP));
        const rate = await writesPerSecond(pool);
        samples[mode].push(rate);
        console.log(`round ${round + 1}: ${mode.padEnd(20)} ${rate.toFixed(0)} writes/s`);
      }
    }
    load.end = loadAverage();
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const shipped = median(samples['as shipped']);
    const oneRow = median(samples['one row']);
    const without = median(samples['without the version']);
    console.log(`as shipped ÷ without the version: ${((shipped / without) * 100).toFixed(1)}%; one row ÷ without: ${((oneRow / without) * 100).toFixed(1)}%`);
    writeResult('writes', {
      load,
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      rounds: ROUNDS,
      cars: CARS,
      samples,
      shipped,
      oneRow,
      without,
      ratio: shipped / without,
      oneRowRatio: oneRow / without,
    });
  } finally {
    await pool.end();
    await database.close();
    await created.drop();
  }
}

await main();
