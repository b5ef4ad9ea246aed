import type { PersonalData } from '../privacy/personal-data.ts';

/** The rate-limit counters and spent bot-check solutions (server/security). */
export const securityPersonalData: PersonalData[] = [
  {
    table: 'rate_limit_hits',
    personal: { key: "the limit's name with a client address or an account id" },
    foundBy: 'not by the account: counters are short-lived and named by the action they limit',
    export: { omitted: 'counters of attempts, gone when their window ends' },
    erase: { action: 'keep', reason: 'a counter lives one window at most; the retention purge drops it' },
    retention: 'until its window ends (pruneRateLimits)',
  },
];
