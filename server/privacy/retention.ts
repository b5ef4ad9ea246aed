import { allPersonalData } from './all-personal-data.ts';
import type { PurgeDeps } from './personal-data.ts';

/**
 * Every retention period the privacy page states, enforced on a schedule (never as a side effect
 * of someone opening a page). Each domain says how its tables are purged, beside what they hold
 * (their `purge` in server/<domain>/personal-data.ts, decision 104); this runs them all, in the
 * declarations' order. Each purge is idempotent and safe on several instances at once: it
 * deletes only rows already past their period.
 */

/** How often the schedule runs, and how soon after start it runs first. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
export const RETENTION_FIRST_RUN_MS = 10_000;

export type RetentionDeps = PurgeDeps;

/** How many rows each purge removed, by its report name (leads, sessions, rentalBookings…). */
export type PurgeReport = Record<string, number>;

/** Runs every declared purge once and says how many rows each removed. */
export async function runRetentionPurge(deps: RetentionDeps, now: Date = new Date(deps.clock.now())): Promise<PurgeReport> {
  const report: PurgeReport = {};
  for (const { purge } of allPersonalData) {
    if (purge) report[purge.report] = (report[purge.report] ?? 0) + (await purge.run(deps, now));
  }
  if (Object.values(report).some((count) => count > 0)) deps.logger.info(report, 'retention: purged rows past their period');
  return report;
}
