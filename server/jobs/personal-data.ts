import { OUTBOX_RETENTION_DAYS } from '../../app/lib/retention.ts';
import { notPersonal, type PersonalData } from '../privacy/personal-data.ts';
import { purgeFinishedJobs } from './queue.ts';

/** The job queue names kinds of work, not people (its payloads carry record ids). */
export const jobsPersonalData: PersonalData[] = [
  {
    ...notPersonal('jobs', { name: 'the kind of job' }),
    // Jobs that went through are history once the outbox's period is over; failed ones stay for the admin.
    purge: { report: 'finishedJobs', run: ({ database }, now) => purgeFinishedJobs(database, now.getTime() - OUTBOX_RETENTION_DAYS * 24 * 60 * 60 * 1000) },
  },
  notPersonal('schedules', { name: 'the recurring job' }),
];
