import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * A booked inspection is a sell lead too (issue 28: "the estimate and the inspection are part
 * of the same lead"): booking one adds a row to the desk's Selling Vehicles with the car and the
 * estimate, pointing at its inspection. No foreign key: a lead is purged after its retention
 * period and an inspection is deleted with its account, each on its own schedule.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema.alterTable('sell_submissions').addColumn('inspection_id', 'integer').execute();
  await db.schema.createIndex('sell_submissions_inspection_idx').on('sell_submissions').column('inspection_id').execute();
}
