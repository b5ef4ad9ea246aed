import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/** Leads: cars visitors ask the dealer to find, and cars visitors offer to sell. */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement());

  // SPEC 3, Vehicle request, plus how the dealer is working it.
  await db.schema
    .createTable('vehicle_requests')
    .addColumn('id', serialId, id)
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('year', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('budget', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new'))
    .addColumn('notes', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('vehicle_requests_created_idx').on('vehicle_requests').column('created_at').execute();

  // SPEC 3, Sell submission.
  await db.schema
    .createTable('sell_submissions')
    .addColumn('id', serialId, id)
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('vehicle', 'text', (col) => col.notNull())
    .addColumn('year', 'text', (col) => col.notNull())
    .addColumn('price', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('new'))
    .addColumn('notes', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sell_submissions_created_idx').on('sell_submissions').column('created_at').execute();

  // Photos of a sell submission, stored like vehicle photos (see VehicleImageTable).
  await db.schema
    .createTable('sell_submission_images')
    .addColumn('id', serialId, id)
    .addColumn('submission_id', 'integer', (col) => col.notNull().references('sell_submissions.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('width', 'integer', (col) => col.notNull())
    .addColumn('height', 'integer', (col) => col.notNull())
    .addColumn('variant_widths', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sell_submission_images_idx').on('sell_submission_images').columns(['submission_id', 'position']).execute();
}
