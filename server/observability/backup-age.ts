/**
 * Seconds since the last backup finished, or null when no backup is known. Read at every scrape
 * of /metrics (gaadi_backup_age_seconds, server/observability/metrics.ts), so every instance
 * reports what the backup feature last recorded rather than a number of its own.
 *
 * Null for now: backups (server/backups) are being built beside this. When they land, this reads
 * the finish time of the newest completed backup from the place they record it, and the gauge
 * turns from NaN into a number. The alert in docs/operations.md already fires on NaN as on an old
 * backup, so an installation that takes none is told so.
 */
export async function lastBackupAgeSeconds(_options: { nowMs: number }): Promise<number | null> {
  return null;
}
