import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/** Categories, vehicles, their images, and the substring search index. */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';

  await db.schema
    .createTable('categories')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('image_key', 'text')
    .addColumn('image_width', 'integer')
    .addColumn('image_height', 'integer')
    .addColumn('image_widths', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('vehicles')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('category_id', 'integer', (col) => col.notNull().references('categories.id').onDelete('restrict'))
    .addColumn('name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('make', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('model', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('variant', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('year', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('fuel_type', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('transmission', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('price', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('price_rupees', 'bigint')
    .addColumn('owners', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('registration', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('insurance_validity', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('odometer', 'integer')
    .addColumn('fitness_fc', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('tyre_point', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('featured', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('inspection', 'text')
    .addColumn('refurbishment', 'text')
    .addColumn('financial', 'text')
    .addColumn('video_url', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('available'))
    .addColumn('sold_price', 'bigint')
    .addColumn('sold_at', 'text')
    .addColumn('search_text', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('vehicles_category_idx').on('vehicles').column('category_id').execute();
  // The listing's order: what is for sale, featured first, newest first.
  await db.schema.createIndex('vehicles_listing_idx').on('vehicles').columns(['status', 'featured', 'created_at']).execute();

  await db.schema
    .createTable('vehicle_images')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('vehicle_id', 'integer', (col) => col.notNull().references('vehicles.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('width', 'integer', (col) => col.notNull())
    .addColumn('height', 'integer', (col) => col.notNull())
    .addColumn('variant_widths', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('vehicle_images_vehicle_idx').on('vehicle_images').columns(['vehicle_id', 'position']).execute();

  if (dialect === 'postgres') {
    // pg_trgm makes LIKE '%term%' use an index instead of reading every row.
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX vehicles_search_trgm_idx ON vehicles USING gin (search_text gin_trgm_ops)`.execute(db);
  } else {
    // An external-content FTS5 table with the trigram tokenizer answers substring matches of
    // three or more characters from an index; triggers keep it in step with vehicles.
    await sql`CREATE VIRTUAL TABLE vehicles_fts USING fts5(search_text, content='vehicles', content_rowid='id', tokenize='trigram')`.execute(db);
    await sql`CREATE TRIGGER vehicles_fts_insert AFTER INSERT ON vehicles BEGIN
      INSERT INTO vehicles_fts(rowid, search_text) VALUES (new.id, new.search_text);
    END`.execute(db);
    await sql`CREATE TRIGGER vehicles_fts_delete AFTER DELETE ON vehicles BEGIN
      INSERT INTO vehicles_fts(vehicles_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    END`.execute(db);
    await sql`CREATE TRIGGER vehicles_fts_update AFTER UPDATE OF search_text ON vehicles BEGIN
      INSERT INTO vehicles_fts(vehicles_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
      INSERT INTO vehicles_fts(rowid, search_text) VALUES (new.id, new.search_text);
    END`.execute(db);
  }
}
