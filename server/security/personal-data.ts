import { longestRateLimitWindowMs, pruneRateLimits } from './rate-limit.ts';
import { deletedRows, type PersonalData } from '../privacy/personal-data.ts';

/** The rate-limit counters and spent bot-check solutions (server/security). */
export const securityPersonalData: PersonalData[] = [
  {
    table: 'rate_limit_hits',
    personal: { key: "the limit's name with a client address or an account id" },
    foundBy: 'not by the account: counters are short-lived and named by the action they limit',
    export: { omitted: 'counters of attempts, gone when their window ends' },
    erase: { action: 'keep', reason: 'a counter lives one window at most; the retention purge drops it' },
    retention: 'until its window ends (pruneRateLimits)',
    purge: { report: 'rateLimitCounters', run: ({ database }, now) => pruneRateLimits(database, longestRateLimitWindowMs, now.getTime()) },
  },
  {
    table: 'bot_check_spent',
    personal: {},
    foundBy: 'not at all: a solved challenge, kept only until it would have expired',
    export: { omitted: 'nothing personal' },
    erase: { action: 'keep', reason: 'nothing personal' },
    retention: 'until the challenge expires',
    purge: {
      report: 'botCheckSolutions',
      run: async ({ database }, now) => deletedRows(await database.db.deleteFrom('bot_check_spent').where('expires_at', '<', now.getTime()).executeTakeFirst()),
    },
  },
];
