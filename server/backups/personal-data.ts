import { notPersonal, type PersonalData } from '../privacy/personal-data.ts';

/** The backups' own record (server/backups): when each ran. The backups themselves hold everything, encrypted, and age out by the keep rule. */
export const backupsPersonalData: PersonalData[] = [
  notPersonal('backup_runs', {
    name: "the backup file's name (the instant it began)",
    place: 'the folder or bucket it went to',
    error: 'why a backup failed (a disk, a key, a tool)',
  }),
];
