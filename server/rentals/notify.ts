import { formatRupees } from '../../app/lib/format.ts';
import { formatIndiaDateTime, formatIndiaTime } from '../../app/features/rentals/rentals.ts';
import { quoteInLanguage, quoteTotals } from '../../app/features/rentals/rental-price.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import type { TextValues } from '../../app/lib/i18n/texts.ts';
import { languageOfPerson } from '../accounts/profiles.ts';
import { inLanguage } from '../i18n.ts';
import { carFacts, generalFacts, refundWindow, type RentalPolicy } from '../../app/features/rentals/rental-facts.ts';
import { adminPaths, paths } from '../../app/lib/paths.ts';
import type { Kysely } from 'kysely';
import type { AppServices } from '../services.ts';
import type { DB } from '../db/schema.ts';
import { queueMail } from '../notify/outgoing.ts';
import { pushOfSms, queuePhoneMessage } from '../notify/phone-message.ts';
import { whatsappTemplate, type TemplateMessage } from '../notify/whatsapp-templates.ts';
import { teamNumbers, type Settings } from '../admin/settings.ts';
import { queueTeamAlert, teamEvent } from '../notify/team-alert.ts';
import { rentalPolicyOf, type Booking } from './store.ts';
import { rupeesToPaise } from '../../app/lib/money.ts';
import { cancellationMoneyText, settlementMoneyText, type SettlementMoney } from '../../app/features/rentals/rental-money.ts';
import { indiaDaysBetween } from '../../app/lib/india-time.ts';

/**
 * What the renter is told by mail and SMS (confirmation, the reminder within the day before the pickup, cancellation,
 * the closing statement) and the admin's mail about a new booking, queued for the worker in the
 * transaction of the booking's change (decision 069): a message that cannot be sent is retried.
 */

export type RentalNotifyServices = Pick<AppServices, 'database' | 'config' | 'mailer' | 'logger' | 'settingsCache' | 'clock' | 'jobs'>;

export type RenterMessageKind = 'confirmed' | 'reminder' | 'cancelled' | 'refused' | 'closed';

function when(booking: Booking, language: Language): string {
  return t('mailWhenRange', { from: formatIndiaDateTime(booking.fromMs), to: formatIndiaDateTime(booking.toMs) }, language);
}

/**
 * When the pickup is, said from the moment the reminder is written, by India's calendar: "Today,
 * 6:00 pm" for later the same day, "Tomorrow, 10:00 am" for the next one (a reminder goes out
 * within the day before the pickup, so one of the two), else its date. The opening says the same.
 */
function pickupFromNow(fromMs: number, nowMs: number, language: Language): { when: string; opening: string } {
  const time = formatIndiaTime(fromMs);
  switch (indiaDaysBetween(nowMs, fromMs)) {
    case 0:
      return { when: t('pickupToday', { time }, language), opening: t('reminderOpeningToday', { time }, language) };
    case 1:
      return { when: t('pickupTomorrow', { time }, language), opening: t('reminderOpeningTomorrow', { time }, language) };
    default: {
      const date = formatIndiaDateTime(fromMs);
      return { when: date, opening: t('reminderOpeningOn', { when: date }, language) };
    }
  }
}

/**
 * The texts of one message to the renter: mail subject and body, and the SMS (one or two
 * segments), in `language` (dates too: written with it as the language of the moment).
 */
export function renterMessage(
  kind: RenterMessageKind,
  booking: Booking,
  /** `nowMs`: when the message is written, which a reminder's "Today" or "Tomorrow" is counted from. */
  options: { siteName: string; siteOrigin: string; policy: RentalPolicy; nowMs: number; refund?: number; language?: Language },
): { subject: string; text: string; sms: string; whatsapp: TemplateMessage } {
  const language = options.language ?? currentLanguage();
  return inLanguage(language, () => writeRenterMessage(kind, booking, options, language));
}

