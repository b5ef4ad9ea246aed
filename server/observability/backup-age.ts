import { backupStatus } from '../backups/backups.ts';
import type { Database } from '../db/connection.ts';

/**
 * Seconds since the last good backup finished, or null when none is recorded. Read at every
 * scrape of /metrics (gaadi_backup_age_seconds, server/observability/metrics.ts) from the
 * backups' own record (`backup_runs`, decision 112), so every instance reports the same figure
 * for the site. Null becomes NaN in the gauge, and the alert in docs/operations.md fires on NaN
 * as on an old backup: an installation that takes none is told so.
 */
export async function lastBackupAgeSeconds(options: { database: Database; nowMs: number }): Promise<number | null> {
  const { lastGood } = await backupStatus(options.database, options.nowMs);
  return lastGood === null ? null : Math.max(0, (options.nowMs - lastGood.finishedMs) / 1000);
}
