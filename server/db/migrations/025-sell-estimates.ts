import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The seller's car and the estimate they were shown, kept with their sell submission
 * (decision 081): JSON text, the same on both databases; null for a submission made without
 * the estimate step (older ones, or a visitor who skipped it).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema.alterTable('sell_submissions').addColumn('car', 'text').execute();
  await db.schema.alterTable('sell_submissions').addColumn('estimate', 'text').execute();
}
