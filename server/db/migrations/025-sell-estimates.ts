import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Sellers (decision 081). The seller's car and the estimate they were shown, kept with their sell submission
 * (decision 081): JSON text, the same on both databases; null for a submission made without
 * the estimate step (older ones, or a visitor who skipped it).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  await db.schema.alterTable('sell_submissions').addColumn('car', 'text').execute();
  await db.schema.alterTable('sell_submissions').addColumn('estimate', 'text').execute();

  // Inspections of a seller's car, at the hub or at home: slots as test drives have them
  // (migration 007's seats), so the unique index on (slot_start, seat) over the bookings not
  // cancelled keeps a slot within its capacity whatever runs at once, on both databases.
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('inspections')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_id', 'text', (col) => col.notNull())
    // JSON: the seller's car and the estimate shown for it when booked.
    .addColumn('car', 'text', (col) => col.notNull())
    .addColumn('estimate', 'text', (col) => col.notNull())
    // 'hub' | 'home'
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('pin_code', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('slot_start', 'text', (col) => col.notNull())
    .addColumn('seat', 'integer', (col) => col.notNull())
    // 'booked' | 'confirmed' | 'done' | 'no_show' | 'cancelled'
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addCheckConstraint('inspections_seat_check', sql`seat >= 0`)
    .execute();
  await sql`CREATE UNIQUE INDEX inspections_seat_uq ON inspections (slot_start, seat) WHERE status <> 'cancelled'`.execute(db);
  await sql`CREATE UNIQUE INDEX inspections_user_slot_uq ON inspections (user_id, slot_start) WHERE status <> 'cancelled'`.execute(db);
  await db.schema.createIndex('inspections_user_idx').on('inspections').columns(['user_id', 'slot_start']).execute();
}
