import { sql, type Kysely } from 'kysely';
import { colourIn } from '../../catalog/dealer-text.ts';
import { filterColumns } from '../../catalog/filters.ts';
import { buildSearchText, searchedFieldsOf } from '../../catalog/search.ts';
import type { Dialect } from '../connection.ts';

/**
 * The buyer's filters (decision 023): body type and colour set by the admin, and the columns
 * read from what the dealer typed (make and model slugs, model year, fuel and transmission
 * keys, owners, registration state), filled in for every car already stored. The searched
 * text is rebuilt to cover fuel, transmission, body type and the registration's city.
 *
 * Body type is filled from the category where its name says it (Hatchbacks, SUVs…), colour
 * from the first colour the description names; both stay blank otherwise for the admin to set.
 */

/** Category names that say a body type. */
const CATEGORY_BODY_TYPES: Array<[RegExp, string]> = [
  [/hatch/i, 'hatchback'],
  [/sedan/i, 'sedan'],
  [/\bsuvs?\b/i, 'suv'],
  [/\bmuvs?\b|\bmpvs?\b/i, 'muv'],
  [/luxury/i, 'luxury'],
  [/pick-?up/i, 'pickup'],
  [/convertible/i, 'convertible'],
  [/coupe/i, 'coupe'],
];

const BATCH = 500;

type Row = {
  id: number;
  category_name: string;
  make: string;
  model: string;
  name: string;
  variant: string;
  year: string;
  fuel_type: string;
  transmission: string;
  owners: string;
  registration: string;
  description: string;
};

export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const text = ['body_type', 'colour', 'make_slug', 'model_slug', 'fuel_key', 'transmission_key', 'registration_state'];
  for (const column of text) {
    await db.schema
      .alterTable('vehicles')
      .addColumn(column, 'text', (col) => col.notNull().defaultTo(''))
      .execute();
  }
  await db.schema.alterTable('vehicles').addColumn('model_year', 'integer').execute();
  await db.schema.alterTable('vehicles').addColumn('owner_count', 'integer').execute();

  // Every stored car, a batch at a time in id order (a large inventory never sits in memory).
  let after = 0;
  for (;;) {
    const { rows } = await sql<Row>`SELECT vehicles.id, categories.name AS category_name, vehicles.make, vehicles.model, vehicles.name,
        vehicles.variant, vehicles.year, vehicles.fuel_type, vehicles.transmission, vehicles.owners, vehicles.registration, vehicles.description
      FROM vehicles INNER JOIN categories ON categories.id = vehicles.category_id
      WHERE vehicles.id > ${after} ORDER BY vehicles.id LIMIT ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    // PostgreSQL runs the whole migration in one transaction already; SQLite writes each batch in one.
    const inBatch = async (run: (trx: Kysely<unknown>) => Promise<void>) => (db.isTransaction ? run(db) : db.transaction().execute(run));
    await inBatch(async (trx) => {
      for (const row of rows) {
        const bodyType = CATEGORY_BODY_TYPES.find(([pattern]) => pattern.test(row.category_name))?.[1] ?? '';
        const columns = filterColumns({ ...row, fuelType: row.fuel_type });
        const searchText = buildSearchText(searchedFieldsOf({ ...row, body_type: bodyType }, row.category_name));
        await sql`UPDATE vehicles SET body_type = ${bodyType}, colour = ${colourIn(row.description)},
            make_slug = ${columns.make_slug}, model_slug = ${columns.model_slug}, model_year = ${columns.model_year},
            fuel_key = ${columns.fuel_key}, transmission_key = ${columns.transmission_key}, owner_count = ${columns.owner_count},
            registration_state = ${columns.registration_state}, search_text = ${searchText}
          WHERE id = ${row.id}`.execute(trx);
      }
    });
    after = rows.at(-1)!.id;
  }

  // The sorts other than the default, over what is for sale (as vehicles_for_sale_idx): a
  // page sorted by price, year or km is read in index order instead of sorting every match.
  // Makes and models are the most chosen filters; the other filters have a handful of values
  // each and are answered by the scan the count makes anyway.
  const forSale = sql`WHERE status <> 'sold'`;
  await sql`CREATE INDEX vehicles_price_idx ON vehicles (price_rupees, id) ${forSale}`.execute(db);
  await sql`CREATE INDEX vehicles_model_year_idx ON vehicles (model_year, id) ${forSale}`.execute(db);
  await sql`CREATE INDEX vehicles_odometer_idx ON vehicles (odometer, id) ${forSale}`.execute(db);
  await sql`CREATE INDEX vehicles_make_model_idx ON vehicles (make_slug, model_slug) ${forSale}`.execute(db);
  if (dialect === 'postgres') await sql`ANALYZE vehicles`.execute(db);
}
