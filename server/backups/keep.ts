import { indiaDay, indiaMonth } from '../../app/lib/india-time.ts';

/**
 * Which backups to keep (decision 112): the newest of each of the last `daily` India days that
 * have one, of the last `weekly` weeks (Monday to Sunday) and of the last `monthly` months, and
 * always the newest backup of all, whatever the rule says. Backups are named by the instant they
 * began; only finished, good backups are ever given to this rule.
 */
export type KeepRule = { daily: number; weekly: number; monthly: number };

export const DEFAULT_KEEP_RULE: KeepRule = { daily: 7, weekly: 4, monthly: 12 };

const DAY_MS = 24 * 60 * 60 * 1000;

/** The Monday (an India day) of the week of `ms`. */
function indiaWeek(ms: number): string {
  const day = indiaDay(ms);
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  return indiaDay(ms - ((weekday + 6) % 7) * DAY_MS);
}

/** The backups (each with the instant it began) that the rule keeps; the rest may be deleted. */
export function backupsToKeep<T extends { startedMs: number }>(backups: readonly T[], rule: KeepRule = DEFAULT_KEEP_RULE): Set<T> {
  const newestFirst = [...backups].sort((a, b) => b.startedMs - a.startedMs);
  const kept = new Set<T>(newestFirst.slice(0, 1));
  for (const [period, count] of [
    [indiaDay, rule.daily],
    [indiaWeek, rule.weekly],
    [indiaMonth, rule.monthly],
  ] as const) {
    const periodsSeen = new Set<string>();
    for (const backup of newestFirst) {
      const key = period(backup.startedMs);
      if (periodsSeen.has(key)) continue;
      if (periodsSeen.size === count) break;
      periodsSeen.add(key);
      kept.add(backup);
    }
  }
  return kept;
}
