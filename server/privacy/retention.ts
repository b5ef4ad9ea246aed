import { AUDIT_RETENTION_MONTHS, OUTBOX_RETENTION_DAYS, RENTAL_BOOKING_RETENTION_YEARS } from '../../app/lib/retention.ts';
import { FINISHED_BOOKING_STATUSES } from '../../app/lib/rentals.ts';
import { LEAD_RETENTION_MONTHS } from '../../app/lib/lead-forms.ts';
import type { Database } from '../db/connection.ts';
import type { Logger } from '../logger.ts';
import { purgeExpiredLeads } from '../leads/leads.ts';
import type { Storage } from '../media/storage.ts';
import { longestRateLimitWindowMs, pruneRateLimits } from '../security/rate-limit.ts';
import { purgeFinishedJobs } from '../jobs/queue.ts';
import type { Clock } from '../clock.ts';
import { eraseChecklists } from '../rentals/checklists.ts';

/**
 * Every retention period the privacy page states, enforced in one place and on a schedule
 * (never as a side effect of someone opening a page). Each job is idempotent and safe to run
 * on several instances at once: they only delete rows already past their period.
 */

/** How often the schedule runs, and how soon after start it runs first. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
export const RETENTION_FIRST_RUN_MS = 10_000;
/** Leads are purged in batches of 500; this many batches per run covers any backlog. */
const MAX_LEAD_BATCHES = 20;

export type RetentionDeps = {
  database: Database;
  clock: Clock;
  storage: Storage;
  /** Where the rental handover and return photos are (deleted with their booking). */
  privateStorage: Storage;
  logger: Pick<Logger, 'warn' | 'info' | 'error'>;
};

export type PurgeReport = {
  leads: number;
  phoneOtps: number;
  rateLimitCounters: number;
  botCheckSolutions: number;
  sessions: number;
  verifications: number;
  auditEntries: number;
  outboxMessages: number;
  rentalBookings: number;
  testDrives: number;
  reservations: number;
  finishedJobs: number;
};

function monthsBefore(now: Date, months: number): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

/** Runs every purge job once and says how many rows each removed. */
export async function runRetentionPurge(deps: RetentionDeps, now: Date = new Date(deps.clock.now())): Promise<PurgeReport> {
  const { db } = deps.database;
  const nowIso = now.toISOString();
  const deleted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

  let leads = 0;
  for (let batch = 0; batch < MAX_LEAD_BATCHES; batch++) {
    const removed = await purgeExpiredLeads(deps, now);
    leads += removed;
    if (removed === 0) break;
  }
  // A code lives 10 minutes (OTP_TTL_MS); once expired it can never be used again.
  const phoneOtps = deleted(await db.deleteFrom('phone_otps').where('expires_at', '<', nowIso).executeTakeFirst());
  const rateLimitCounters = await pruneRateLimits(deps.database, longestRateLimitWindowMs, now.getTime());
  const botCheckSolutions = deleted(await db.deleteFrom('bot_check_spent').where('expires_at', '<', now.getTime()).executeTakeFirst());
  // better-auth stores its dates as ISO text on SQLite and as timestamptz on PostgreSQL; an ISO
  // string compares correctly with both.
  const sessions = deleted(await db.deleteFrom('session').where('expiresAt', '<', nowIso).executeTakeFirst());
  const verifications = deleted(await db.deleteFrom('verification').where('expiresAt', '<', nowIso).executeTakeFirst());
  const auditEntries = deleted(await db.deleteFrom('audit_log').where('created_at', '<', monthsBefore(now, AUDIT_RETENTION_MONTHS).toISOString()).executeTakeFirst());
  const outboxCutoff = new Date(now.getTime() - OUTBOX_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const outboxMessages = deleted(await db.deleteFrom('outbox_messages').where('created_at', '<', outboxCutoff).executeTakeFirst());

  // Finished bookings only: one still holding a car or awaiting its deposit is never purged.
  // Their handover and return photos go first, files and rows, so none is left without its booking.
  const rentalCutoffMs = monthsBefore(now, RENTAL_BOOKING_RETENTION_YEARS * 12).getTime();
  const purgedBookings = await db
    .selectFrom('rental_bookings')
    .select('id')
    .where('kind', '=', 'booking')
    .where('status', 'in', FINISHED_BOOKING_STATUSES)
    .where('ends_ms', '<', rentalCutoffMs)
    // A bounded batch per run (hourly): the rest goes in the next runs.
    .limit(1000)
    .execute();
  await eraseChecklists(deps, purgedBookings.map((row) => row.id));
  const rentalBookings = purgedBookings.length === 0 ? 0 : deleted(await db.deleteFrom('rental_bookings').where('id', 'in', purgedBookings.map((row) => row.id)).executeTakeFirst());

  // A test drive is a lead with a time: kept as long as the other leads, counted from its slot.
  const testDrives = deleted(await db.deleteFrom('test_drives').where('slot_start_ms', '<', monthsBefore(now, LEAD_RETENTION_MONTHS).getTime()).executeTakeFirst());
  // A reservation's token was money paid and refunded or counted towards a sale: the dealer's
  // accounts, kept as the rental bookings are, from the day it ended. A live one has no end.
  const reservations = deleted(
    await db.deleteFrom('car_reservations').where('ended_at', 'is not', null).where('ended_at', '<', monthsBefore(now, RENTAL_BOOKING_RETENTION_YEARS * 12).toISOString()).executeTakeFirst(),
  );

  // Jobs that went through are history once the outbox's period is over; failed ones stay for the admin.
  const finishedJobs = await purgeFinishedJobs(deps.database, now.getTime() - OUTBOX_RETENTION_DAYS * 24 * 60 * 60 * 1000);

  const report = { leads, phoneOtps, rateLimitCounters, botCheckSolutions, sessions, verifications, auditEntries, outboxMessages, rentalBookings, testDrives, reservations, finishedJobs };
  if (Object.values(report).some((count) => count > 0)) deps.logger.info(report, 'retention: purged rows past their period');
  return report;
}
