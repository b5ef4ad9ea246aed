import { formatRupees } from '../../app/lib/format.ts';
import { formatIndiaDateTime } from '../../app/lib/rentals.ts';
import { quoteTotals } from '../../app/lib/rental-price.ts';
import { carFacts, generalFacts, refundWindow, type RentalPolicy } from '../../app/lib/rental-facts.ts';
import { adminPaths, paths } from '../../app/lib/paths.ts';
import type { Kysely } from 'kysely';
import type { AppServices } from '../services.ts';
import type { DB } from '../db/schema.ts';
import { queueMail, queueSms } from '../notify/outgoing.ts';
import type { Settings } from '../admin/settings.ts';
import { rentalPolicyOf, type Booking } from './store.ts';

/**
 * What the renter is told by mail and SMS (confirmation, the day-before reminder, cancellation,
 * the closing statement) and the admin's mail about a new booking, queued for the worker in the
 * transaction of the booking's change (decision 069): a message that cannot be sent is retried.
 */

export type RentalNotifyServices = Pick<AppServices, 'database' | 'config' | 'mailer' | 'logger' | 'settingsCache' | 'clock' | 'jobs'>;

export type RenterMessageKind = 'confirmed' | 'reminder' | 'cancelled' | 'refused' | 'closed';

function when(booking: Booking): string {
  return `${formatIndiaDateTime(booking.fromMs)} to ${formatIndiaDateTime(booking.toMs)}`;
}

/** The texts of one message to the renter: mail subject and body, and the SMS (one or two segments). */
export function renterMessage(
  kind: RenterMessageKind,
  booking: Booking,
  options: { siteName: string; siteOrigin: string; policy: RentalPolicy; refund?: number },
): { subject: string; text: string; sms: string } {
  const ref = `booking #${booking.id}`;
  const profileUrl = new URL(paths.profile, options.siteOrigin).href;
  const pickupPlace = booking.pickup === 'delivery' ? `delivered to ${booking.deliveryAddress ? `${booking.deliveryAddress}, ` : ''}PIN code ${booking.pinCode}` : 'pickup at our hub';
  const quote = booking.quote;
  // The same lines and facts as the booking page: one function each (app/lib/rental-price.ts, rental-facts.ts).
  const facts = [...carFacts(booking.terms).filter((fact) => fact.key === 'fuel'), ...generalFacts(options.policy).filter((fact) => ['deposit-return', 'late-return', 'cancellation'].includes(fact.key))];
  const terms = [
    ...quote.lines.map((line) => `${line.label}: ${formatRupees(line.amount)}`),
    ...quoteTotals(quote).map((row) => `${row.label}: ${formatRupees(row.amount)}`),
    `Km included: ${quote.kmIncluded === null ? 'unlimited' : `${quote.kmIncluded} km, then ${formatRupees(quote.extraKmRate)} per km`}`,
    ...(booking.protection ? [`Damage protection: what you pay for damage is capped at ${formatRupees(options.policy.protectionCap)}`] : []),
    '',
    ...facts.map((fact) => `${fact.label}: ${fact.text}`),
  ];
  switch (kind) {
    case 'confirmed':
      return {
        subject: `Your ${booking.carName} is booked (${ref})`,
        text: [`Your booking is confirmed.`, '', `Car: ${booking.carName}`, `When: ${when(booking)}`, `Where: ${pickupPlace}`, ...terms, '', `Bring your driving licence. Your bookings: ${profileUrl}`, '', options.siteName].join('\n'),
        sms: `${options.siteName}: ${ref} confirmed. ${booking.carName}, ${formatIndiaDateTime(booking.fromMs)} to ${formatIndiaDateTime(booking.toMs)}. Bring your driving licence.`,
      };
    case 'reminder':
      return {
        subject: `Tomorrow: your ${booking.carName} (${ref})`,
        text: [`A reminder: your self-drive car is ready for you tomorrow.`, '', `Car: ${booking.carName}`, `Pickup: ${formatIndiaDateTime(booking.fromMs)} (${pickupPlace})`, `Return: ${formatIndiaDateTime(booking.toMs)}`, '', `Bring your driving licence. Your bookings: ${profileUrl}`, '', options.siteName].join('\n'),
        sms: `${options.siteName}: reminder, ${booking.carName} pickup ${formatIndiaDateTime(booking.fromMs)}. Bring your driving licence. ${ref}.`,
      };
    case 'cancelled':
    case 'refused': {
      const refund = options.refund ?? 0;
      const opening = kind === 'cancelled' ? 'Your booking is cancelled.' : `We are sorry: we could not confirm your booking${booking.note ? ` (${booking.note})` : ''}.`;
      return {
        subject: `${kind === 'cancelled' ? 'Cancelled' : 'Not confirmed'}: ${booking.carName} (${ref})`,
        text: [opening, '', `Car: ${booking.carName}`, `When: ${when(booking)}`, `Refund: ${formatRupees(refund)}${refund > 0 ? ` (to your original payment method within ${refundWindow(options.policy)})` : ''}`, '', options.siteName].join('\n'),
        sms: `${options.siteName}: ${ref} ${kind === 'cancelled' ? 'cancelled' : 'could not be confirmed'}. Refund ${formatRupees(refund)}.`,
      };
    }
    case 'closed': {
      const charges = booking.charges;
      const lines = charges
        ? [
            `Km driven: ${charges.kmDriven} km`,
            `Extra km: ${charges.extraKm} km × ${formatRupees(booking.quote.extraKmRate)} = ${formatRupees(charges.extraKmCharge)}`,
            `Late return: ${charges.lateHours} h = ${formatRupees(charges.lateFee)}`,
            `Fuel: ${formatRupees(charges.fuelCharge)}`,
            ...(charges.damage ?? []).map((damage) => `New damage (${damage.note}): ${formatRupees(damage.charge)}`),
            `Total charges: ${formatRupees(charges.total)}`,
            ...(charges.amountDue > 0 ? [`Still due: ${formatRupees(charges.amountDue)}`] : []),
          ]
        : [];
      const refund = booking.depositRefund ?? 0;
      return {
        subject: `Closing statement: ${booking.carName} (${ref})`,
        text: [`Thank you for driving with us. Your booking is closed.`, '', `Car: ${booking.carName}`, `When: ${when(booking)}`, `Rent: ${formatRupees(booking.quote.rent)}`, `Deposit: ${formatRupees(booking.quote.deposit)}`, ...lines, `Deposit refund: ${formatRupees(refund)}`, ...(charges ? ['', `The photos of the car at handover and return, and of each charge: ${profileUrl}`] : []), '', options.siteName].join('\n'),
        sms: `${options.siteName}: ${ref} closed. Charges ${formatRupees(charges?.total ?? 0)}, deposit refund ${formatRupees(refund)}.`,
      };
    }
  }
}

