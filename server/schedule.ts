import type { Logger } from './logger.ts';

/**
 * Runs `job` once after `firstRunMs` and then every `intervalMs`, one run at a time (a slow
 * database must not pile runs on top of each other). The timers are unref'd so they never keep
 * the process alive; `stop` cancels them on shutdown. A failed run is logged with
 * `failureMessage` and the next one tries again. Used by the retention purge, the test-drive
 * reminders and the rental jobs.
 */
export function startRepeating(options: { job: () => Promise<unknown>; logger: Pick<Logger, 'error'>; failureMessage: string; intervalMs: number; firstRunMs: number }): { stop: () => void } {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await options.job();
    } catch (error) {
      options.logger.error({ err: error }, options.failureMessage);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), options.firstRunMs);
  const every = setInterval(() => void run(), options.intervalMs);
  first.unref();
  every.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
