import { formatRupees } from '../../lib/format.ts';
import { reservationText as t } from './reservation-texts.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';

/**
 * Reserving a car for sale with a refundable token (docs/decisions/080): what the pages, the API
 * and the server say alike.
 */

export const RESERVATION_STATUSES = ['pending', 'active', 'lapsed', 'cancelled', 'expired', 'converted'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** How long a started reservation waits for its Checkout payment before the car is free again. */
export const RESERVATION_PAY_WINDOW_MS = 15 * 60 * 1000;

/** Each label is read when it is shown, in the language of that moment (decision 087). */
/** A reservation as the pages, the API and the desk see it; money in whole rupees. */
export type Reservation = {
  id: number;
  vehicleId: number | null;
  vehicleTitle: string;
  status: ReservationStatus;
  amount: number;
  holdHours: number;
  /** The Checkout order, while it waits for payment. */
  paymentOrderId: string | null;
  payBy: string;
  heldUntil: string | null;
  amountRefunded: number;
  /** Refunds written down but not yet confirmed by the provider. */
  refundOwed: number;
  paymentProblem: string | null;
  salePrice: number | null;
  createdAt: string;
  paidAt: string | null;
  endedAt: string | null;
};

/** The desk also sees who reserved. */
export type DeskReservation = Reservation & { name: string; phone: string; email: string; userId: string };

/** What the profile and the desk both show of a reservation. */
export type ReservationSummary = Pick<Reservation, 'id' | 'vehicleId' | 'vehicleTitle' | 'status' | 'amount' | 'heldUntil' | 'amountRefunded' | 'refundOwed'>;

export const RESERVATION_STATUS_LABELS: Readonly<Record<ReservationStatus, string>> = liveTexts(t, {
  pending: 'statusPending',
  active: 'statusActive',
  lapsed: 'statusLapsed',
  cancelled: 'statusCancelled',
  expired: 'statusExpired',
  converted: 'statusConverted',
});

/** "Reserve for ₹5,000, fully refundable": the button's words. */
export function reserveLabel(amountRupees: number): string {
  return t('reserveFor', { amount: formatRupees(amountRupees) });
}

/** "2 days 5 hours left", "40 minutes left", "ended". */
export function timeLeft(untilMs: number, nowMs: number): string {
  const minutes = Math.floor((untilMs - nowMs) / 60_000);
  if (minutes <= 0) return t('ended');
  if (minutes < 60) return t('timeLeft', { time: t('minutes', { count: minutes }) });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('timeLeft', { time: t('hours', { count: hours }) });
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return t('timeLeft', { time: `${t('days', { count: days })}${rest ? ` ${t('hours', { count: rest })}` : ''}` });
}

/** What reserving says to a person; each sentence is read when it is said, in the language of that moment. */
export const reservationMessages = liveTexts(t, [
  'signInFirst',
  'verifyPhoneFirst',
  'notForSale',
  'taken',
  'notYours',
  'notCancellable',
  'noOnlinePayment',
  'tooMany',
  'paymentNotAccepted',
  'takenAfterPayment',
  'failed',
]);
