import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import type { Logger } from '../logger.ts';
import { withinRequest } from '../request-context.ts';
import { claimNext, completeJob, failJob, type Job } from './queue.ts';

/**
 * Runs queued jobs, one at a time, in the server (by default) or in `npm run worker`. It looks
 * at the queue every `pollMs`, and at once when this process enqueued something (`wake`,
 * called after the enqueueing transaction committed), so a mail leaves within milliseconds of
 * the answer. `stop` lets the job in hand finish, then resolves: the server closes its database
 * after it (SIGTERM finishes the running job, decision 069).
 */

export type JobHandler = (payload: unknown, job: Job) => Promise<void>;
export type JobHandlers = Record<string, JobHandler>;

/** How callers tell this process's worker that a job was just committed. Safe to call with no worker. */
export type JobSignal = { wake: () => void; onWake: (listener: () => void) => void };

export function createJobSignal(): JobSignal {
  let listener: (() => void) | null = null;
  return {
    wake: () => listener?.(),
    onWake: (next) => {
      listener = next;
    },
  };
}

export type Worker = { stop: () => Promise<void> };

export function startWorker(options: {
  database: Database;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  clock: Clock;
  handlers: JobHandlers;
  signal: JobSignal;
  pollMs: number;
  leaseMs: number;
  backoffMs: number;
}): Worker {
  const { database, logger, clock, handlers } = options;
  let stopped = false;
  // Set by a wake during a run, so the loop looks again instead of sleeping.
  let woken = false;
  let sleeping: { timer: NodeJS.Timeout; resolve: () => void } | null = null;

  const wakeUp = () => {
    woken = true;
    if (sleeping) {
      clearTimeout(sleeping.timer);
      sleeping.resolve();
    }
  };
  options.signal.onWake(wakeUp);

  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.pollMs);
      sleeping = { timer, resolve };
    }).finally(() => {
      sleeping = null;
    });

  async function runOne(job: Job): Promise<void> {
    const handler = handlers[job.name];
    try {
      if (!handler) throw new Error(`No handler for jobs named "${job.name}"`);
      await handler(JSON.parse(job.payload) as unknown, job);
      await completeJob(database, job, clock.now());
    } catch (error) {
      const outcome = await failJob(database, job, error, { nowMs: clock.now(), backoffBaseMs: options.backoffMs });
      if (outcome === 'failed') logger.error({ err: error, job: job.id, name: job.name, attempts: job.attempts }, 'jobs: gave up after the last attempt');
      else logger.warn({ err: error, job: job.id, name: job.name, attempts: job.attempts }, 'jobs: failed, will retry');
    }
  }

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let job: Job | null = null;
      try {
        job = await claimNext(database, { nowMs: clock.now(), leaseMs: options.leaseMs });
      } catch (error) {
        // The database is away (a restart, a failover): try again at the next look.
        logger.warn({ err: error }, 'jobs: could not read the queue');
      }
      if (job) {
        // Recording the outcome can fail too (the database went away mid-job): the lease brings the job back.
        // On behalf of the request that queued it: every line logged while it runs names that request (decision 111).
        const run = () => runOne(job).catch((error: unknown) => logger.warn({ err: error, job: job.id }, 'jobs: could not record the outcome'));
        await (job.request_id ? withinRequest({ requestId: job.request_id }, run) : run());
      } else if (!woken && !stopped) await sleep();
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      wakeUp();
      await loop;
    },
  };
}
