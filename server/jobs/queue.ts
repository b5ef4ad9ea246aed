import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { DB, JobTable } from '../db/schema.ts';
import { currentRequestId } from '../request-context.ts';

/**
 * The job queue: a table in the application's own database (docs/decisions/069). `enqueue`
 * takes the transaction of the change that causes the job, so the job exists exactly when the
 * change does. Workers claim one due job at a time; on PostgreSQL `FOR UPDATE SKIP LOCKED`
 * keeps two workers off one job, on SQLite the single UPDATE is atomic by itself. A running
 * job carries a lease: when its worker dies, another worker takes it again once it lapses.
 * A job queued while answering a request keeps that request's X-Request-Id (decision 111).
 */

export type Job = Selectable<JobTable>;

/** A kysely instance or a transaction of one: enqueue runs in whichever it is handed. */
export type JobWriter = Kysely<DB>;

export type EnqueueOptions = {
  /** The clock's now (server/clock.ts). */
  nowMs: number;
  /** Not before `nowMs + delayMs`. */
  delayMs?: number;
  maxAttempts?: number;
};

/** Ten attempts with a doubling wait (30 s first, at most an hour) keep trying for about three hours. */
export const DEFAULT_MAX_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Errors are kept this long in the row: enough to read, never a whole stack of HTML. */
const MAX_ERROR_LENGTH = 1000;

export async function enqueue(db: JobWriter, name: string, payload: unknown, options: EnqueueOptions): Promise<number> {
  const row = await db
    .insertInto('jobs')
    .values({
      name,
      payload: JSON.stringify(payload ?? null),
      status: 'queued',
      max_attempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      run_at_ms: options.nowMs + (options.delayMs ?? 0),
      created_at_ms: options.nowMs,
      // The request being answered, if any: the worker's log lines for this job will name it.
      request_id: currentRequestId(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Takes the oldest due job (queued and due, or running with a lapsed lease) and marks it running
 * for `leaseMs`, counting the attempt. Null when none is due.
 */
export async function claimNext(database: Database, options: { nowMs: number; leaseMs: number }): Promise<Job | null> {
  const { db } = database;
  const now = options.nowMs;
  let pick = db
    .selectFrom('jobs')
    .select('id')
    .where((eb) =>
      eb.or([eb.and([eb('status', '=', 'queued'), eb('run_at_ms', '<=', now)]), eb.and([eb('status', '=', 'running'), eb('locked_until_ms', '<=', now)])]),
    )
    .orderBy('run_at_ms')
    .orderBy('id')
    .limit(1);
  if (database.dialect === 'postgres') pick = pick.forUpdate().skipLocked();
  const job = await db
    .updateTable('jobs')
    .set({ status: 'running', attempts: sql<number>`attempts + 1`, locked_until_ms: now + options.leaseMs })
    .where('id', '=', pick)
    .returningAll()
    .executeTakeFirst();
  return job ?? null;
}

export async function completeJob(database: Database, job: Job, nowMs: number): Promise<void> {
  await database.db
    .updateTable('jobs')
    .set({ status: 'done', locked_until_ms: null, finished_at_ms: nowMs, last_error: null })
    .where('id', '=', job.id)
    .execute();
}

/** The wait before attempt `attempts + 1`: `baseMs`, then twice as long each time, at most an hour. */
export function backoffMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

/** Records the error; queues the next attempt after the backoff, or marks the job failed after its last. */
export async function failJob(database: Database, job: Job, error: unknown, options: { nowMs: number; backoffBaseMs: number }): Promise<'retry' | 'failed'> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);
  const last = job.attempts >= job.max_attempts;
  await database.db
    .updateTable('jobs')
    .set(
      last
        ? { status: 'failed', locked_until_ms: null, finished_at_ms: options.nowMs, last_error: message }
        : { status: 'queued', locked_until_ms: null, run_at_ms: options.nowMs + backoffMs(job.attempts, options.backoffBaseMs), last_error: message },
    )
    .where('id', '=', job.id)
    .execute();
  return last ? 'failed' : 'retry';
}

/** What the dashboard shows: jobs that gave up, and jobs still retrying after an error. */
export type FailingJob = {
  id: number;
  name: string;
  status: 'queued' | 'failed';
  attempts: number;
  maxAttempts: number;
  lastError: string;
  nextTryMs: number | null;
};

export async function failingJobs(database: Database, limit = 20): Promise<{ count: number; jobs: FailingJob[] }> {
  const failing = database.db
    .selectFrom('jobs')
    .where((eb) => eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'queued'), eb('last_error', 'is not', null)])]));
  const [counted, rows] = await Promise.all([
    failing.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    failing.select(['id', 'name', 'status', 'attempts', 'max_attempts', 'last_error', 'run_at_ms']).orderBy('id', 'desc').limit(limit).execute(),
  ]);
  return {
    count: Number(counted.count),
    jobs: rows.map((row) => ({
      id: row.id,
      name: row.name,
      status: row.status === 'failed' ? 'failed' : 'queued',
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
      lastError: row.last_error ?? '',
      nextTryMs: row.status === 'failed' ? null : row.run_at_ms,
    })),
  };
}

/** Sends a failed (or waiting) job again now, with its attempts counted afresh. False when there is no such job. */
export async function retryJob(database: Database, id: number, nowMs: number): Promise<boolean> {
  const result = await database.db
    .updateTable('jobs')
    .set({ status: 'queued', attempts: 0, run_at_ms: nowMs, finished_at_ms: null })
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'queued'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Done jobs are history nobody reads after a while; the retention purge removes them. */
export async function purgeFinishedJobs(database: Database, beforeMs: number): Promise<number> {
  const result = await database.db.deleteFrom('jobs').where('status', '=', 'done').where('finished_at_ms', '<', beforeMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