function writeRenterMessage(
  kind: RenterMessageKind,
  booking: Booking,
  options: { siteName: string; siteOrigin: string; policy: RentalPolicy; nowMs: number; refund?: number },
  language: Language,
): { subject: string; text: string; sms: string; whatsapp: TemplateMessage } {
  const tt = (key: Parameters<typeof t>[0], values?: TextValues) => t(key, values, language);
  const ref = tt('mailRef', { id: booking.id });
  const site = options.siteName;
  const profileUrl = new URL(paths.profile, options.siteOrigin).href;
  const pickupPlace =
    booking.pickup === 'delivery'
      ? tt('mailDeliveredTo', { address: booking.deliveryAddress ? `${booking.deliveryAddress}, ` : '', pin: booking.pinCode })
      : tt('mailPickupAtHub');
  const quote = quoteInLanguage(booking.quote, language);
  const car = booking.carName;
  const from = formatIndiaDateTime(booking.fromMs);
  const to = formatIndiaDateTime(booking.toMs);
  // The same lines and facts as the booking page: one function each (app/features/rentals/rental-price.ts, rental-facts.ts).
  const facts = [
    ...carFacts(booking.terms, language).filter((fact) => fact.key === 'fuel'),
    ...generalFacts(options.policy, language).filter((fact) => ['deposit-return', 'late-return', 'cancellation'].includes(fact.key)),
  ];
  const line = (label: string, value: string) => tt('mailLine', { label, value });
  const terms = [
    ...quote.lines.map((row) => line(row.label, formatRupees(row.amount))),
    ...quoteTotals(quote, language).map((row) => line(row.label, formatRupees(row.amount))),
    tt('mailKmIncluded', {
      km: quote.kmIncluded === null ? tt('mailKmUnlimited') : tt('mailKmThen', { km: quote.kmIncluded, rate: formatRupees(quote.extraKmRate) }),
    }),
    ...(booking.protection ? [tt('mailProtectionCap', { cap: formatRupees(options.policy.protectionCap) })] : []),
    '',
    ...facts.map((fact) => line(fact.label, fact.text)),
  ];
  const carLine = tt('mailCar', { car });
  const whenLine = tt('mailWhen', { when: when(booking, language) });
  const bring = tt('mailBringLicence', { url: profileUrl });
  switch (kind) {
    case 'confirmed':
      return {
        subject: tt('confirmedSubject', { car, ref }),
        text: [tt('confirmedOpening'), '', carLine, whenLine, tt('mailWhere', { where: pickupPlace }), ...terms, '', bring, '', site].join('\n'),
        sms: tt('confirmedSms', { site, ref, car, from, to }),
        whatsapp: whatsappTemplate('rental_confirmed', { ref, car, from, to, link: profileUrl }),
      };
    case 'reminder': {
      const pickup = pickupFromNow(booking.fromMs, options.nowMs, language);
      return {
        subject: tt('reminderSubject', { when: pickup.when, car, ref }),
        text: [pickup.opening, '', carLine, tt('mailPickup', { when: from, place: pickupPlace }), tt('mailReturn', { when: to }), '', bring, '', site].join(
          '\n',
        ),
        sms: tt('reminderSms', { site, car, when: pickup.when, ref }),
        whatsapp: whatsappTemplate('rental_reminder', { car, when: pickup.when, ref, link: profileUrl }),
      };
    }
    case 'cancelled':
    case 'refused': {
      const refund = options.refund ?? 0;
      const opening = kind === 'cancelled' ? tt('cancelledOpening') : tt('refusedOpening', { note: booking.note ? ` (${booking.note})` : '' });
      // Only an online payment is paid before the pickup, so only it can come back now: through the gateway.
      const money = { paise: rupeesToPaise(refund), paidPaise: rupeesToPaise(booking.amountPaid) };
      const refundLine = cancellationMoneyText({ ...money, window: refundWindow(options.policy, language) }, language);
      return {
        subject: tt(kind === 'cancelled' ? 'cancelledSubject' : 'refusedSubject', { car, ref }),
        text: [opening, '', carLine, whenLine, refundLine, '', site].join('\n'),
        sms: tt(kind === 'cancelled' ? 'cancelledSms' : 'refusedSms', { site, ref, money: cancellationMoneyText(money, language) }),
        whatsapp: whatsappTemplate(kind === 'cancelled' ? 'rental_cancelled' : 'rental_refused', { ref, car, money: refundLine }),
      };
    }
    case 'closed': {
      const charges = booking.charges;
      const lines = charges
        ? [
            tt('closedKmDriven', { km: charges.kmDriven }),
            tt('closedExtraKm', { km: charges.extraKm, rate: formatRupees(quote.extraKmRate), amount: formatRupees(charges.extraKmCharge) }),
            tt('closedLate', { hours: charges.lateHours, amount: formatRupees(charges.lateFee) }),
            tt('closedFuel', { amount: formatRupees(charges.fuelCharge) }),
            ...(charges.damage ?? []).map((damage) => tt('closedDamage', { note: damage.note, amount: formatRupees(damage.charge) })),
            tt('closedTotal', { amount: formatRupees(charges.total) }),
            ...(charges.amountDue > 0 ? [tt('closedStillDue', { amount: formatRupees(charges.amountDue) })] : []),
          ]
        : [];
      const refund = booking.depositRefund ?? 0;
      // Settled before the way it moved was kept: the refund, said without a method.
      const settlement: SettlementMoney = booking.settlement ?? {
        direction: refund > 0 ? 'returned' : 'none',
        paise: rupeesToPaise(refund),
        method: null,
        reference: null,
      };
      const moneyOptions = { window: refundWindow(options.policy, language), deposit: quote.deposit };
      return {
        subject: tt('closedSubject', { car, ref }),
        text: [
          tt('closedOpening'),
          '',
          carLine,
          whenLine,
          tt('closedRent', { amount: formatRupees(quote.rent) }),
          tt('closedDeposit', { amount: formatRupees(quote.deposit) }),
          ...lines,
          tt('closedDepositRefund', { amount: formatRupees(refund) }),
          settlementMoneyText(settlement, moneyOptions, language),
          ...(charges ? ['', tt('closedPhotos', { url: profileUrl })] : []),
          '',
          site,
        ].join('\n'),
        sms: tt('closedSms', {
          site,
          ref,
          charges: formatRupees(charges?.total ?? 0),
          money: settlementMoneyText(settlement, { deposit: quote.deposit }, language),
        }),
        whatsapp: whatsappTemplate('rental_closed', {
          ref,
          car,
          charges: formatRupees(charges?.total ?? 0),
          money: settlementMoneyText(settlement, moneyOptions, language),
        }),
      };
    }
  }
}

