import type { Clock } from '../clock.ts';

/**
 * How many cars a listing (a search, a category, filters) has, and how many each of its filter
 * options would give, kept a few seconds (`LISTING_TOTALS_SECONDS`, 0 in test mode): counting
 * the matches and grouping them for the filter counts are the dearest statements of a listing
 * at 100,000 cars, and a visitor paging through a search, or many visitors asking the same
 * one, would count the same matches again on every page (docs/decisions/033-search-at-100k.md,
 * 042-filter-counts-kept.md). An admin's change empties it (server/http/admin-change.ts).
 */
export type ListingTotals = {
  /** The value kept under `key`, or `count()`'s (kept when it succeeds and the lifetime is above 0). */
  read<Value>(key: string, count: () => Promise<Value>): Promise<Value>;
  clear(): void;
};

/** Few listings are asked for often; a bound keeps crafted queries from growing the map. */
const MAX_ENTRIES = 1000;

export function createListingTotals(options: { ttlMs: number; clock: Clock }): ListingTotals {
  const kept = new Map<string, { total: Promise<unknown>; expires: number }>();
  return {
    read(key, count) {
      const now = options.clock.now();
      const entry = kept.get(key);
      if (entry && entry.expires > now) return entry.total as Promise<never>;
      if (entry) kept.delete(key);
      const total = count();
      if (options.ttlMs <= 0) return total;
      const fresh = { total, expires: now + options.ttlMs };
      // The oldest entry goes first (a Map keeps insertion order).
      if (kept.size >= MAX_ENTRIES) kept.delete(kept.keys().next().value!);
      kept.set(key, fresh);
      // A failed count is not kept.
      total.catch(() => {
        if (kept.get(key) === fresh) kept.delete(key);
      });
      return total;
    },
    clear() {
      kept.clear();
    },
  };
}

/** For callers with no cache (scripts, tests of the service alone): counts every time. */
export const uncachedTotals: ListingTotals = { read: (_key, count) => count(), clear() {} };
