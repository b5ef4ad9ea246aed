import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { consumeNamedRateLimit, consumeRateLimit, longestRateLimitWindowMs, pruneRateLimits, rateLimits } from '../../server/security/rate-limit.ts';
import { openTestDatabase, type TestDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

// This project's database: SQLite in integration-sqlite, PostgreSQL in integration-postgres
// (its url is '' when PostgreSQL is unreachable outside CI; under CI that fails the run).
const shared = sharedServer();
const dialect = { name: shared.dialect, open: () => openTestDatabase(shared.dialect), skip: shared.url === '' };

describe.skipIf(dialect.skip)(`rate limits on ${dialect.name}`, () => {
  let opened: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    opened = await dialect.open();
    database = opened.database;
  }, 60_000);
  afterAll(async () => {
    await opened?.cleanup();
  });

  const start = 1_750_000_000_000;
  const windowMs = 60_000;

  it('allows up to the limit, then refuses with the time left in the window', async () => {
    const results = [];
    for (let hit = 0; hit < 4; hit++) {
      results.push(await consumeRateLimit(database, { key: 'limit-reached', limit: 3, windowMs, now: start + hit * 1000 }));
    }
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, false]);
    expect(results.map((result) => result.remaining)).toEqual([2, 1, 0, 0]);
    expect(results.slice(0, 3).every((result) => result.retryAfterSeconds === 0)).toBe(true);
    // Window opened at `start`; the 4th hit came 3 s in, so 57 s remain.
    expect(results[3]?.retryAfterSeconds).toBe(57);
  });

  it('keeps refusing until the window ends, then starts a new window', async () => {
    const key = 'window-reset';
    await consumeRateLimit(database, { key, limit: 1, windowMs, now: start });
    const refused = await consumeRateLimit(database, { key, limit: 1, windowMs, now: start + windowMs - 1 });
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });

    const reopened = await consumeRateLimit(database, { key, limit: 1, windowMs, now: start + windowMs });
    expect(reopened).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
    // The new window began at start + windowMs, so it runs until start + 2 * windowMs.
    const again = await consumeRateLimit(database, { key, limit: 1, windowMs, now: start + windowMs + 30_000 });
    expect(again).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 30 });
  });

  it('counts each key on its own', async () => {
    await consumeRateLimit(database, { key: 'independent-a', limit: 1, windowMs, now: start });
    expect((await consumeRateLimit(database, { key: 'independent-a', limit: 1, windowMs, now: start })).allowed).toBe(false);
    expect((await consumeRateLimit(database, { key: 'independent-b', limit: 1, windowMs, now: start })).allowed).toBe(true);
  });

  it('counts 50 concurrent hits exactly', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => consumeRateLimit(database, { key: 'concurrent', limit: 40, windowMs, now: start })));
    expect(results.filter((result) => result.allowed)).toHaveLength(40);
    // Every hit saw a different count: remaining values 39..0 once each, then ten refusals.
    const remaining = results
      .filter((result) => result.allowed)
      .map((result) => result.remaining)
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 40 }, (_, index) => index));
    const row = await database.db.selectFrom('rate_limit_hits').select(['count', 'window_start']).where('key', '=', 'concurrent').executeTakeFirstOrThrow();
    expect(Number(row.count)).toBe(50);
    expect(Number(row.window_start)).toBe(start);
  });

  it('applies named policies under their own key space', async () => {
    const { limit } = rateLimits.adminSignIn;
    const results = [];
    for (let hit = 0; hit <= limit; hit++) results.push(await consumeNamedRateLimit(database, 'adminSignIn', '198.51.100.7:admin@example.in', start));
    expect(results.filter((result) => result.allowed)).toHaveLength(limit);
    expect((await consumeNamedRateLimit(database, 'signIn', '198.51.100.7:admin@example.in', start)).allowed).toBe(true);
  });

  it('prunes counters whose window is long over', async () => {
    await consumeRateLimit(database, { key: 'prune-old', limit: 5, windowMs, now: start - 2 * longestRateLimitWindowMs });
    await consumeRateLimit(database, { key: 'prune-new', limit: 5, windowMs, now: start });
    const removed = await pruneRateLimits(database, longestRateLimitWindowMs, start);
    expect(removed).toBeGreaterThanOrEqual(1);
    const keys = (await database.db.selectFrom('rate_limit_hits').select('key').execute()).map((row) => row.key);
    expect(keys).toContain('prune-new');
    expect(keys).not.toContain('prune-old');
  });
});
