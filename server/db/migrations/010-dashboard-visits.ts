import type { Kysely } from 'kysely';

/**
 * Each admin's visits to the dashboard, for "new leads since your last visit": `seen_at` is when
 * the current visit began, `previous_seen_at` when the one before it did. Same text columns on
 * both databases (ISO-8601 UTC timestamps compare correctly as text).
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('admin_dashboard_visits')
    .addColumn('admin_email', 'text', (col) => col.primaryKey())
    .addColumn('seen_at', 'text', (col) => col.notNull())
    .addColumn('previous_seen_at', 'text')
    .execute();
}
