import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { NodeSqliteDialect } from '@better-auth/kysely-adapter/node-sqlite-dialect';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export type Database = {
  db: Kysely<DB>;
  dialect: Dialect;
  close: () => Promise<void>;
};

/**
 * The one place that opens the database. SQLite (a file in DATA_DIR) unless DATABASE_URL
 * points at PostgreSQL.
 */
export function openDatabase(options: { dataDir: string; databaseUrl?: string | undefined }): Database {
  if (options.databaseUrl) {
    // int8 (COUNT(*), bigint sums) arrives as a string by default; our numbers fit in a double.
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
    // A database that does not answer fails the query after 10 s instead of hanging it.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: 10_000 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }

  mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'gaadi-bazaar.sqlite');
  const sqlite = new DatabaseSync(file);
  // WAL lets readers run while a write is in progress; busy_timeout waits out a short lock
  // instead of failing the request.
  sqlite.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  const db = new Kysely<DB>({ dialect: new NodeSqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
