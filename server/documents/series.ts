import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * The dealer's consecutive document numbers (decision 114): one counter row per series in
 * `invoice_series`, shared by every domain that issues a numbered document (a sale's tax
 * invoice and credit note, a rental's tax invoice; decision 119), so none of them imports another.
 */

/**
 * The next number of `series`, in `trx` (a transaction: the change the number is for): its counter row moves by one (made at 1 by the year's
 * first document). PostgreSQL holds the row's lock until the transaction ends, so documents at
 * once take consecutive numbers; SQLite has one writer. A rolled-back change rolls its number back too.
 */
export async function nextInSeries(trx: Kysely<DB>, series: string): Promise<number> {
  const row = await trx
    .insertInto('invoice_series')
    .values({ series, last: 1 })
    .onConflict((conflict) => conflict.column('series').doUpdateSet((eb) => ({ last: eb('invoice_series.last', '+', 1) })))
    .returning('last')
    .executeTakeFirstOrThrow();
  return Number(row.last);
}
