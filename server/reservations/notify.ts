import type { Kysely } from 'kysely';
import { formatRupees, formatIndiaDateTime } from '../../app/lib/format.ts';
import { adminPaths, paths } from '../../app/lib/paths.ts';
import { teamNumbers, type Settings } from '../admin/settings.ts';
import { queueTeamAlert, teamEvent } from '../notify/team-alert.ts';
import { whatsappText } from '../../app/features/notifications/whatsapp-texts.ts';
import type { AppServices } from '../services.ts';
import type { DB } from '../db/schema.ts';
import { queueMail, queueSms, type OutgoingServices } from '../notify/outgoing.ts';
import { pushOfSms, queuePhoneMessage } from '../notify/phone-message.ts';
import { whatsappTemplate, type TemplateMessage } from '../notify/whatsapp-templates.ts';
import type { DeskReservation } from './store.ts';
import { reservationText as t } from '../../app/features/reservations/reservation-texts.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { languageOfPerson } from '../accounts/profiles.ts';
import { inLanguage } from '../i18n.ts';

/**
 * The buyer's mail and phone message (WhatsApp or SMS, and push: decision 123) at reservation, refund and expiry, and the dealer's at reservation,
 * queued in the transaction of the change that causes them (decision 069).
 */

export type ReservationMessageKind = 'reserved' | 'cancelled' | 'expired' | 'taken';

function buyerText(
  kind: ReservationMessageKind,
  reservation: DeskReservation,
  siteOrigin: string,
  language: Language,
): { subject: string; lines: string[]; sms: string; whatsapp: TemplateMessage } {
  const car = reservation.vehicleTitle.replace(/\s+/g, ' ').slice(0, 60);
  const amount = formatRupees(reservation.amount);
  const profile = `${new URL(paths.profile, siteOrigin).href}#reservations`;
  const say = (key: Parameters<typeof t>[0], values?: Record<string, string | number>) => t(key, values, language);
  switch (kind) {
    case 'reserved': {
      // The time is written as the reader's language writes it.
      const until = reservation.heldUntil ? inLanguage(language, () => formatIndiaDateTime(reservation.heldUntil!)) : '';
      return {
        subject: say('reservedSubject', { car }),
        lines: [say('reservedLine1', { car, until }), say('reservedLine2', { amount }), say('reservedLine3', { link: profile })],
        sms: say('reservedSms', { car: car.slice(0, 40), until, amount, link: profile }),
        whatsapp: whatsappTemplate('reservation_reserved', { car, until, amount, link: profile }),
      };
    }
    case 'cancelled':
      return {
        subject: say('cancelledSubject', { car }),
        lines: [say('cancelledLine1', { car }), say('cancelledLine2', { amount })],
        sms: say('cancelledSms', { car: car.slice(0, 40), amount }),
        whatsapp: whatsappTemplate('reservation_cancelled', { car, amount }),
      };
    case 'expired':
      return {
        subject: say('expiredSubject', { car }),
        lines: [
          say('expiredLine1', { car }),
          say('expiredLine2', { amount }),
          say('expiredLine3', { link: new URL(paths.vehicle(reservation.vehicleId ?? 0), siteOrigin).href }),
        ],
        sms: say('expiredSms', { car: car.slice(0, 40), amount }),
        whatsapp: whatsappTemplate('reservation_expired', { car, amount }),
      };
    case 'taken':
      return {
        subject: say('takenSubject', { car }),
        lines: [say('takenLine1', { car }), say('takenLine2', { amount })],
        sms: say('takenSms', { car: car.slice(0, 40), amount }),
        whatsapp: whatsappTemplate('reservation_taken', { car, amount }),
      };
  }
}

/**
 * Queues the buyer's mail and SMS about the reservation in `db` (the change's transaction), in
 * `language` when the buyer's own request causes them (their cancel, their payment on the pay
 * page), otherwise (the hold's expiry, the desk, the payment webhook) in the buyer's own language.
 */
