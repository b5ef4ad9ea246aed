import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The photo checklist of a rental's handover and return (docs/decisions/067): one row per
 * booking and stage, with the odometer, the fuel level in eighths and the photos (the four
 * sides, the dashboard, and each damage note with its photo) as JSON. The photos themselves
 * are in the private storage under `rental-checklists/`; the row is deleted with its booking.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('rental_checklists')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('booking_id', 'integer', (col) => col.notNull().references('rental_bookings.id').onDelete('cascade'))
    // 'handover' | 'return'
    .addColumn('stage', 'text', (col) => col.notNull())
    .addColumn('odometer', 'integer', (col) => col.notNull())
    .addColumn('fuel', 'integer', (col) => col.notNull())
    // JSON: ChecklistPhoto[] (server/rentals/checklists.ts)
    .addColumn('photos', 'text', (col) => col.notNull())
    .addColumn('recorded_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('rental_checklists_booking_stage_idx').on('rental_checklists').columns(['booking_id', 'stage']).unique().execute();
}
