import { ConflictError, ForbiddenError, InvalidInputError } from '../errors.ts';
import { PaymentError } from '../payments/gateway.ts';
import { getBooking, getOwnBooking } from './bookings.ts';
import type { RentalDeskServices } from './lifecycle.ts';
import type { Booking } from './store.ts';

/**
 * Paying a booking online (docs/decisions/021): an order is created with the adapter, the
 * browser's Checkout pays it, and the booking is marked paid only on proof from Razorpay —
 * the Checkout callback's HMAC signature, or the signed webhook — never on the browser's word.
 * A payment that arrives for a booking whose hold already lapsed (or was cancelled) is refunded.
 */

/** What the browser needs to open Checkout (the public key id, never the secret). */
export type CheckoutStart = { provider: 'razorpay'; keyId: string; orderId: string; amount: number; currency: 'INR'; bookingId: number };

/**
 * Creates (or reuses) the payment order of the person's unpaid online booking.
 * Input: user id, booking id. Errors: NotFoundError (not theirs), ConflictError (not waiting
 * for payment), InvalidInputError (online payment not configured), PaymentError (provider refused).
 */
export async function startOnlinePayment(services: RentalDeskServices, input: { userId: string; bookingId: number }): Promise<CheckoutStart> {
  const payments = services.payments;
  if (!payments) throw new InvalidInputError('Online payment is not available; please choose pay at pickup.');
  const booking = await getOwnBooking(services.database, input.userId, input.bookingId);
  if (booking.paymentMethod !== 'razorpay' || booking.status !== 'requested' || booking.amountPaid > 0) throw new ConflictError('This booking is not waiting for an online payment.');
  const amountPaise = booking.quote.total * 100;
  if (booking.paymentOrderId) return { provider: 'razorpay', keyId: payments.keyId, orderId: booking.paymentOrderId, amount: amountPaise, currency: 'INR', bookingId: booking.id };
  const order = await payments.createOrder({ amountPaise, receipt: `booking-${booking.id}`, notes: { booking: String(booking.id) } });
  if (order.amountPaise !== amountPaise) throw new PaymentError('The payment order came back with another amount.', 'amount_mismatch', undefined);
  // Only the first order is kept: two taps at once create two orders, one of which is never paid.
  await services.database.db.updateTable('rental_bookings').set({ payment_order_id: order.orderId }).where('id', '=', booking.id).where('payment_order_id', 'is', null).execute();
  const kept = await getBooking(services.database, booking.id);
  return { provider: 'razorpay', keyId: payments.keyId, orderId: kept?.paymentOrderId ?? order.orderId, amount: amountPaise, currency: 'INR', bookingId: booking.id };
}

/**
 * Records a verified payment of an order: the booking is paid and its hold no longer lapses.
 * Idempotent (the callback and the webhook both arrive). A payment for a booking that no longer
 * waits for it (lapsed, cancelled) is refunded in full. Returns the booking, or null when no
 * booking has this order.
 */
