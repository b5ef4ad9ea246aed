import type { Kysely } from 'kysely';
import type { AppServices } from '../services.ts';
import type { DB } from '../db/schema.ts';
import { sendClaimedReminders } from '../appointments/reminders.ts';
import { TEST_DRIVE } from '../appointments/kinds.ts';
import { escapeHtml } from '../html.ts';
import { queueMail } from '../notify/outgoing.ts';
import { pushOfSms, queuePhoneMessage } from '../notify/phone-message.ts';
import { whatsappTemplate } from '../notify/whatsapp-templates.ts';
import { slotLabel, type TestDrive } from '../../app/features/appointments/test-drives.ts';
import { testDriveText as t } from '../../app/features/appointments/test-drive-texts.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { LANGUAGE_TAGS, type Language } from '../../app/lib/i18n/language.ts';
import { languageOfPerson } from '../accounts/profiles.ts';
import { inLanguage } from '../i18n.ts';
import { paths } from '../../app/lib/paths.ts';
import { homeAddressLine } from '../../app/features/appointments/home-address.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * The confirmation (mail and SMS, with the link to reschedule or cancel) and the reminder an
 * hour before, queued for the worker (decision 069): a message that cannot be sent is retried
 * and never undoes a booking.
 */

export type NotifyDeps = Pick<AppServices, 'database' | 'mailer' | 'logger' | 'config' | 'clock' | 'jobs'>;

type Booking = Pick<TestDrive, 'id' | 'vehicleTitle' | 'mode' | 'pinCode' | 'street' | 'landmark' | 'slot'> & { name: string; phone: string; email: string };

/** Where the customer reschedules or cancels: their profile's list of test drives. */
export function manageUrl(siteOrigin: string): string {
  return `${new URL(paths.profile, siteOrigin).href}#test-drives`;
}

function place(booking: Booking, config: NotifyDeps['config'], language: Language): string {
  return booking.mode === 'home'
    ? t('placeHome', { address: homeAddressLine(booking, language) }, language)
    : t('placeHub', { address: config.contactAddress }, language);
}

type Kind = 'booked' | 'rescheduled' | 'reminder';

const HEADINGS = { booked: 'headingBooked', rescheduled: 'headingRescheduled', reminder: 'headingReminder' } as const satisfies Record<Kind, string>;

const TEMPLATES = { booked: 'test_drive_booked', rescheduled: 'test_drive_moved', reminder: 'test_drive_reminder' } as const satisfies Record<Kind, string>;

/** The mail about one booking, in `language` (the customer's: decision 087). */
export function testDriveMail(
  kind: Kind,
  booking: Booking,
  config: NotifyDeps['config'],
  language: Language = currentLanguage(),
): { subject: string; text: string; html: string } {
  // The slot's day and hour are written as the mail's language writes them.
  const when = inLanguage(language, () => slotLabel(booking.slot));
  const link = manageUrl(config.siteOrigin);
  const heading = t(HEADINGS[kind], undefined, language);
  const subject = `${heading}: ${booking.vehicleTitle.replace(/\s+/g, ' ').slice(0, 60)}, ${when}`;
  const lines = [
    booking.name ? t('greetingName', { name: booking.name }, language) : t('greeting', undefined, language),
    '',
    t('mailHeading', { heading }, language),
    '',
    t('mailCar', { car: booking.vehicleTitle }, language),
    t('mailWhen', { when }, language),
    t('mailWhere', { where: place(booking, config, language) }, language),
    t('mailBooking', { id: booking.id }, language),
    '',
    kind === 'booked' ? t('willCall', undefined, language) : t('bringLicence', undefined, language),
    '',
    t('rescheduleOrCancelLink', { link }, language),
    '',
    t('regards', undefined, language),
    t('team', { site: config.siteName }, language),
  ];
  const text = lines.join('\n');
  const html = `<!doctype html>
<html lang="${LANGUAGE_TAGS[language].html}"><body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;color:#222;">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;">
<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(heading)}</h1>
${lines
  .slice(0, -5)
  .filter(Boolean)
  .map((line) => `<p style="margin:0 0 8px;">${escapeHtml(line)}</p>`)
  .join('\n')}
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;">${escapeHtml(t('rescheduleOrCancel', undefined, language))}</a></p>
<p style="font-size:13px;color:#555;">${escapeHtml(link)}</p>
<p>${escapeHtml(t('regards', undefined, language))}<br>${escapeHtml(t('team', { site: config.siteName }, language))}</p>
</div></body></html>`;
  return { subject, text, html };
}

