import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Self-drive rental (docs/decisions/020): a vehicle's purpose (sale stock or rental fleet), the
 * rental terms of a fleet car, its bookings and the desk's blocks (one table, so one constraint
 * covers both), and the renters' driving licences.
 *
 * Times of a booking are epoch milliseconds in bigint columns: both dialects compare integers
 * the same way, and PostgreSQL can put them in an `int8range` for the exclusion constraint.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';

  await db.schema
    .alterTable('vehicles')
    .addColumn('purpose', 'text', (col) => col.notNull().defaultTo('sale'))
    .execute();

  await db.schema
    .createTable('rental_terms')
    .addColumn('vehicle_id', 'integer', (col) => col.primaryKey().references('vehicles.id').onDelete('cascade'))
    .addColumn('hourly_rate', 'integer', (col) => col.notNull())
    .addColumn('daily_rate', 'integer', (col) => col.notNull())
    .addColumn('weekly_rate', 'integer')
    // null: unlimited km.
    .addColumn('km_per_day', 'integer')
    .addColumn('extra_km_rate', 'integer', (col) => col.notNull())
    .addColumn('deposit', 'integer', (col) => col.notNull())
    .addColumn('fuel_policy', 'text', (col) => col.notNull())
    .addColumn('min_age', 'integer', (col) => col.notNull().defaultTo(21))
    .addColumn('min_hours', 'integer', (col) => col.notNull().defaultTo(4))
    .addColumn('seats', 'integer', (col) => col.notNull())
    .addColumn('commercial_registration', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('delivery_available', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('rental_bookings')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    // 'booking' (a renter's) or 'block' (the desk's: servicing, personal use).
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('vehicle_id', 'integer', (col) => col.notNull().references('vehicles.id').onDelete('cascade'))
    .addColumn('user_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('starts_ms', 'bigint', (col) => col.notNull())
    .addColumn('ends_ms', 'bigint', (col) => col.notNull())
    // ends_ms plus the turnaround buffer in force when booked: the range the car is held.
    .addColumn('held_until_ms', 'bigint', (col) => col.notNull())
    .addColumn('pickup', 'text', (col) => col.notNull().defaultTo('hub'))
    .addColumn('pin_code', 'text', (col) => col.notNull().defaultTo(''))
    // The quote and the terms as booked (JSON): later changes to the terms do not change it.
    .addColumn('quote', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('terms', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('payment_method', 'text', (col) => col.notNull().defaultTo('pay-at-pickup'))
    .addColumn('amount_paid', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('amount_refunded', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('payment_order_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('hold_expires_ms', 'bigint')
    .addColumn('odometer_out', 'integer')
    .addColumn('fuel_out', 'integer')
    .addColumn('odometer_in', 'integer')
    .addColumn('fuel_in', 'integer')
    .addColumn('returned_ms', 'bigint')
    // The charges at return (JSON, app/lib/rental-price.ts ReturnCharges).
    .addColumn('charges', 'text')
    .addColumn('deposit_refund', 'integer')
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('reminder_sent_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('rental_bookings_vehicle_idx').on('rental_bookings').columns(['vehicle_id', 'starts_ms']).execute();
  await db.schema.createIndex('rental_bookings_user_idx').on('rental_bookings').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('rental_bookings_status_idx').on('rental_bookings').columns(['status', 'starts_ms']).execute();
  await db.schema.createIndex('rental_bookings_order_idx').on('rental_bookings').column('payment_order_id').execute();

  if (dialect === 'postgres') {
    // The database itself refuses two holding rows of one car whose ranges overlap, whatever
    // the code above it does: no check-then-insert race can double-book (bookcars issue #81).
    await sql`CREATE EXTENSION IF NOT EXISTS btree_gist`.execute(db);
    await sql`ALTER TABLE rental_bookings ADD CONSTRAINT rental_bookings_no_overlap
      EXCLUDE USING gist (vehicle_id WITH =, int8range(starts_ms, held_until_ms) WITH &&)
      WHERE (status IN ('requested', 'confirmed', 'active', 'blocked'))`.execute(db);
  } else {
    // SQLite has no exclusion constraint: the services check and insert in one BEGIN IMMEDIATE
    // transaction, and these triggers refuse an overlapping hold written any other way.
    const clash = (except: string) =>
      sql.raw(`SELECT RAISE(ABORT, 'rental_bookings_no_overlap') WHERE EXISTS (
        SELECT 1 FROM rental_bookings AS other WHERE other.vehicle_id = NEW.vehicle_id ${except}
          AND other.status IN ('requested', 'confirmed', 'active', 'blocked')
          AND other.starts_ms < NEW.held_until_ms AND other.held_until_ms > NEW.starts_ms)`);
    await sql`CREATE TRIGGER rental_bookings_no_overlap_insert BEFORE INSERT ON rental_bookings
      WHEN NEW.status IN ('requested', 'confirmed', 'active', 'blocked')
      BEGIN ${clash('')}; END`.execute(db);
    await sql`CREATE TRIGGER rental_bookings_no_overlap_update BEFORE UPDATE OF vehicle_id, status, starts_ms, held_until_ms ON rental_bookings
      WHEN NEW.status IN ('requested', 'confirmed', 'active', 'blocked')
      BEGIN ${clash('AND other.id <> NEW.id')}; END`.execute(db);
  }

  await db.schema
    .createTable('driving_licences')
    .addColumn('user_id', 'text', (col) => col.primaryKey())
    .addColumn('number', 'text', (col) => col.notNull())
    // YYYY-MM-DD
    .addColumn('date_of_birth', 'text', (col) => col.notNull())
    .addColumn('front_key', 'text', (col) => col.notNull())
    .addColumn('back_key', 'text', (col) => col.notNull())
    // 'pending' | 'approved' | 'refused'
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('refusal_reason', 'text')
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('driving_licences_status_idx').on('driving_licences').columns(['status', 'updated_at']).execute();
}
