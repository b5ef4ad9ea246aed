import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Money going back to a renter through the payment provider (docs/decisions/050): one row per
 * refund of one payment, owed until the provider has said yes, so a refund that fails is kept
 * and retried instead of lost. `(payment_id, reason)` is unique: a replayed webhook, a second
 * press or a second instance cannot owe the same refund twice. Amounts are in the payment's
 * currency subunits (paise), as the provider counts them. A booking also notes a payment it did
 * not accept (`payment_problem`: short, another currency, another order, a second payment).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('rental_refunds')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('booking_id', 'integer', (col) => col.notNull().references('rental_bookings.id').onDelete('cascade'))
    .addColumn('payment_id', 'text', (col) => col.notNull())
    .addColumn('amount_paise', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull().defaultTo('INR'))
    // 'cancelled', 'refused', 'no-show', 'deposit', 'hold lapsed', 'not accepted'
    .addColumn('reason', 'text', (col) => col.notNull())
    // 1: money the booking counted as paid (amount_refunded grows when it goes back); 0: a payment it never accepted.
    .addColumn('of_paid', 'integer', (col) => col.notNull())
    // 'owed' | 'refunded'
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    // The retry job tries again from then (backoff); null: at once.
    .addColumn('next_try_ms', 'bigint')
    // One attempt at a time across instances: whoever set this owns the call until then.
    .addColumn('claimed_until_ms', 'bigint')
    .addColumn('provider_refund_id', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('refunded_at', 'text')
    .execute();
  await db.schema.createIndex('rental_refunds_payment_reason_idx').on('rental_refunds').columns(['payment_id', 'reason']).unique().execute();
  await db.schema.createIndex('rental_refunds_booking_idx').on('rental_refunds').column('booking_id').execute();
  await db.schema.createIndex('rental_refunds_owed_idx').on('rental_refunds').columns(['status', 'next_try_ms']).execute();
  await db.schema.alterTable('rental_bookings').addColumn('payment_problem', 'text').execute();
}
