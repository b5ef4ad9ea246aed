import type { Kysely } from 'kysely';
import { formatRupees } from '../../app/lib/format.ts';
import { adminPaths, paths } from '../../app/lib/paths.ts';
import { formatIndiaDateTime } from '../../app/lib/rent-view.ts';
import type { Settings } from '../admin/settings.ts';
import type { DB } from '../db/schema.ts';
import { queueMail, queueSms, type OutgoingServices } from '../notify/outgoing.ts';
import type { DeskReservation } from './store.ts';

/**
 * The buyer's mail and SMS at reservation, refund and expiry, and the dealer's at reservation,
 * queued in the transaction of the change that causes them (decision 069).
 */

export type ReservationMessageKind = 'reserved' | 'cancelled' | 'expired' | 'taken';

function buyerText(kind: ReservationMessageKind, reservation: DeskReservation, siteOrigin: string): { subject: string; lines: string[]; sms: string } {
  const car = reservation.vehicleTitle.replace(/\s+/g, ' ').slice(0, 60);
  const amount = formatRupees(reservation.amount);
  const profile = `${new URL(paths.profile, siteOrigin).href}#reservations`;
  switch (kind) {
    case 'reserved': {
      const until = reservation.heldUntil ? formatIndiaDateTime(reservation.heldUntil) : '';
      return {
        subject: `Reserved for you: ${car}`,
        lines: [`${car} is reserved for you until ${until} (India time).`, `You paid ${amount}; it counts towards the price, and it is refunded in full if you cancel or the hold ends without a sale.`, `Book a test drive, cancel or see the time left: ${profile}`],
        sms: `${car.slice(0, 40)} is reserved for you until ${until}. ${amount} paid, fully refundable. ${profile}`,
      };
    }
    case 'cancelled':
      return {
        subject: `Reservation cancelled: ${car}`,
        lines: [`Your reservation of ${car} is cancelled.`, `The ${amount} you paid is being refunded in full to the way you paid; banks usually take 5–7 working days.`],
        sms: `Reservation of ${car.slice(0, 40)} cancelled. ${amount} is being refunded in full.`,
      };
    case 'expired':
      return {
        subject: `Your reservation has ended: ${car}`,
        lines: [`The hold on ${car} has ended without a sale, so the car is listed again.`, `The ${amount} you paid is being refunded in full; banks usually take 5–7 working days.`, `Still interested? Call us or reserve it again: ${new URL(paths.vehicle(reservation.vehicleId ?? 0), siteOrigin).href}`],
        sms: `Your hold on ${car.slice(0, 40)} has ended. ${amount} is being refunded in full.`,
      };
    case 'taken':
      return {
        subject: `Refund: ${car} was reserved by someone else first`,
        lines: [`Someone else reserved ${car} moments before your payment arrived, so we could not reserve it for you.`, `The ${amount} you paid is being refunded in full at once; banks usually take 5–7 working days.`],
        sms: `Sorry, ${car.slice(0, 40)} was reserved by someone else first. Your ${amount} is being refunded in full.`,
      };
  }
}

/** Queues the buyer's mail and SMS about the reservation in `db` (the change's transaction). */
export async function queueBuyerMessages(db: Kysely<DB>, services: OutgoingServices, kind: ReservationMessageKind, reservation: DeskReservation): Promise<void> {
  const { subject, lines, sms } = buyerText(kind, reservation, services.config.siteOrigin);
  const text = [reservation.name ? `Namaste ${reservation.name},` : 'Namaste,', '', ...lines, '', `Reservation: #${reservation.id}`, '', 'Regards,', `Team ${services.config.siteName}`].join('\n');
  if (reservation.email) await queueMail(db, services, { to: reservation.email, subject, text });
  if (reservation.phone) await queueSms(db, services, reservation.phone, `${services.config.siteName}: ${sms}`);
}

/** Queues the dealer's mail (when notifications are on) and SMS (to the seller's phone) about a new reservation. */
export async function queueDealerMessages(db: Kysely<DB>, services: OutgoingServices, settings: Settings, reservation: DeskReservation): Promise<void> {
  const deskUrl = new URL(adminPaths.dashboard, services.config.siteOrigin).href;
  const until = reservation.heldUntil ? formatIndiaDateTime(reservation.heldUntil) : '';
  if (settings.emailNotifications && settings.adminEmail) {
    const text = [
      'A buyer reserved a car online.',
      '',
      `Reservation: #${reservation.id}`,
      `Car: ${reservation.vehicleTitle}`,
      `Buyer: ${reservation.name || '-'}, ${reservation.phone}, ${reservation.email}`,
      `Token paid: ${formatRupees(reservation.amount)}`,
      `Held until: ${until} (India time)`,
      '',
      `Extend, convert to a sale or cancel: ${deskUrl}`,
    ].join('\n');
    await queueMail(db, services, { to: settings.adminEmail, subject: `Car reserved #${reservation.id}: ${reservation.vehicleTitle.replace(/\s+/g, ' ').slice(0, 60)}`, text });
  }
  await queueSms(db, services, services.config.sellerPhone, `${services.config.siteName}: ${reservation.vehicleTitle.slice(0, 40)} reserved by ${reservation.name || reservation.phone} (${reservation.phone}) until ${until}. #${reservation.id}`);
}
