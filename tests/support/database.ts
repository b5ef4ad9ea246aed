import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createPostgresDatabase, type Dialect } from './server.ts';

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
