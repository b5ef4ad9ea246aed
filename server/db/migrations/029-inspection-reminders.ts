import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * When an inspection's reminder went out (issue 28: "confirmation and reminder by mail and
 * SMS"), as test drives keep theirs (migration 007): set once by a conditional update, so two
 * runs or two instances never send it twice; cleared when the seller moves the inspection.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema.alterTable('inspections').addColumn('reminded_at', 'text').execute();
}
