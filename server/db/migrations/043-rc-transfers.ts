import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The registration (RC) transfer of each car sold (docs/decisions/117): one row per sale, made
 * with the sale, moving forward one step at a time (forms signed, submitted to the RTO, fee paid,
 * new RC issued, RC delivered). Each step keeps its time (epoch ms) and the admin who recorded
 * it. A cancelled sale's transfer is `closed`. `overdue_told` marks the desk's one overdue mail.
 * Sales recorded before this migration get their row here: `sold` (nothing done yet), or
 * `closed` when the sale was cancelled.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('rc_transfers')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('sale_id', 'integer', (col) => col.notNull().unique().references('sales.id'))
    // The last step done: 'sold' (none yet), each step's name, or 'closed' (the sale was cancelled).
    .addColumn('step', 'text', (col) => col.notNull())
    // The sale's time: an open transfer is overdue so many days after it.
    .addColumn('sold_ms', 'bigint', (col) => col.notNull())
    .addColumn('forms_signed_ms', 'bigint')
    .addColumn('forms_signed_by', 'text')
    .addColumn('submitted_ms', 'bigint')
    .addColumn('submitted_by', 'text')
    // The RTO's (Vahan's) application number, given at submission.
    .addColumn('application_number', 'text')
    .addColumn('fee_paid_ms', 'bigint')
    .addColumn('fee_paid_by', 'text')
    .addColumn('fee_paise', 'bigint')
    .addColumn('fee_receipt', 'text')
    .addColumn('rc_issued_ms', 'bigint')
    .addColumn('rc_issued_by', 'text')
    // The registration on the new RC when the RTO changed it (another state's number); null when kept.
    .addColumn('new_registration', 'text')
    .addColumn('delivered_ms', 'bigint')
    .addColumn('delivered_by', 'text')
    // Form 35 (the loan's hypothecation ended) and a Form 28 NOC (moving to another state), as the desk says.
    .addColumn('form35_needed', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('form28_needed', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('closed_ms', 'bigint')
    .addColumn('overdue_told', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_ms', 'bigint', (col) => col.notNull())
    .addCheckConstraint('rc_transfers_step_check', sql`step IN ('sold', 'forms-signed', 'submitted', 'fee-paid', 'rc-issued', 'delivered', 'closed')`)
    .addCheckConstraint('rc_transfers_submitted_check', sql`submitted_ms IS NULL OR application_number IS NOT NULL`)
    .addCheckConstraint('rc_transfers_fee_check', sql`fee_paise IS NULL OR fee_paise >= 0`)
    .execute();
  await db.schema.createIndex('rc_transfers_step_idx').on('rc_transfers').columns(['step', 'sold_ms']).execute();

  // The sales already recorded: few, so read here and written one by one on either dialect.
  const sales = await sql<{ id: number; status: string; created_at: string }>`SELECT id, status, created_at FROM sales ORDER BY id`.execute(db);
  for (const sale of sales.rows) {
    const soldMs = Date.parse(sale.created_at);
    const cancelled = sale.status === 'cancelled';
    await sql`INSERT INTO rc_transfers (sale_id, step, sold_ms, closed_ms, updated_ms) VALUES (${Number(sale.id)}, ${cancelled ? 'closed' : 'sold'}, ${soldMs}, ${cancelled ? soldMs : null}, ${soldMs})`.execute(
      db,
    );
  }
}
