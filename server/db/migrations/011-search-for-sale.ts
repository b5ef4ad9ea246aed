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
  // entry it holds: hence one trigger per side of the change.
  await sql`CREATE TRIGGER vehicles_fts_update_old AFTER UPDATE OF search_text, status, purpose ON vehicles WHEN old.status <> 'sold' AND old.purpose = 'sale' BEGIN
    INSERT INTO vehicles_fts(vehicles_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
  END`.execute(db);
  await sql`CREATE TRIGGER vehicles_fts_update_new AFTER UPDATE OF search_text, status, purpose ON vehicles WHEN new.status <> 'sold' AND new.purpose = 'sale' BEGIN
    INSERT INTO vehicles_fts(rowid, search_text) VALUES (new.id, new.search_text);
  END`.execute(db);
  await sql`INSERT INTO vehicles_fts(vehicles_fts) VALUES ('delete-all')`.execute(db);
  await sql`INSERT INTO vehicles_fts(rowid, search_text) SELECT id, search_text FROM vehicles WHERE status <> 'sold' AND purpose = 'sale'`.execute(db);
}
