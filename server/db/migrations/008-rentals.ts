import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/** Self-drive rental: the renters' driving licences. */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema
    .createTable('driving_licences')
    .addColumn('user_id', 'text', (col) => col.primaryKey())
    .addColumn('number', 'text', (col) => col.notNull())
    .addColumn('date_of_birth', 'text', (col) => col.notNull())
    .addColumn('front_key', 'text', (col) => col.notNull())
    .addColumn('back_key', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('refusal_reason', 'text')
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('driving_licences_status_idx').on('driving_licences').columns(['status', 'updated_at']).execute();
}
