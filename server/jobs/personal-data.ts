import { notPersonal, type PersonalData } from '../privacy/personal-data.ts';

/** The job queue names kinds of work, not people (its payloads carry record ids). */
export const jobsPersonalData: PersonalData[] = [notPersonal('jobs', { name: 'the kind of job' }), notPersonal('schedules', { name: 'the recurring job' })];
