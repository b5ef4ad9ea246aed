import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The admin's additions to the shipped catalogue of cars sold in India (decision 098,
 * server/catalog/car-models.json): a make, model or variant the list lacks. One row adds one
 * model, or one variant of a model (`variant` not empty); the `*_key` columns hold the names as
 * the matcher folds them (app/lib/name-matching.ts foldName), so one car is added once however
 * its name is spelt in capitals or punctuation.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('car_model_additions')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('make', 'text', (col) => col.notNull())
    .addColumn('make_hi', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('model_hi', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('variant', 'text', (col) => col.notNull().defaultTo(''))
    // A BODY_TYPES key (app/lib/listing-filters/options.ts), or '' when not said.
    .addColumn('body_type', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('make_key', 'text', (col) => col.notNull())
    .addColumn('model_key', 'text', (col) => col.notNull())
    .addColumn('variant_key', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('added_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addCheckConstraint(
      'car_model_additions_names_check',
      sql`length(make_key) > 0 AND length(model_key) > 0 AND length(make) <= 40 AND length(model) <= 60 AND length(variant) <= 60`,
    )
    .addUniqueConstraint('car_model_additions_car_uq', ['make_key', 'model_key', 'variant_key'])
    .execute();
}
