import type { AppServices } from '../services.ts';
import { settingsFor } from '../admin/settings.ts';
import { RateLimitedError } from '../errors.ts';
import { consumeRateLimit, rateLimits } from '../security/rate-limit.ts';
import { testDriveMessages } from '../../app/features/appointments/test-drives.ts';
import type { TestDriveRequest } from '../../app/features/appointments/test-drive-schemas.ts';
import { notifyTestDrive } from './notify.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { bookTestDrive, cancelOwnTestDrive, rescheduleOwnTestDrive, type ScheduledTestDrive, type TestDrive } from './test-drives.ts';

/**
 * What a customer does with test drives, as the pages and the API both call it: a limit per
 * person, the change, and the confirmation by mail and SMS queued for the worker (decision 069),
 * written in the language of the customer's own request.
 */

type Services = Pick<AppServices, 'database' | 'clock' | 'config' | 'settingsCache' | 'mailer' | 'logger' | 'jobs'>;

async function limit(services: Services, userId: string) {
  const result = await consumeRateLimit(services.database, { key: `test-drive:${userId}`, ...rateLimits.testDriveChange, now: services.clock.now() });
  if (!result.allowed) throw new RateLimitedError(testDriveMessages.tooMany, result.retryAfterSeconds);
}

export async function bookAndConfirm(services: Services, input: TestDriveRequest & { userId: string; vehicleId: number }): Promise<ScheduledTestDrive> {
  await limit(services, input.userId);
  const booking = await bookTestDrive(services, await settingsFor(services), input, (trx, saved) =>
    notifyTestDrive(trx, services, 'booked', saved, currentLanguage()),
  );
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