/**
 * Queues the renter's mail and SMS in `trx`, the transaction of the booking's change (decision
 * 069): the messages exist exactly when the change does. `settings` are read before it opens.
 * A cancellation answers the renter's own request and speaks its language; the desk's actions
 * and the reminders speak the renter's own (languageOfPerson).
 */
export async function notifyRenter(
  trx: Kysely<DB>,
  services: RentalNotifyServices,
  settings: Settings,
  kind: RenterMessageKind,
  booking: Booking,
  extra: { refund?: number } = {},
): Promise<void> {
  const profile = await trx.selectFrom('profiles').select(['email', 'phone', 'phone_verified']).where('user_id', '=', booking.userId).executeTakeFirst();
  if (!profile) return;
  const language = kind === 'cancelled' ? currentLanguage() : await languageOfPerson({ ...services.database, db: trx }, booking.userId);
  const message = renterMessage(kind, booking, {
    siteName: settings.siteName,
    siteOrigin: services.config.siteOrigin,
    policy: rentalPolicyOf(settings),
    nowMs: services.clock.now(),
    language,
    ...extra,
  });
  if (profile.email) await queueMail(trx, services, { to: profile.email, subject: message.subject, text: message.text });
  await queuePhoneMessage(trx, services, {
    userId: booking.userId,
    // Only a verified number is told: an unverified one may be somebody else's.
    phone: profile.phone && profile.phone_verified ? profile.phone : null,
    language,
    sms: message.sms,
    whatsapp: message.whatsapp,
    push: pushOfSms(settings.siteName, message.sms, `${paths.profile}#bookings`, language),
  });
}

/** Tells the team's WhatsApp numbers of a booking made or cancelled by its renter (decision 123), in the change's transaction. */
export async function tellTeamOfRental(
  trx: Kysely<DB>,
  services: RentalNotifyServices,
  settings: Settings,
  booking: Booking,
  event: 'teamNewRental' | 'teamRentalCancelled',
): Promise<void> {
  const renter = await trx.selectFrom('profiles').select(['name', 'phone']).where('user_id', '=', booking.userId).executeTakeFirst();
  await queueTeamAlert(trx, services, teamNumbers(settings), {
    event: teamEvent(event, booking.id),
    customerName: renter?.name ?? '',
    customerPhone: renter?.phone ?? '',
    detail: `${booking.carName}, ${when(booking, 'en')}`,
    deskUrl: new URL(adminPaths.rentalDesk, services.config.siteOrigin).href,
  });
}

/**
 * Tells the desk of a new booking, in the booking's transaction: on the team's WhatsApp numbers,
 * and by mail when Email Notifications are on. The desk reads English.
 */
export async function notifyAdminOfBooking(trx: Kysely<DB>, services: RentalNotifyServices, settings: Settings, booking: Booking): Promise<void> {
  await tellTeamOfRental(trx, services, settings, booking, 'teamNewRental');
  if (!settings.emailNotifications || !settings.adminEmail) return;
  const deskUrl = new URL(adminPaths.dashboard, services.config.siteOrigin).href;
  const text = inLanguage('en', () => {
    const quote = quoteInLanguage(booking.quote, 'en');
    return [
      t('deskNewBooking', {}, 'en'),
      '',
      t('deskBooking', { id: booking.id }, 'en'),
      t('mailCar', { car: booking.carName }, 'en'),
      t('mailWhen', { when: when(booking, 'en') }, 'en'),
      t(
        'deskPickup',
        {
          pickup: booking.pickup === 'delivery' ? t('deskDelivery', { address: booking.deliveryAddress, pin: booking.pinCode }, 'en') : t('deskHub', {}, 'en'),
        },
        'en',
      ),
      t('deskPayment', { payment: booking.paymentMethod === 'razorpay' ? t('deskOnline', {}, 'en') : t('deskAtPickup', {}, 'en') }, 'en'),
      ...quote.lines.map((line) => t('mailLine', { label: line.label, value: formatRupees(line.amount) }, 'en')),
      ...quoteTotals(quote, 'en').map((row) => t('mailLine', { label: row.label, value: formatRupees(row.amount) }, 'en')),
      '',
      t('deskOpenPanel', { url: deskUrl }, 'en'),
    ].join('\n');
  });
  await queueMail(trx, services, { to: settings.adminEmail, subject: t('deskSubject', { id: booking.id, car: booking.carName }, 'en'), text });
}
