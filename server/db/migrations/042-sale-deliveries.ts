import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The delivery of a sold car (docs/decisions/116): one row per sale, the unique `sale_id` refusing
 * a second one under any number of requests at once. The reading and photos are the rental
 * checklist's (decision 067); the documents handed over are a JSON set from a fixed list; the
 * buyer's signature is either a PNG drawn on the desk's screen (kept in the private storage,
 * `signature_key`) or the name they typed (`typed_signature`), never both.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('sale_deliveries')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('sale_id', 'integer', (col) => col.notNull().unique().references('sales.id'))
    .addColumn('odometer', 'integer', (col) => col.notNull())
    // Eighths of a tank, as the rental checklist reads it.
    .addColumn('fuel', 'integer', (col) => col.notNull())
    .addColumn('keys_count', 'integer', (col) => col.notNull())
    // JSON: the documents handed over, from the fixed list (rc, insurance, puc, service-book, form-29, form-30, noc).
    .addColumn('documents_handed', 'text', (col) => col.notNull())
    // Any other document handed over, as the desk typed it ('' when none).
    .addColumn('other_documents', 'text', (col) => col.notNull())
    // JSON: the checklist's photos with their private storage keys (server/rentals/checklists.ts StoredPhoto[]).
    .addColumn('photos', 'text', (col) => col.notNull())
    .addColumn('signature_key', 'text')
    .addColumn('typed_signature', 'text')
    .addColumn('signer_name', 'text', (col) => col.notNull())
    .addColumn('signed_at_ms', 'bigint', (col) => col.notNull())
    .addColumn('delivered_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addCheckConstraint('sale_deliveries_signature_check', sql`(signature_key IS NULL) <> (typed_signature IS NULL)`)
    .addCheckConstraint('sale_deliveries_reading_check', sql`odometer >= 0 AND fuel BETWEEN 0 AND 8 AND keys_count BETWEEN 0 AND 10`)
    .execute();
}