export async function queueBuyerMessages(
  db: Kysely<DB>,
  services: OutgoingServices & Pick<AppServices, 'database'>,
  kind: ReservationMessageKind,
  reservation: DeskReservation,
  language?: Language,
): Promise<void> {
  const reader = language ?? (reservation.userId ? await languageOfPerson({ ...services.database, db }, reservation.userId) : 'en');
  const { subject, lines, sms, whatsapp } = buyerText(kind, reservation, services.config.siteOrigin, reader);
  const say = (key: Parameters<typeof t>[0], values?: Record<string, string | number>) => t(key, values, reader);
  const text = [
    reservation.name ? say('greetingName', { name: reservation.name }) : say('greeting'),
    '',
    ...lines,
    '',
    say('mailReservation', { id: reservation.id }),
    '',
    say('regards'),
    say('team', { site: services.config.siteName }),
  ].join('\n');
  if (reservation.email) await queueMail(db, services, { to: reservation.email, subject, text });
  const smsText = `${services.config.siteName}: ${sms}`;
  await queuePhoneMessage(db, services, {
    userId: reservation.userId,
    phone: reservation.phone || null,
    language: reader,
    sms: smsText,
    whatsapp,
    push: pushOfSms(services.config.siteName, smsText, `${paths.profile}#reservations`, reader),
  });
}

/**
 * Queues the dealer's mail (when notifications are on) and SMS (to the seller's phone) about a
 * reservation: a new one, or one that ended without the desk (the buyer cancelled, the hold ran
 * out), so the car can be offered again at once. The desk reads English.
 */
export async function queueDealerMessages(
  db: Kysely<DB>,
  services: OutgoingServices,
  settings: Settings,
  reservation: DeskReservation,
  kind: 'reserved' | 'cancelled' | 'expired',
): Promise<void> {
  const deskUrl = new URL(adminPaths.dashboard, services.config.siteOrigin).href;
  // The desk reads English, whatever the buyer's page was in.
  const until = reservation.heldUntil ? inLanguage('en', () => formatIndiaDateTime(reservation.heldUntil!)) : '';
  const car = reservation.vehicleTitle.replace(/\s+/g, ' ');
  const who = reservation.name || reservation.phone;
  const words = {
    reserved: {
      intro: t('deskIntro', undefined, 'en'),
      subject: t('deskSubject', { id: reservation.id, car: car.slice(0, 60) }, 'en'),
      sms: t('deskSms', { site: services.config.siteName, car: car.slice(0, 40), who, phone: reservation.phone, until, id: reservation.id }, 'en'),
    },
    cancelled: {
      intro: t('deskCancelledIntro', undefined, 'en'),
      subject: t('deskCancelledSubject', { id: reservation.id, car: car.slice(0, 60) }, 'en'),
      sms: t('deskCancelledSms', { site: services.config.siteName, car: car.slice(0, 40), who, phone: reservation.phone, id: reservation.id }, 'en'),
    },
    expired: {
      intro: t('deskExpiredIntro', undefined, 'en'),
      subject: t('deskExpiredSubject', { id: reservation.id, car: car.slice(0, 60) }, 'en'),
      sms: t('deskExpiredSms', { site: services.config.siteName, car: car.slice(0, 40), who, phone: reservation.phone, id: reservation.id }, 'en'),
    },
  }[kind];
  if (settings.emailNotifications && settings.adminEmail) {
    const text = [
      words.intro,
      '',
      t('mailReservation', { id: reservation.id }, 'en'),
      t('deskCar', { car: reservation.vehicleTitle }, 'en'),
      t('deskBuyer', { name: reservation.name || '-', phone: reservation.phone, email: reservation.email }, 'en'),
      kind === 'reserved'
        ? t('deskToken', { amount: formatRupees(reservation.amount) }, 'en')
        : t('deskRefunded', { amount: formatRupees(reservation.amount) }, 'en'),
      ...(kind === 'reserved' ? [t('deskHeldUntil', { until }, 'en')] : []),
      '',
      kind === 'reserved' ? t('deskLink', { link: deskUrl }, 'en') : t('deskAvailableLink', { link: deskUrl }, 'en'),
    ].join('\n');
    await queueMail(db, services, { to: settings.adminEmail, subject: words.subject, text });
  }
  await queueSms(db, services, services.config.sellerPhone, words.sms);
  await queueTeamAlert(db, services, teamNumbers(settings), {
    event: teamEvent(({ reserved: 'teamReserved', cancelled: 'teamReservationCancelled', expired: 'teamReservationExpired' } as const)[kind], reservation.id),
    customerName: reservation.name,
    customerPhone: reservation.phone,
    detail: kind === 'reserved' ? whatsappText('teamReservedDetail', { car, amount: formatRupees(reservation.amount), until }, 'en') : car,
    deskUrl: new URL(adminPaths.reservation(reservation.id), services.config.siteOrigin).href,
  });
}