/**
 * Queues the renter's mail and SMS in `trx`, the transaction of the booking's change (decision
 * 069): the messages exist exactly when the change does. `settings` are read before it opens.
 */
export async function notifyRenter(trx: Kysely<DB>, services: RentalNotifyServices, settings: Settings, kind: RenterMessageKind, booking: Booking, extra: { refund?: number } = {}): Promise<void> {
  const profile = await trx.selectFrom('profiles').select(['email', 'phone', 'phone_verified']).where('user_id', '=', booking.userId).executeTakeFirst();
  if (!profile) return;
  const message = renterMessage(kind, booking, { siteName: settings.siteName, siteOrigin: services.config.siteOrigin, policy: rentalPolicyOf(settings), ...extra });
  if (profile.email) await queueMail(trx, services, { to: profile.email, subject: message.subject, text: message.text });
  if (profile.phone && profile.phone_verified) await queueSms(trx, services, profile.phone, message.sms);
}

/** Queues the admin's mail about a new booking, in the booking's transaction, when Email Notifications are on. */
export async function notifyAdminOfBooking(trx: Kysely<DB>, services: RentalNotifyServices, settings: Settings, booking: Booking): Promise<void> {
  if (!settings.emailNotifications || !settings.adminEmail) return;
  const deskUrl = new URL(adminPaths.dashboard, services.config.siteOrigin).href;
  const text = [
    `A new self-drive booking is waiting for confirmation.`,
    '',
    `Booking: #${booking.id}`,
    `Car: ${booking.carName}`,
    `When: ${when(booking)}`,
    `Pickup: ${booking.pickup === 'delivery' ? `delivery to ${booking.deliveryAddress}, ${booking.pinCode}` : 'hub'}`,
    `Payment: ${booking.paymentMethod === 'razorpay' ? 'online' : 'at pickup'}`,
    ...booking.quote.lines.map((line) => `${line.label}: ${formatRupees(line.amount)}`),
    ...quoteTotals(booking.quote).map((row) => `${row.label}: ${formatRupees(row.amount)}`),
    '',
    `Open the admin panel: ${deskUrl}`,
  ].join('\n');
  await queueMail(trx, services, { to: settings.adminEmail, subject: `New booking #${booking.id}: ${booking.carName}`, text });
}
