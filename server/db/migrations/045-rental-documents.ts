import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * A rental's tax invoice (docs/decisions/119), issued at the settlement. What it says is frozen
 * in the booking when the settlement takes its number, as a sale's is (decision 114): an edit
 * of the settings or the GST rate never changes an invoice issued.
 *
 * - `invoice_number`: the next of the financial year's rental series (`RI/2026-27/00001`),
 *   unique, null until the settlement issues it.
 * - `invoice`: JSON, the invoice as issued (date, dealer, lines with their SAC and taxable
 *   value, the tax lines, the deposit taken and returned, the language).
 * - `invoice_withheld`: why a settled booking has no invoice ('dealer-gstin-missing'), for the desk.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema.alterTable('rental_bookings').addColumn('invoice_number', 'text').execute();
  await db.schema.alterTable('rental_bookings').addColumn('invoice', 'text').execute();
  await db.schema.alterTable('rental_bookings').addColumn('invoice_withheld', 'text').execute();
  await db.schema.createIndex('rental_bookings_invoice_number_uq').on('rental_bookings').column('invoice_number').unique().execute();
}
