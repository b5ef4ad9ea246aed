import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * A reservation's receipt voucher (docs/decisions/122): the token is an advance against the
 * sale of the car, and GST rule 50 asks for a receipt voucher with a consecutive number of the
 * financial year (`RV/2026-27/00001`). The number is taken when the payment is accepted, in its
 * transaction; null for reservations never paid (and those paid before the voucher existed).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema.alterTable('car_reservations').addColumn('receipt_number', 'text').execute();
  await db.schema.createIndex('car_reservations_receipt_number_uq').on('car_reservations').column('receipt_number').unique().execute();
}
