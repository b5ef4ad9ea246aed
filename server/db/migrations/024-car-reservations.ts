import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Reserving a car for sale with a refundable token (docs/decisions/080). The rule that must hold
 * under concurrency is a partial unique index, the same on both databases: one car has at most
 * one live reservation, `pending` (its Checkout order is being paid, until `pay_by_ms`) or
 * `active` (paid, held until `held_until_ms`). Twenty buyers pressing Reserve at once make one
 * row; the others' inserts fail on the index and they are refused before paying. A reservation
 * that ends (cancelled, expired, lapsed unpaid, converted to a sale) leaves the index, so the
 * car can be reserved again. Refunds of tokens are kept as rental refunds are (decision 050):
 * one row per refund of one payment, owed until the provider says yes, `(payment_id, reason)`
 * unique. Amounts in paise; times of rules in epoch milliseconds.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('car_reservations')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_id', 'text', (col) => col.notNull())
    // A car removed from the inventory leaves its reservations (named by vehicle_title) for the record.
    .addColumn('vehicle_id', 'integer', (col) => col.references('vehicles.id').onDelete('set null'))
    .addColumn('vehicle_title', 'text', (col) => col.notNull())
    // Where the messages went: the verified phone and the account's email at reservation time.
    .addColumn('name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('amount_paise', 'bigint', (col) => col.notNull())
    .addColumn('hold_hours', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('payment_order_id', 'text', (col) => col.unique())
    .addColumn('payment_id', 'text')
    // A payment the reservation did not accept (short, another currency, a second one), for the desk.
    .addColumn('payment_problem', 'text')
    .addColumn('pay_by_ms', 'bigint', (col) => col.notNull())
    .addColumn('held_until_ms', 'bigint')
    .addColumn('amount_refunded_paise', 'bigint', (col) => col.notNull().defaultTo(0))
    // The sale it became: the car's price and the token counted towards it, in rupees.
    .addColumn('sale_price', 'bigint')
    .addColumn('paid_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addCheckConstraint('car_reservations_status_check', sql`status in ('pending', 'active', 'lapsed', 'cancelled', 'expired', 'converted')`)
    .execute();
  await sql`CREATE UNIQUE INDEX car_reservations_live_uq ON car_reservations (vehicle_id) WHERE status IN ('pending', 'active')`.execute(db);
  await db.schema.createIndex('car_reservations_user_idx').on('car_reservations').column('user_id').execute();
  await db.schema.createIndex('car_reservations_status_idx').on('car_reservations').columns(['status', 'held_until_ms']).execute();

  await db.schema
    .createTable('reservation_refunds')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('reservation_id', 'integer', (col) => col.notNull().references('car_reservations.id').onDelete('cascade'))
    .addColumn('payment_id', 'text', (col) => col.notNull())
    .addColumn('amount_paise', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull().defaultTo('INR'))
    // 'cancelled', 'expired', 'taken', 'not accepted', 'lapsed'
    .addColumn('reason', 'text', (col) => col.notNull())
    // 1: the token the reservation counted as paid; 0: a payment it never accepted.
    .addColumn('of_paid', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_try_ms', 'bigint')
    .addColumn('claimed_until_ms', 'bigint')
    .addColumn('provider_refund_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('refunded_at', 'text')
    .execute();
  await db.schema.createIndex('reservation_refunds_payment_reason_idx').on('reservation_refunds').columns(['payment_id', 'reason']).unique().execute();
  await db.schema.createIndex('reservation_refunds_reservation_idx').on('reservation_refunds').column('reservation_id').execute();
  await db.schema.createIndex('reservation_refunds_owed_idx').on('reservation_refunds').columns(['status', 'next_try_ms']).execute();
}
