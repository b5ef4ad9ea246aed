import { formatRupees } from './format.ts';

/**
 * Reserving a car for sale with a refundable token (docs/decisions/080): what the pages, the API
 * and the server say alike.
 */

export const RESERVATION_STATUSES = ['pending', 'active', 'lapsed', 'cancelled', 'expired', 'converted'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** How long a started reservation waits for its Checkout payment before the car is free again. */
export const RESERVATION_PAY_WINDOW_MS = 15 * 60 * 1000;

export const RESERVATION_STATUS_LABELS: Record<ReservationStatus, string> = {
  pending: 'Waiting for payment',
  active: 'Reserved',
  lapsed: 'Not paid',
  cancelled: 'Cancelled',
  expired: 'Hold ended',
  converted: 'Bought',
};

/** "Reserve for ₹5,000, fully refundable": the button's words. */
export function reserveLabel(amountRupees: number): string {
  return `Reserve for ${formatRupees(amountRupees)}, fully refundable`;
}

/** "2 days 5 hours left", "40 minutes left", "ended". */
export function timeLeft(untilMs: number, nowMs: number): string {
  const minutes = Math.floor((untilMs - nowMs) / 60_000);
  if (minutes <= 0) return 'ended';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? '' : 's'} left`;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return `${days} day${days === 1 ? '' : 's'}${rest ? ` ${rest} hour${rest === 1 ? '' : 's'}` : ''} left`;
}

export const reservationMessages = {
  signInFirst: 'Please sign in to reserve this car.',
  verifyPhoneFirst: 'Please verify your phone number to reserve a car. We send the confirmation and any refund notice to it.',
  notForSale: 'This car cannot be reserved: it is not for sale or no longer available.',
  taken: 'Someone else has reserved this car or is paying for it right now. Please try again later or call us.',
  notYours: 'This reservation was not found.',
  notCancellable: 'This reservation is no longer active, so there is nothing to cancel.',
  noOnlinePayment: 'Online payment is not available just now; please call us to reserve this car.',
  tooMany: 'Too many reservation attempts; please try again later.',
  paymentNotAccepted: 'This payment is not the reservation amount, so it was not accepted; it is being refunded in full.',
  takenAfterPayment: 'Someone else reserved this car first; your payment is being refunded in full.',
  failed: 'The reservation could not be made just now. Please try again.',
} as const;
