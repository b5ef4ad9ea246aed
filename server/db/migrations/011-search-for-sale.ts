import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * SQLite's search index (vehicles_fts, FTS5 trigram) holds only vehicles for sale: sold ones
 * and the rental fleet (decision 020) never show in a search, and with them in the index every search read their rows only to drop
 * them (docs/decisions/028-listing-at-scale.md). The triggers keep it so as a vehicle is sold or
 * back on sale. PostgreSQL's pg_trgm index is a plain index on the table: nothing to change.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  if (dialect !== 'sqlite') return;
  await sql`DROP TRIGGER IF EXISTS vehicles_fts_insert`.execute(db);
  await sql`DROP TRIGGER IF EXISTS vehicles_fts_delete`.execute(db);
  await sql`DROP TRIGGER IF EXISTS vehicles_fts_update`.execute(db);
  await sql`CREATE TRIGGER vehicles_fts_insert AFTER INSERT ON vehicles WHEN new.status <> 'sold' AND new.purpose = 'sale' BEGIN
    INSERT INTO vehicles_fts(rowid, search_text) VALUES (new.id, new.search_text);
  END`.execute(db);
  await sql`CREATE TRIGGER vehicles_fts_delete AFTER DELETE ON vehicles WHEN old.status <> 'sold' AND old.purpose = 'sale' BEGIN
    INSERT INTO vehicles_fts(vehicles_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
  END`.execute(db);
  // An external-content index must be told the old text to remove an entry, and only of an
  // entry it holds; one trigger does both sides in order (two triggers on one event would run
  // in an order SQLite does not promise, and the removal could take the new entry with it).
  await sql`CREATE TRIGGER vehicles_fts_update AFTER UPDATE OF search_text, status, purpose ON vehicles BEGIN
    INSERT INTO vehicles_fts(vehicles_fts, rowid, search_text) SELECT 'delete', old.id, old.search_text WHERE old.status <> 'sold' AND old.purpose = 'sale';
    INSERT INTO vehicles_fts(rowid, search_text) SELECT new.id, new.search_text WHERE new.status <> 'sold' AND new.purpose = 'sale';
  END`.execute(db);
  await sql`INSERT INTO vehicles_fts(vehicles_fts) VALUES ('delete-all')`.execute(db);
  await sql`INSERT INTO vehicles_fts(rowid, search_text) SELECT id, search_text FROM vehicles WHERE status <> 'sold' AND purpose = 'sale'`.execute(db);
}
