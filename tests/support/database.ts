import { mkdtemp, rm } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import type { VehicleTable } from '../../server/db/schema.ts';
import type { Insertable } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createPostgresDatabase, startTestServer, type Dialect, type TestServer } from './server.ts';

/**
 * A migrated database of its own for tests of one service (no server): a temporary SQLite file,
 * or a freshly created PostgreSQL database. `cleanup` closes it and removes it. `upTo`: migrated
 * only up to that migration (tests of a later migration store rows from before it).
 */
export type TestDatabase = { database: Database; cleanup: () => Promise<void> };

export async function openTestDatabase(dialect: Dialect, options: { upTo?: string } = {}): Promise<TestDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gaadi-unit-'));
  const created = dialect === 'postgres' ? await createPostgresDatabase() : null;
  const database = openDatabase({ dataDir, databaseUrl: created?.url });
  await migrateToLatest(database, options);
  return {
    database,
    cleanup: async () => {
      await database.close();
      await created?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The database of a running test server, for setting up states no page can reach any more
 * (for example data left from before a rule existed). Close it when done.
 */
export function openServerDatabase(server: { dataDir: string; databaseUrl: string | undefined }): Database {
  return openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
}

/** Plain SQL on a running test server's database, with `?` placeholders on both dialects. */
export type ServerSql = {
  all: <T>(text: string, params?: unknown[]) => Promise<T[]>;
  run: (text: string, params?: unknown[]) => Promise<void>;
  close: () => Promise<void>;
};

/** A direct connection to a test server's database, for what no page shows (how codes or leads are stored). */
export async function openServerSql(server: Pick<TestServer, 'dialect' | 'dataDir' | 'databaseUrl'>): Promise<ServerSql> {
  if (server.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    const numbered = (text: string) => {
      let index = 0;
      return text.replace(/\?/g, () => `$${++index}`);
    };
    return {
      all: async <T>(text: string, params: unknown[] = []) => (await client.query(numbered(text), params)).rows as T[],
      run: async (text: string, params: unknown[] = []) => {
        await client.query(numbered(text), params);
      },
      close: () => client.end(),
    };
  }
  const db = new DatabaseSync(path.join(server.dataDir, 'gaadi-bazaar.sqlite'));
  db.exec('PRAGMA busy_timeout = 5000');
  return {
    all: async <T>(text: string, params: unknown[] = []) => db.prepare(text).all(...(params as string[])) as T[],
    run: async (text: string, params: unknown[] = []) => {
      db.prepare(text).run(...(params as string[]));
    },
    close: async () => db.close(),
  };
}

/** A vehicles row to insert straight into a test database: a plain car for sale, available, unless `fields` say otherwise. */
export function vehicleRow(fields: Pick<Insertable<VehicleTable>, 'category_id' | 'name'> & Partial<Insertable<VehicleTable>>): Insertable<VehicleTable> {
  const now = new Date().toISOString();
  return {
    make: '',
    model: '',
    variant: '',
    year: '2020',
    fuel_type: 'Petrol',
    transmission: 'Manual',
    price: '500000',
    price_rupees: 500000,
    owners: '1',
    registration: '',
    insurance_validity: '',
    odometer: 1000,
    fitness_fc: '',
    tyre_point: '',
    description: '',
    featured: 0,
    inspection: null,
    refurbishment: null,
    financial: null,
    video_url: '',
    status: 'available',
    sold_price: null,
    sold_at: null,
    search_text: fields.name.toLowerCase(),
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/**
 * For a describe block that reads the schema: a test server of `dialect` migrates an empty
 * database (ours and better-auth's tables), and the returned function gives that database.
 */
export function migratedSchemaDatabase(dialect: Dialect): () => Database {
  let server: TestServer | undefined;
  let database: Database | undefined;
  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: false });
    database = openServerDatabase(server);
  });
  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });
  return () => {
    if (!database) throw new Error('the migrated database is opened in beforeAll');
    return database;
  };
}
