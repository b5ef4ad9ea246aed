import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The listing's indexes cover what the listing reads: cars for sale, i.e. not sold AND sale
 * stock. Since the rental fleet (migration 008) every listing also asks `purpose = 'sale'`,
 * which the indexes of migrations 005 and 006 (`status <> 'sold'` only) could not answer, so
 * walking the listing's order read every car's row just to check its purpose
 * (docs/decisions/033-search-at-100k.md). The rental fleet gets its own small partial index:
 * listing it read the whole table.
 */
const SALE_INDEXES: Array<[name: string, columns: string]> = [
  ['vehicles_price_idx', 'price_rupees, id'],
  ['vehicles_model_year_idx', 'model_year, id'],
  ['vehicles_odometer_idx', 'odometer, id'],
  ['vehicles_make_model_idx', 'make_slug, model_slug'],
];

export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const forSale = sql`WHERE status <> 'sold' AND purpose = 'sale'`;
  await sql`DROP INDEX IF EXISTS vehicles_for_sale_idx`.execute(db);
  if (dialect === 'postgres') {
    await sql`CREATE INDEX vehicles_for_sale_idx ON vehicles (featured DESC, created_at DESC, id DESC) ${forSale}`.execute(db);
  } else {
    // SQLite walks an ascending index backwards for the descending order.
    await sql`CREATE INDEX vehicles_for_sale_idx ON vehicles (featured, created_at, id) ${forSale}`.execute(db);
  }
  for (const [name, columns] of SALE_INDEXES) {
    await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(name)} ON vehicles (${sql.raw(columns)}) ${forSale}`.execute(db);
  }
  await sql`CREATE INDEX vehicles_rental_fleet_idx ON vehicles (id) WHERE purpose = 'rental'`.execute(db);
  if (dialect === 'postgres') await sql`ANALYZE vehicles`.execute(db);
}
