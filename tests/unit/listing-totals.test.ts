import { describe, expect, it } from 'vitest';
import { createListingTotals } from '../../server/catalog/listing-totals.ts';
import { parseConfig } from '../../server/config.ts';

function clockAt(start: number) {
  const clock = { time: start, now: () => clock.time };
  return clock;
}

describe('listing totals', () => {
  it('keeps a count for its lifetime, then counts again', async () => {
    const clock = clockAt(1000);
    const totals = createListingTotals({ ttlMs: 30_000, clock });
    let counted = 0;
    const count = async () => ++counted;
    expect(await totals.read('creta', count)).toBe(1);
    clock.time += 29_999;
    expect(await totals.read('creta', count)).toBe(1);
    expect(await totals.read('swift', count)).toBe(2);
    clock.time += 1;
    expect(await totals.read('creta', count)).toBe(3);
  });

  it('counts every time with a lifetime of 0 (test mode), and after clear()', async () => {
    let counted = 0;
    const count = async () => ++counted;
    const none = createListingTotals({ ttlMs: 0, clock: clockAt(0) });
    expect([await none.read('k', count), await none.read('k', count)]).toEqual([1, 2]);
    const kept = createListingTotals({ ttlMs: 30_000, clock: clockAt(0) });
    expect(await kept.read('k', count)).toBe(3);
    kept.clear();
    expect(await kept.read('k', count)).toBe(4);
  });

  it('does not keep a failed count', async () => {
    const totals = createListingTotals({ ttlMs: 30_000, clock: clockAt(0) });
    await expect(totals.read('k', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await totals.read('k', async () => 7)).toBe(7);
  });

  it('keeps counts 30 s by default and none in test mode', () => {
    expect(parseConfig({ APP_MODE: 'demo' })).toMatchObject({ listingTotalsSeconds: 30 });
    expect(parseConfig({ APP_MODE: 'test' })).toMatchObject({ listingTotalsSeconds: 0 });
    expect(parseConfig({ APP_MODE: 'demo', LISTING_TOTALS_SECONDS: '5' })).toMatchObject({ listingTotalsSeconds: 5 });
    expect(() => parseConfig({ APP_MODE: 'test', LISTING_TOTALS_SECONDS: 'soon' })).toThrow(/LISTING_TOTALS_SECONDS: must be a number of seconds/);
  });
});
