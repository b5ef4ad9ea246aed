import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * `installation`: one row (id 1) naming this installation, a random UUID made the first time it
 * is asked for (server/db/installation.ts), so every instance of one site reads the same one and
 * another site (a staging beside the production, a fresh PostgreSQL) has its own. Refund
 * idempotency keys carry it (docs/decisions/093): row ids start at 1 on every installation, and
 * two installations on one Razorpay account must never send the same key. Left empty here, so
 * `npm run migrate-to-postgres` copies the site's own row into the migrated database.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  await db.schema
    .createTable('installation')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('installation_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}
