import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Buying a car from a seller (docs/decisions/118).
 *
 * - `purchases`: one row per accepted offer taken up, unique per inspection by the database
 *   (`purchases_inspection_uq`), so two recordings at once give one. The price paid, how and
 *   with what reference, the documents received (JSON list of fixed keys, plus other text), the
 *   Form 29C date of possession (India date, CMVR rule 55B), and the seller as they were at the
 *   purchase (name, phone, address frozen). The inspection may be erased with the seller's
 *   account: the purchase stays (the dealer's books and Form 29C), its link set null.
 * - `vehicles.purchase_price_paise` and `vehicles.purchased_at` (India date): the stock knows
 *   what each car cost and since when it is held; the sale's margin scheme takes the price.
 * Money in paise (decision 106).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('purchases')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('inspection_id', 'integer', (col) => col.references('inspections.id').onDelete('set null'))
    .addColumn('vehicle_id', 'integer', (col) => col.references('vehicles.id').onDelete('set null'))
    // The seller's account, when they had one: their data export finds the purchase by it.
    .addColumn('user_id', 'text')
    .addColumn('vehicle_title', 'text', (col) => col.notNull())
    .addColumn('registration', 'text', (col) => col.notNull())
    .addColumn('price_paise', 'bigint', (col) => col.notNull())
    // 'transfer' | 'upi' | 'cheque' | 'cash'
    .addColumn('payment_method', 'text', (col) => col.notNull())
    .addColumn('payment_reference', 'text', (col) => col.notNull())
    // JSON: the keys of PURCHASE_DOCUMENTS received.
    .addColumn('documents', 'text', (col) => col.notNull())
    .addColumn('documents_other', 'text', (col) => col.notNull())
    // India date 'YYYY-MM-DD': the Form 29C date of possession.
    .addColumn('possession_date', 'text', (col) => col.notNull())
    .addColumn('seller_name', 'text', (col) => col.notNull())
    .addColumn('seller_phone', 'text', (col) => col.notNull())
    .addColumn('seller_address', 'text', (col) => col.notNull())
    .addColumn('recorded_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addCheckConstraint('purchases_price_check', sql`price_paise > 0`)
    .addCheckConstraint('purchases_method_check', sql`payment_method IN ('transfer', 'upi', 'cheque', 'cash')`)
    .execute();
  await sql`CREATE UNIQUE INDEX purchases_inspection_uq ON purchases (inspection_id) WHERE inspection_id IS NOT NULL`.execute(db);
  await db.schema.createIndex('purchases_possession_idx').on('purchases').column('possession_date').execute();
  await db.schema.createIndex('purchases_user_idx').on('purchases').column('user_id').execute();
  await db.schema.alterTable('vehicles').addColumn('purchase_price_paise', 'bigint').execute();
  await db.schema.alterTable('vehicles').addColumn('purchased_at', 'text').execute();
}
