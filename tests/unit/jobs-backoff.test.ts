import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_MAX_ATTEMPTS } from '../../server/jobs/queue.ts';

describe('a failed job waits', () => {
  it('the base first, twice as long after each further failure, never more than an hour', () => {
    expect([1, 2, 3, 4].map((attempts) => backoffMs(attempts, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffMs(12, 30_000)).toBe(3_600_000);
    // The default attempts keep a mail trying for hours, well past a mail server's restart.
    const total = Array.from({ length: DEFAULT_MAX_ATTEMPTS - 1 }, (_, index) => backoffMs(index + 1, 30_000)).reduce((sum, wait) => sum + wait, 0);
    expect(total).toBeGreaterThan(2 * 3_600_000);
  });
});
