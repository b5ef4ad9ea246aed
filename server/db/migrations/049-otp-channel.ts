import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The way a phone code went (docs/decisions/126): 'sms' (every code before this) or 'whatsapp'
 * (the person chose it on the verification screen). The page says where to look for the code,
 * also when it is opened again while the code waits.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema
    .alterTable('phone_otps')
    .addColumn('channel', 'text', (col) => col.notNull().defaultTo('sms'))
    .execute();
}