/** One SMS segment where it fits: what, when, where (the PIN code: the mail has the full address), and the link. */
export function testDriveSms(kind: Kind, booking: Booking, config: NotifyDeps['config'], language: Language = currentLanguage()): string {
  const where = booking.mode === 'home' ? t('smsHome', { pin: booking.pinCode }, language) : t('smsHub', undefined, language);
  const head = t(kind === 'reminder' ? 'smsReminder' : kind === 'rescheduled' ? 'smsMoved' : 'smsBooked', undefined, language);
  const when = inLanguage(language, () => slotLabel(booking.slot));
  return t('sms', { site: config.siteName, head, car: booking.vehicleTitle.slice(0, 40), when, where, link: manageUrl(config.siteOrigin) }, language);
}

/**
 * Queues the mail and the phone's message (WhatsApp for a number that opted in, else SMS; a push
 * to the person's devices) for one booking in `trx`, the transaction of the booking's change
 * (decisions 069, 123). `language`: the customer's own request gives the page's; without it (the
 * reminder job, the desk moving a booking) the messages go in the customer's own language.
 */
export async function notifyTestDrive(trx: Kysely<DB>, deps: NotifyDeps, kind: Kind, booking: Booking, language?: Language): Promise<void> {
  const userId = (await trx.selectFrom('test_drives').select('user_id').where('id', '=', booking.id).executeTakeFirst())?.user_id ?? null;
  // The person's own language once the request is not theirs; English once the account is gone.
  const reader = language ?? (userId ? await languageOfPerson({ ...deps.database, db: trx }, userId) : 'en');
  if (booking.email) await queueMail(trx, deps, { to: booking.email, ...testDriveMail(kind, booking, deps.config, reader) });
  const sms = testDriveSms(kind, booking, deps.config, reader);
  await queuePhoneMessage(trx, deps, {
    userId,
    phone: booking.phone || null,
    language: reader,
    sms,
    whatsapp: whatsappTemplate(TEMPLATES[kind], {
      car: booking.vehicleTitle,
      when: inLanguage(reader, () => slotLabel(booking.slot)),
      where: place(booking, deps.config, reader),
      link: manageUrl(deps.config.siteOrigin),
    }),
    push: pushOfSms(deps.config.siteName, sms, `${paths.profile}#test-drives`, reader),
  });
}

// ------------------------------------------------------------------------------------ reminders

/** How often the reminder job looks, and how soon after start it looks first. */
export const REMINDER_INTERVAL_MS = 5 * 60 * 1000;
export const REMINDER_FIRST_RUN_MS = 15_000;

/**
 * Sends the reminder of every upcoming test drive starting within the kind's reminder window
 * (the hour before) and not reminded yet. Each booking is claimed first (reminded_at set only where it is still empty), so two
 * runs, or two instances, never send one reminder twice. Returns how many were sent.
 */
export async function sendDueReminders(deps: NotifyDeps, nowMs: number): Promise<number> {
  const sent = await sendClaimedReminders(deps.database.db, TEST_DRIVE, nowMs, (trx, row) => {
    const booking = {
      id: row.id,
      vehicleTitle: row.vehicle_title,
      mode: row.mode,
      pinCode: row.pin_code,
      street: row.street,
      landmark: row.landmark,
      slot: indiaDateTimeParam(row.slot_start_ms),
      name: row.name,
      phone: row.phone,
      email: row.email,
    };
    return notifyTestDrive(trx, deps, 'reminder', booking);
  });
  if (sent > 0) deps.jobs.wake();
  if (sent > 0) deps.logger.info({ sent }, 'test drives: reminders sent');
  return sent;
}
