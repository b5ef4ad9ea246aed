import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/** What vehicle_search copies from vehicles: the searched text and every column a listing sorts by. */
const COPIED = ['search_text', 'featured', 'created_at', 'price_rupees', 'model_year', 'odometer'] as const;

/**
 * PostgreSQL: `vehicle_search`, one narrow row per car for sale (id, its search text and the
 * columns of the listing's orders) carrying its own trigram index and order indexes. pg_trgm
 * always rechecks LIKE on the row, so a search on `vehicles` read every match's ~1 KB row
 * (description, JSON maps) just to check the text and sort; here a match costs a ~350-byte row
 * (docs/decisions/040-search-side-table.md). A trigger keeps it in step with vehicles, as
 * SQLite's FTS index (vehicles_fts, migrations 001 and 011) is kept, and it holds the same
 * cars: not sold, sale stock. SQLite: nothing to do, vehicles_fts is already its side index.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  if (dialect !== 'postgres') return;
  await sql`CREATE TABLE vehicle_search (
    id integer PRIMARY KEY REFERENCES vehicles (id) ON DELETE CASCADE,
    search_text text NOT NULL,
    featured integer NOT NULL,
    created_at text NOT NULL,
    price_rupees bigint,
    model_year integer,
    odometer integer
  )`.execute(db);
  const columns = sql.raw(COPIED.join(', '));
  const fromNew = sql.raw(COPIED.map((column) => `NEW.${column}`).join(', '));
  const fromExcluded = sql.raw(COPIED.map((column) => `${column} = EXCLUDED.${column}`).join(', '));
  await sql`CREATE FUNCTION vehicle_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.status <> 'sold' AND NEW.purpose = 'sale' THEN
      INSERT INTO vehicle_search (id, ${columns}) VALUES (NEW.id, ${fromNew})
        ON CONFLICT (id) DO UPDATE SET ${fromExcluded};
    ELSIF TG_OP = 'UPDATE' THEN
      DELETE FROM vehicle_search WHERE id = NEW.id;
    END IF;
    RETURN NULL;
  END $$`.execute(db);
  // A deleted car leaves through the foreign key. An update that changes none of the copied
  // columns (most of an admin's edits rewrite every column with the same values) writes nothing.
  const watched = ['status', 'purpose', ...COPIED];
  const oldValues = sql.raw(watched.map((column) => `OLD.${column}`).join(', '));
  const newValues = sql.raw(watched.map((column) => `NEW.${column}`).join(', '));
  await sql`CREATE TRIGGER vehicle_search_insert AFTER INSERT ON vehicles FOR EACH ROW EXECUTE FUNCTION vehicle_search_sync()`.execute(db);
  await sql`CREATE TRIGGER vehicle_search_update AFTER UPDATE ON vehicles FOR EACH ROW
    WHEN ((${oldValues}) IS DISTINCT FROM (${newValues})) EXECUTE FUNCTION vehicle_search_sync()`.execute(db);
  await sql`INSERT INTO vehicle_search (id, ${columns}) SELECT id, ${columns} FROM vehicles WHERE status <> 'sold' AND purpose = 'sale'`.execute(db);

  await sql`CREATE INDEX vehicle_search_trgm_idx ON vehicle_search USING gin (search_text gin_trgm_ops)`.execute(db);
  // Each of the listing's orders exactly as filters.ts sortOrder writes it, so a first page of a
  // common word walks one of them and stops after ten matches.
  const ORDERS: Array<[name: string, columns: string]> = [
    ['vehicle_search_newest_idx', 'featured DESC, created_at DESC, id DESC'],
    ['vehicle_search_price_asc_idx', 'price_rupees ASC NULLS LAST, id DESC'],
    ['vehicle_search_price_desc_idx', 'price_rupees DESC NULLS LAST, id DESC'],
    ['vehicle_search_year_desc_idx', 'model_year DESC NULLS LAST, id DESC'],
    ['vehicle_search_km_asc_idx', 'odometer ASC NULLS LAST, id DESC'],
  ];
  for (const [name, columns] of ORDERS) await sql`CREATE INDEX ${sql.id(name)} ON vehicle_search (${sql.raw(columns)})`.execute(db);
  await sql`ANALYZE vehicle_search`.execute(db);
}
