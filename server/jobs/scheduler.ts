import { sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import type { Logger } from '../logger.ts';
import { enqueue } from './queue.ts';
import type { JobSignal } from './worker.ts';

/**
 * Recurring work, once per period across every instance (docs/decisions/070). Each schedule is
 * a row with the time of its next run. Every instance looks each second; the one whose
 * `UPDATE … WHERE next_run_ms <= now RETURNING` moves a row on enqueues that period's job, in
 * the same transaction, and the queue's worker (on whichever instance takes it) runs it. The
 * next run is the start of the next whole period, so the instances agree on it whoever ran.
 */

export type Schedule = { name: string; periodMs: number; firstRunMs: number };

/** How often each instance asks whether a schedule is due. */
const TICK_MS = 1000;

export type Scheduler = { stop: () => Promise<void> };

/** Makes the schedules' rows (a new one runs `firstRunMs` from now) and keeps their periods as configured. */
async function registerSchedules(database: Database, schedules: Schedule[], nowMs: number): Promise<void> {
  for (const schedule of schedules) {
    await database.db
      .insertInto('schedules')
      .values({ name: schedule.name, period_ms: schedule.periodMs, next_run_ms: nowMs + schedule.firstRunMs })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ period_ms: schedule.periodMs }))
      .execute();
  }
}

/** Enqueues every schedule that is due, each once however many instances ask at the same moment; returns their names. */
export async function enqueueDueSchedules(database: Database, nowMs: number, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  return database.db.transaction().execute(async (trx) => {
    const due = await trx
      .updateTable('schedules')
      // Whole periods (integer division on both databases): the start of the next one after now.
      .set({ next_run_ms: sql<number>`(cast(${nowMs} as bigint) / period_ms) * period_ms + period_ms` })
      .where('name', 'in', names)
      .where('next_run_ms', '<=', nowMs)
      .returning('name')
      .execute();
    // One attempt: a failed run is shown to the admin and the next period tries again.
    for (const { name } of due) await enqueue(trx, name, { scheduledAtMs: nowMs }, { nowMs, maxAttempts: 1 });
    return due.map((row) => row.name);
  });
}

export function startScheduler(options: {
  database: Database;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
  signal: JobSignal;
  schedules: Schedule[];
}): Scheduler {
  const { database, clock, logger, signal, schedules } = options;
  const names = schedules.map((schedule) => schedule.name);
  let running: Promise<void> | null = null;
  let registered = false;
  const tick = () => {
    if (running) return;
    running = (async () => {
      if (!registered) {
        await registerSchedules(database, schedules, clock.now());
        registered = true;
      }
      const enqueued = await enqueueDueSchedules(database, clock.now(), names);
      if (enqueued.length > 0) signal.wake();
    })()
      .catch((error: unknown) => logger.warn({ err: error }, 'scheduler: could not look at the schedules'))
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, Math.min(TICK_MS, ...schedules.map((schedule) => schedule.periodMs / 4)));
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
