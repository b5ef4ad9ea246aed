import type { Kysely } from 'kysely';

/**
 * The X-Request-Id of the request that queued a job (decision 111), so the worker's log lines
 * for that job, on whichever instance runs it, carry the same id as the request's. Null for jobs
 * no request queued (the scheduler's) and for jobs queued before this column.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('jobs').addColumn('request_id', 'text').execute();
}
