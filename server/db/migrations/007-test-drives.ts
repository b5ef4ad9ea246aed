import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Test drives (docs/decisions/025). The rules that must hold under concurrency are partial
 * unique indexes over the bookings that are not cancelled, the same on both databases:
 * - one car is never in two test drives of the same slot: (vehicle_id, slot_start);
 * - a slot never holds more test drives than the team can run: each booking takes a numbered
 *   seat of its slot, (slot_start, seat) is unique and the service only hands out seats below
 *   the capacity in the settings;
 * - one person is never in two test drives at once: (user_id, slot_start).
 * A cancelled booking leaves all three, so its slot is free again.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('test_drives')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_id', 'text', (col) => col.notNull())
    // A car removed from the inventory leaves its bookings (named by vehicle_title) for the record.
    .addColumn('vehicle_id', 'integer', (col) => col.references('vehicles.id').onDelete('set null'))
    .addColumn('vehicle_title', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('pin_code', 'text', (col) => col.notNull().defaultTo(''))
    // Where the confirmation and the reminder went: the verified phone and the account's email at booking time.
    .addColumn('name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    // The UTC instant the slot begins, ISO-8601 text (it sorts and compares as text on both databases).
    .addColumn('slot_start', 'text', (col) => col.notNull())
    .addColumn('seat', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('booked'))
    .addColumn('reminded_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addCheckConstraint('test_drives_mode_check', sql`mode in ('hub', 'home')`)
    .addCheckConstraint('test_drives_status_check', sql`status in ('booked', 'confirmed', 'done', 'no_show', 'cancelled')`)
    .addCheckConstraint('test_drives_seat_check', sql`seat >= 0`)
    .execute();

  await sql`CREATE UNIQUE INDEX test_drives_vehicle_slot_uq ON test_drives (vehicle_id, slot_start) WHERE status <> 'cancelled'`.execute(db);
  await sql`CREATE UNIQUE INDEX test_drives_seat_uq ON test_drives (slot_start, seat) WHERE status <> 'cancelled'`.execute(db);
  await sql`CREATE UNIQUE INDEX test_drives_user_slot_uq ON test_drives (user_id, slot_start) WHERE status <> 'cancelled'`.execute(db);
  // The day's schedule and a person's list read by time; the reminder job reads what is not reminded yet.
  await db.schema.createIndex('test_drives_slot_idx').on('test_drives').column('slot_start').execute();
  await db.schema.createIndex('test_drives_user_idx').on('test_drives').columns(['user_id', 'slot_start']).execute();
}
