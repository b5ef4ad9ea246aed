import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The language a person chose with the site's switch (decision 087): their pages open in it on
 * any device they sign in on, and the mails and SMS the site sends them later (reminders, an
 * offer) are written in it. Empty until they choose, which reads as English.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema
    .alterTable('profiles')
    .addColumn('language', 'text', (column) => column.notNull().defaultTo(''))
    .execute();
}
