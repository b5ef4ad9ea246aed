import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The sale of a car and its documents (docs/decisions/114).
 *
 * - `sales`: one row per sale, with what the tax invoice says frozen in it (the car's
 *   particulars, the buyer, the dealer's name and GSTIN, the tax lines), so an edit of the car or
 *   the settings never changes an invoice already issued. Nothing is deleted: a sale is cancelled
 *   by a credit note. A car has at most one live (`recorded`) sale: the partial unique index
 *   `sales_live_uq` refuses a second one under any number of requests at once.
 * - `invoice_series`: one counter row per series (`GB/2026-27`, `GB/CN/2026-27`), moved inside the
 *   sale's transaction, so the numbers of a financial year run without a gap and are never reused.
 * - `documents`: every PDF issued (an invoice, a credit note), stored privately, with who may
 *   download it and the file's SHA-256.
 * Money in paise (decision 106).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';

  await db.schema
    .createTable('invoice_series')
    .addColumn('series', 'text', (col) => col.primaryKey())
    .addColumn('last', 'integer', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('sales')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    // A car removed from the inventory keeps its sales, named by their particulars.
    .addColumn('vehicle_id', 'integer', (col) => col.references('vehicles.id').onDelete('set null'))
    // 'reservation': the buyer's reservation became the sale; 'desk': a walk-in at the desk.
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('reservation_id', 'integer', (col) => col.references('car_reservations.id').onDelete('set null'))
    // The buyer's account, when they have one: they download the invoice from their profile.
    .addColumn('user_id', 'text')
    .addColumn('vehicle_title', 'text', (col) => col.notNull())
    .addColumn('make', 'text', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('variant', 'text', (col) => col.notNull())
    .addColumn('year', 'text', (col) => col.notNull())
    .addColumn('registration', 'text', (col) => col.notNull())
    .addColumn('chassis_number', 'text', (col) => col.notNull())
    .addColumn('engine_number', 'text', (col) => col.notNull())
    .addColumn('buyer_name', 'text', (col) => col.notNull())
    .addColumn('buyer_address', 'text', (col) => col.notNull())
    .addColumn('buyer_phone', 'text', (col) => col.notNull())
    .addColumn('buyer_email', 'text', (col) => col.notNull())
    .addColumn('buyer_pan', 'text', (col) => col.notNull())
    // The buyer's state (GST state code): the place of supply.
    .addColumn('buyer_state_code', 'text', (col) => col.notNull())
    // The documents' language, the buyer's: 'en' or 'hi'.
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('price_paise', 'bigint', (col) => col.notNull())
    .addColumn('token_paise', 'bigint', (col) => col.notNull())
    .addColumn('paid_paise', 'bigint', (col) => col.notNull())
    .addColumn('paid_method', 'text', (col) => col.notNull())
    .addColumn('loan_paise', 'bigint', (col) => col.notNull())
    .addColumn('lender', 'text', (col) => col.notNull())
    // What the dealer paid for the car: the margin scheme taxes the margin over it.
    .addColumn('purchase_price_paise', 'bigint')
    .addColumn('invoice_number', 'text', (col) => col.notNull().unique())
    .addColumn('invoice_date', 'text', (col) => col.notNull())
    // 'margin' or 'normal', as the settings said at the sale.
    .addColumn('scheme', 'text', (col) => col.notNull())
    .addColumn('taxable_paise', 'bigint', (col) => col.notNull())
    .addColumn('tax_paise', 'bigint', (col) => col.notNull())
    // JSON: the tax lines (CGST and SGST, or IGST, and cess) with their rates and amounts.
    .addColumn('tax_lines', 'text', (col) => col.notNull())
    // JSON: the dealer's legal name, address, GSTIN and state code at the sale.
    .addColumn('dealer', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('credit_note_number', 'text', (col) => col.unique())
    .addColumn('credit_note_date', 'text')
    .addColumn('cancel_reason', 'text')
    .addColumn('cancelled_by', 'text')
    .addColumn('cancelled_at', 'text')
    .addColumn('recorded_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addCheckConstraint('sales_status_check', sql`status IN ('recorded', 'cancelled')`)
    .addCheckConstraint('sales_source_check', sql`source IN ('reservation', 'desk')`)
    .addCheckConstraint('sales_money_check', sql`price_paise > 0 AND token_paise >= 0 AND paid_paise >= 0 AND loan_paise >= 0 AND tax_paise >= 0`)
    .addCheckConstraint('sales_credit_note_check', sql`status = 'recorded' OR credit_note_number IS NOT NULL`)
    .execute();
  await sql`CREATE UNIQUE INDEX sales_live_uq ON sales (vehicle_id) WHERE status = 'recorded'`.execute(db);
  await db.schema.createIndex('sales_user_idx').on('sales').column('user_id').execute();
  await db.schema.createIndex('sales_reservation_idx').on('sales').column('reservation_id').execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    // 'tax-invoice' | 'credit-note'
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('number', 'text', (col) => col.notNull())
    // What the document is about: 'sale' and its id.
    .addColumn('owner_kind', 'text', (col) => col.notNull())
    .addColumn('owner_id', 'integer', (col) => col.notNull())
    // Who may download it besides the desk: the buyer's account, or nobody.
    .addColumn('user_id', 'text')
    .addColumn('storage_key', 'text', (col) => col.notNull().unique())
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('bytes', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('documents_kind_number_uq').on('documents').columns(['kind', 'number']).unique().execute();
  await db.schema.createIndex('documents_owner_idx').on('documents').columns(['owner_kind', 'owner_id']).execute();
  await db.schema.createIndex('documents_user_idx').on('documents').column('user_id').execute();
}
