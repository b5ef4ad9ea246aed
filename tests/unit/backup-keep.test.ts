import { describe, expect, it } from 'vitest';
import { backupsToKeep } from '../../server/backups/keep.ts';
import { latestDailyInstant } from '../../server/backups/backups.ts';
import { backupName, startedMsOf } from '../../server/backups/places.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** 02:30 India on 28 November 2026, as UTC. */
const NIGHT = Date.UTC(2026, 10, 27, 21, 0);

describe('the keep rule', () => {
  it('keeps the newest of each of the last 7 days, 4 weeks and 12 months, and nothing else', () => {
    // One backup a night for 400 nights, and a second one on the newest night.
    const backups = Array.from({ length: 400 }, (_, index) => ({ startedMs: NIGHT - index * DAY }));
    backups.push({ startedMs: NIGHT + HOUR });
    const kept = [...backupsToKeep(backups, { daily: 7, weekly: 4, monthly: 12 })].map((backup) => backup.startedMs).sort((a, b) => b - a);
    expect(kept[0]).toBe(NIGHT + HOUR);
    // 7 days (the newest night counted once, by its newest backup) + older Sundays' and month ends' newest.
    expect(kept.length).toBeGreaterThanOrEqual(7 + 12 - 1);
    expect(kept.length).toBeLessThanOrEqual(7 + 4 + 12);
    expect(kept).not.toContain(NIGHT);
    const oldest = Math.min(...kept);
    expect(NIGHT - oldest).toBeLessThan(366 * DAY);
    expect(NIGHT - oldest).toBeGreaterThan(300 * DAY);
  });

  it('never lets go of the newest backup, whatever the rule', () => {
    const backups = [{ startedMs: NIGHT }, { startedMs: NIGHT - DAY }];
    expect([...backupsToKeep(backups, { daily: 0, weekly: 0, monthly: 0 })]).toEqual([backups[0]]);
    expect(backupsToKeep([], { daily: 7, weekly: 4, monthly: 12 }).size).toBe(0);
  });
});

describe('backup names and the daily time', () => {
  it('names a backup by the instant it began, and reads that instant back', () => {
    const name = backupName(Date.UTC(2026, 10, 28, 18, 5, 9, 456));
    expect(name).toBe('gaadi-backup-20261128T180509Z.gbk');
    expect(startedMsOf(name)).toBe(Date.UTC(2026, 10, 28, 18, 5, 9));
    for (const other of ['gaadi-backup-20261128T180509Z.gbk.partial', 'notes.txt', 'gaadi-backup-2026.gbk']) expect(startedMsOf(other)).toBeNull();
  });

  it('finds the latest 02:30 India time at or before now', () => {
    expect(latestDailyInstant(NIGHT, { hour: 2, minute: 30 })).toBe(NIGHT);
    expect(latestDailyInstant(NIGHT - 1, { hour: 2, minute: 30 })).toBe(NIGHT - DAY);
    expect(latestDailyInstant(NIGHT + 20 * HOUR, { hour: 2, minute: 30 })).toBe(NIGHT);
  });
});
