import type { Logger } from './logger.ts';

/**
 * Runs `job` once after `firstRunMs` and then every `intervalMs`, one run at a time (a slow
 * database must not pile runs on top of each other). The timers are unref'd so they never keep
 * the process alive. `stop` cancels them on shutdown and resolves once a run in progress has
 * ended, so the server closes its database after the job's last query, not under it. A failed
 * run is logged with `failureMessage` and the next one tries again. Used by the retention
 * purge, the test-drive reminders and the rental jobs.
 */
export type RepeatingJob = { stop: () => Promise<void> };

export function startRepeating(options: { job: () => Promise<unknown>; logger: Pick<Logger, 'error'>; failureMessage: string; intervalMs: number; firstRunMs: number }): RepeatingJob {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    // Started inside a promise, so a job that throws before its first await is logged too.
    running = Promise.resolve()
      .then(options.job)
      .then(
        () => {},
        (error: unknown) => options.logger.error({ err: error }, options.failureMessage),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, options.firstRunMs);
  const every = setInterval(run, options.intervalMs);
  first.unref();
  every.unref();
  return {
    stop: async () => {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
