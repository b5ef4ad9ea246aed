import type { AppServices } from '../services.ts';
import { settingsFor, teamNumbers } from '../admin/settings.ts';
import { queueTeamAlert, teamEvent } from '../notify/team-alert.ts';
import { inLanguage } from '../i18n.ts';
import { adminPaths } from '../../app/lib/paths.ts';
import { slotLabel } from '../../app/features/appointments/test-drives.ts';
import { RateLimitedError } from '../errors.ts';
import { consumeRateLimit, rateLimits } from '../security/rate-limit.ts';
import { testDriveMessages } from '../../app/features/appointments/test-drives.ts';
import type { TestDriveRequest } from '../../app/features/appointments/test-drive-schemas.ts';
import { notifyTestDrive } from './notify.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { bookTestDrive, cancelOwnTestDrive, rescheduleOwnTestDrive, type ScheduledTestDrive, type TestDrive } from './test-drives.ts';

/**
 * What a customer does with test drives, as the pages and the API both call it: a limit per
 * person, the change, and the confirmation by mail and on the phone queued for the worker (decisions 069, 123), and the desk told of a new booking on WhatsApp,
 * written in the language of the customer's own request.
 */

type Services = Pick<AppServices, 'database' | 'clock' | 'config' | 'settingsCache' | 'mailer' | 'logger' | 'jobs'>;

async function limit(services: Services, userId: string) {
  const result = await consumeRateLimit(services.database, { key: `test-drive:${userId}`, ...rateLimits.testDriveChange, now: services.clock.now() });
  if (!result.allowed) throw new RateLimitedError(testDriveMessages.tooMany, result.retryAfterSeconds);
}

export async function bookAndConfirm(services: Services, input: TestDriveRequest & { userId: string; vehicleId: number }): Promise<ScheduledTestDrive> {
  await limit(services, input.userId);
  const settings = await settingsFor(services);
  const booking = await bookTestDrive(services, settings, input, async (trx, saved) => {
    await notifyTestDrive(trx, services, 'booked', saved, currentLanguage());
    await queueTeamAlert(trx, services, teamNumbers(settings), {
      event: teamEvent('teamNewTestDrive', saved.id),
      customerName: saved.name,
      customerPhone: saved.phone,
      detail: `${saved.vehicleTitle}, ${inLanguage('en', () => slotLabel(saved.slot))}`,
      deskUrl: new URL(adminPaths.testDrives, services.config.siteOrigin).href,
    });
  });
  services.jobs.wake();
  return booking;
}

export async function rescheduleAndConfirm(services: Services, input: { id: number; userId: string; slot: string }): Promise<ScheduledTestDrive> {
  await limit(services, input.userId);
  const booking = await rescheduleOwnTestDrive(services, await settingsFor(services), input, (trx, moved) =>
    notifyTestDrive(trx, services, 'rescheduled', moved, currentLanguage()),
  );
  services.jobs.wake();
  return booking;
}

export async function cancelOwn(services: Services, input: { id: number; userId: string }): Promise<TestDrive> {
  await limit(services, input.userId);
  return cancelOwnTestDrive(services, input);
}
