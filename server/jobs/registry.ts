import type { AppServices } from '../services.ts';
import { outgoingHandlers } from '../notify/outgoing.ts';
import { whatsappHandlers } from '../notify/whatsapp.ts';
import { whatsappReplyHandlers } from '../notify/whatsapp-inbound.ts';
import { pushHandlers } from '../notify/push.ts';
import { RETENTION_FIRST_RUN_MS, RETENTION_INTERVAL_MS, runRetentionPurge } from '../privacy/retention.ts';
import { REMINDER_FIRST_RUN_MS, REMINDER_INTERVAL_MS, sendDueReminders as sendTestDriveReminders } from '../test-drives/notify.ts';
import { expireHolds, RENTAL_JOBS_INTERVAL_MS, sendDueReminders as sendRentalReminders } from '../rentals/lifecycle.ts';
import { retryOwedRefunds } from '../payments/refunds.ts';
import { sendDueInspectionReminders } from '../inspections/inspections.ts';
import { expireDueReservations } from '../reservations/reservations.ts';
import { BACKUP_CHECK_INTERVAL_MS, runScheduledBackup } from '../backups/backups.ts';
import { settingsFor } from '../admin/settings.ts';
import { runSaleDocumentsJob, SALE_DOCUMENTS_JOB } from '../sales/sales.ts';
import { RENTAL_DOCUMENTS_JOB, runRentalDocumentsJob } from '../rentals/rental-documents.ts';
import { runTokenReceiptJob, TOKEN_RECEIPT_JOB } from '../reservations/token-receipt.ts';
import { RC_TRANSFER_OVERDUE_INTERVAL_MS, RC_TRANSFER_OVERDUE_JOB, tellDeskOfOverdueRcTransfers } from '../sales/rc-transfers.ts';
import type { Schedule } from './scheduler.ts';
import type { JobHandlers } from './worker.ts';

/**
 * Every kind of job the app runs, and the recurring ones with their periods: the one list the
 * server and `npm run worker` share. A recurring job is enqueued by the scheduler once per
 * period across all instances (decision 070) and run by a worker like any other.
 */

const RENTAL_FIRST_RUN_MS = 5_000;

/** The recurring jobs and their periods; each one's work is in `recurringWork` below. */
export const RECURRING_JOBS = [
  // The privacy page's retention periods (docs/decisions/013).
  { name: 'retention-purge', periodMs: RETENTION_INTERVAL_MS, firstRunMs: RETENTION_FIRST_RUN_MS },
  // Test-drive reminders an hour before (server/test-drives/notify.ts).
  { name: 'test-drive-reminders', periodMs: REMINDER_INTERVAL_MS, firstRunMs: REMINDER_FIRST_RUN_MS },
  // Sellers' inspection reminders two hours before (server/inspections/inspections.ts).
  { name: 'inspection-reminders', periodMs: REMINDER_INTERVAL_MS, firstRunMs: REMINDER_FIRST_RUN_MS },
  { name: 'rental-hold-expiry', periodMs: RENTAL_JOBS_INTERVAL_MS, firstRunMs: RENTAL_FIRST_RUN_MS },
  { name: 'rental-reminders', periodMs: RENTAL_JOBS_INTERVAL_MS, firstRunMs: RENTAL_FIRST_RUN_MS },
  // Owed refunds keep their own backoff per refund (decision 050); this asks for the due ones.
  { name: 'refund-retry', periodMs: RENTAL_JOBS_INTERVAL_MS, firstRunMs: RENTAL_FIRST_RUN_MS },
  // Car reservations (decision 080): holds that ended list the car again and refund the token; owed refunds are asked again.
  { name: 'reservation-expiry', periodMs: RENTAL_JOBS_INTERVAL_MS, firstRunMs: RENTAL_FIRST_RUN_MS },
  // The daily backup (decision 112): looked at hourly, taken once a day after BACKUP_AT (India time).
  { name: 'daily-backup', periodMs: BACKUP_CHECK_INTERVAL_MS, firstRunMs: RENTAL_FIRST_RUN_MS },
  // Registration transfers open past the setting's days: the desk is mailed once each (decision 117).
  { name: RC_TRANSFER_OVERDUE_JOB, periodMs: RC_TRANSFER_OVERDUE_INTERVAL_MS, firstRunMs: RENTAL_FIRST_RUN_MS },
] as const satisfies readonly Schedule[];

export type RecurringJobName = (typeof RECURRING_JOBS)[number]['name'];

/** What each recurring job does: every name in RECURRING_JOBS has its work (the type holds that). */
function recurringWork(services: AppServices): Record<RecurringJobName, () => Promise<void>> {
  const { logger, clock } = services;
  return {
    'retention-purge': async () => void (await runRetentionPurge(services)),
    'test-drive-reminders': async () => void (await sendTestDriveReminders(services, clock.now())),
    'inspection-reminders': async () => void (await sendDueInspectionReminders(services, clock.now())),
    'rental-hold-expiry': async () => {
      const expired = await expireHolds(services);
      if (expired > 0) logger.info({ expired }, 'rentals: lapsed holds expired');
    },
    'rental-reminders': async () => {
      const reminded = await sendRentalReminders(services);
      if (reminded > 0) logger.info({ reminded }, 'rentals: pickup reminders sent');
    },
    'refund-retry': async () => {
      // Every owner's owed refunds, rental bookings' and reservations' alike (decision 106).
      const refunds = await retryOwedRefunds(services);
      if (refunds.refunded + refunds.owed > 0) logger.info(refunds, 'payments: owed refunds retried');
    },
    'daily-backup': async () => {
      const settings = await settingsFor(services);
      await runScheduledBackup({ ...services, desk: { email: settings.adminEmail || null } });
    },
    [RC_TRANSFER_OVERDUE_JOB]: async () => {
      const told = await tellDeskOfOverdueRcTransfers(services);
      if (told > 0) logger.info({ told }, 'sales: the desk told of overdue registration transfers');
    },
    'reservation-expiry': async () => {
      const expired = await expireDueReservations(services);
      if (expired > 0) logger.info({ expired }, 'reservations: holds expired');
    },
  };
}

export function appJobs(services: AppServices): { handlers: JobHandlers; schedules: Schedule[] } {
  const period = services.config.jobs.schedulePeriodMs;
  return {
    handlers: {
      ...outgoingHandlers(services),
      ...whatsappHandlers(services),
      ...whatsappReplyHandlers(services),
      ...pushHandlers(services),
      ...recurringWork(services),
      [SALE_DOCUMENTS_JOB]: (payload) => runSaleDocumentsJob(services, payload),
      [RENTAL_DOCUMENTS_JOB]: (payload) => runRentalDocumentsJob(services, payload),
      [TOKEN_RECEIPT_JOB]: (payload) => runTokenReceiptJob(services, payload),
    },
    schedules: RECURRING_JOBS.map(({ name, periodMs, firstRunMs }) =>
      period === null ? { name, periodMs, firstRunMs } : { name, periodMs: period, firstRunMs: 0 },
    ),
  };
}
