import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Each backup taken (decision 112), so the dashboard can show the last good one and warn when it
 * is old or the last one failed, and the desk is told of a failure once. A run killed halfway
 * stays 'running' and is never counted as good.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('backup_runs')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('started_ms', 'bigint', (col) => col.notNull())
    .addColumn('finished_ms', 'bigint')
    .addColumn('status', 'text', (col) => col.notNull().check(sqlStatus()))
    .addColumn('bytes', 'bigint')
    .addColumn('place', 'text', (col) => col.notNull())
    .addColumn('error', 'text')
    // Whether the desk was mailed about this failure (once per run of failures).
    .addColumn('desk_told', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('backup_runs_started_idx').on('backup_runs').column('started_ms').execute();
}

function sqlStatus() {
  return sql`status IN ('running', 'good', 'failed')`;
}