export async function recordPayment(services: RentalDeskServices, input: { orderId: string; paymentId: string; amountPaise: number | null }): Promise<Booking | null> {
  const row = await services.database.db.selectFrom('rental_bookings').select(['id', 'status', 'payment_id']).where('payment_order_id', '=', input.orderId).where('kind', '=', 'booking').executeTakeFirst();
  if (!row) return null;
  const booking = (await getBooking(services.database, Number(row.id)))!;
  if (row.payment_id) return booking;
  const amount = input.amountPaise === null ? booking.quote.total : Math.floor(input.amountPaise / 100);
  const now = new Date(services.clock.now()).toISOString();
  const claimed = await services.database.db
    .updateTable('rental_bookings')
    .set({ payment_id: input.paymentId, amount_paid: amount, hold_expires_ms: null, updated_at: now })
    .where('id', '=', booking.id)
    .where('payment_id', 'is', null)
    .where('status', '=', 'requested')
    .where((eb) => eb.or([eb('hold_expires_ms', 'is', null), eb('hold_expires_ms', '>', services.clock.now())]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) > 0) return (await getBooking(services.database, booking.id))!;
  // Too late: the hold lapsed or the booking was cancelled before the money arrived.
  const late = await services.database.db
    .updateTable('rental_bookings')
    .set({ payment_id: input.paymentId, amount_paid: amount, amount_refunded: amount, status: booking.status === 'requested' ? 'expired' : booking.status, hold_expires_ms: null, updated_at: now })
    .where('id', '=', booking.id)
    .where('payment_id', 'is', null)
    .executeTakeFirst();
  if (Number(late.numUpdatedRows) > 0 && services.payments) {
    await services.payments.refund({ paymentId: input.paymentId, amountPaise: amount * 100, notes: { booking: String(booking.id), reason: 'hold lapsed' } });
    services.logger.info({ booking: booking.id }, 'rentals: a payment after the hold lapsed was refunded');
  }
  return (await getBooking(services.database, booking.id))!;
}

/**
 * Checkout's callback: `razorpay_signature` must be HMAC-SHA256(order_id|payment_id) with our
 * key secret, and the order must be this person's booking's.
 * Input: user id, booking id, order id, payment id, signature. Errors: NotFoundError,
 * ForbiddenError (bad signature or another order), InvalidInputError (missing values),
 * ConflictError (the hold lapsed first: the payment is refunded).
 */
export async function confirmCheckoutPayment(services: RentalDeskServices, input: { userId: string; bookingId: number; orderId: string; paymentId: string; signature: string }): Promise<Booking> {
  // Own booking first: another person's booking is "not found" whatever else is wrong with the request.
  const booking = await getOwnBooking(services.database, input.userId, input.bookingId);
  if (!services.payments) throw new InvalidInputError('Online payment is not available.');
  if (!input.orderId || !input.paymentId || !input.signature) throw new InvalidInputError('razorpay_order_id, razorpay_payment_id and razorpay_signature are required.');
  if (!booking.paymentOrderId || booking.paymentOrderId !== input.orderId) throw new ForbiddenError('This payment is not for this booking.');
  if (!services.payments.verifyPaymentSignature({ orderId: input.orderId, paymentId: input.paymentId, signature: input.signature })) throw new ForbiddenError('The payment could not be verified.');
  const paid = (await recordPayment(services, { orderId: input.orderId, paymentId: input.paymentId, amountPaise: null }))!;
  if (paid.status !== 'requested' && paid.status !== 'confirmed') throw new ConflictError('The booking lapsed before the payment arrived; the payment is being refunded.');
  return paid;
}

/**
 * Razorpay's webhook: the raw body's signature is checked with the webhook secret; a
 * `payment.captured` or `order.paid` event marks its order's booking paid. Other events are
 * acknowledged and ignored. Input: raw body, X-Razorpay-Signature. Errors: ForbiddenError
 * (bad signature), InvalidInputError (not a JSON event).
 */
export async function handlePaymentWebhook(services: RentalDeskServices, rawBody: string, signature: string): Promise<{ handled: boolean }> {
  if (!services.payments || !services.payments.verifyWebhookSignature(rawBody, signature)) throw new ForbiddenError('The webhook signature is not valid.');
  let event: { event?: unknown; payload?: { payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown; status?: unknown } } } };
  try {
    event = JSON.parse(rawBody) as typeof event;
  } catch {
    throw new InvalidInputError('The webhook body is not JSON.');
  }
  if (event.event !== 'payment.captured' && event.event !== 'order.paid') return { handled: false };
  const payment = event.payload?.payment?.entity;
  if (!payment || typeof payment.id !== 'string' || typeof payment.order_id !== 'string') return { handled: false };
  const booking = await recordPayment(services, { orderId: payment.order_id, paymentId: payment.id, amountPaise: typeof payment.amount === 'number' ? payment.amount : null });
  return { handled: booking !== null };
}
