import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Work done after a response, kept in the database (docs/decisions/069): a job row is written in
 * the same transaction as the change that causes it, so a crash after the answer loses nothing
 * and a rolled-back change sends nothing. `schedules` holds one row per recurring job: whoever
 * moves `next_run_ms` forward enqueues that period's run, once across all instances (070).
 * Times are epoch milliseconds, compared as numbers on both databases.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('jobs')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (col) => col.notNull())
    // JSON text: the same on both databases.
    .addColumn('payload', 'text', (col) => col.notNull())
    // 'queued' | 'running' | 'done' | 'failed'
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (col) => col.notNull())
    // Not before then (a retry's backoff).
    .addColumn('run_at_ms', 'bigint', (col) => col.notNull())
    // A running job whose worker died is taken again after this.
    .addColumn('locked_until_ms', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at_ms', 'bigint', (col) => col.notNull())
    .addColumn('finished_at_ms', 'bigint')
    .execute();
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['status', 'run_at_ms']).execute();
  await db.schema
    .createTable('schedules')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('period_ms', 'bigint', (col) => col.notNull())
    .addColumn('next_run_ms', 'bigint', (col) => col.notNull())
    .execute();
}
