import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/** How many rows PostgreSQL's catalogue version is spread over. */
const SHARDS = 64;

/**
 * PostgreSQL's catalogue version spread over 64 rows, and the version read as their sum
 * (decision 082, amended). Migration 026 bumped one row in every transaction that wrote a car, so
 * writers of different cars queued behind that row's lock until each committed: on 16 writers,
 * 15.5% of the writes per second the same writes made without the version (bench `writes`). Now a
 * transaction bumps the row its transaction id picks, so writers rarely share one; each commit
 * still raises the sum, and a reader still sees only committed bumps. SQLite has one writer at a
 * time and keeps its one row.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  if (dialect !== 'postgres') return;
  await sql`INSERT INTO catalogue_version (id, version) SELECT shard, 0 FROM generate_series(2, ${sql.lit(SHARDS)}) AS shard`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION catalogue_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE catalogue_version SET version = version + 1 WHERE id = 1 + (txid_current() % ${sql.lit(SHARDS)});
      RETURN NULL;
    END $$`.execute(db);
}
