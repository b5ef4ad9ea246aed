import { describe, expect, it } from 'vitest';
import { startRepeating } from '../../server/schedule.ts';

/** A job the test finishes by hand, counting its runs. */
function heldJob() {
  let release: () => void = () => {};
  let started: () => void = () => {};
  const firstStart = new Promise<void>((resolve) => (started = resolve));
  const state = { runs: 0, finished: false };
  const job = () => {
    state.runs++;
    started();
    return new Promise<void>((resolve) => (release = resolve)).then(() => {
      state.finished = true;
    });
  };
  return { job, state, firstStart, release: () => release() };
}

describe('startRepeating', () => {
  it('stop resolves only once the run in progress has ended', async () => {
    const held = heldJob();
    const errors: unknown[] = [];
    const schedule = startRepeating({ job: held.job, logger: { error: (entry: unknown) => errors.push(entry) }, failureMessage: 'failed', intervalMs: 60_000, firstRunMs: 0 });
    await held.firstStart;
    let stopped = false;
    const stopping = schedule.stop().then(() => (stopped = true));
    // Still running: the server must not close its database yet.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    held.release();
    await stopping;
    expect(held.state).toEqual({ runs: 1, finished: true });
    expect(errors).toEqual([]);
  });

  it('logs a failed run with its message and stops at once when nothing runs', async () => {
    const logged: Array<{ entry: unknown; message: string }> = [];
    let failed: () => void = () => {};
    const failure = new Promise<void>((resolve) => (failed = resolve));
    const schedule = startRepeating({
      job: async () => {
        failed();
        throw new Error('database gone');
      },
      logger: { error: (entry: unknown, message?: string) => logged.push({ entry, message: message ?? '' }) },
      failureMessage: 'retention: purge failed',
      intervalMs: 60_000,
      firstRunMs: 0,
    });
    await failure;
    await schedule.stop();
    expect(logged).toHaveLength(1);
    expect(logged[0]!.message).toBe('retention: purge failed');
  });
});
