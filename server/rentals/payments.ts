import { ConflictError, ForbiddenError, InvalidInputError, UpstreamError } from '../errors.ts';
import { rentalDeskText as t } from '../../app/lib/i18n/rentalDesk.ts';
import { PaymentError, type ProviderPayment } from '../payments/gateway.ts';
import { getBooking, getOwnBooking } from './bookings.ts';
import type { RentalDeskServices } from './lifecycle.ts';
import { refundBooking } from './refunds.ts';
import { formatPaise, rupeesToPaise } from '../../app/lib/money.ts';
import type { Booking } from './store.ts';
import { bulkMove, transition } from '../transitions.ts';
import { BOOKING_TRANSITIONS } from './booking-transitions.ts';

/**
 * Paying a booking online (docs/decisions/021): an order is created with the adapter, the
 * browser's Checkout pays it, and the booking is marked paid only on proof from Razorpay —
 * the Checkout callback's HMAC signature, or the signed webhook — never on the browser's word —
 * and only for exactly what the booking owes (docs/decisions/051). A payment that arrives for a
 * booking whose hold already lapsed (or was cancelled), or that is not what it owes, is refunded.
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
  if (!payments) throw new InvalidInputError(t('onlineNotAvailableChoose'));
  const booking = await getOwnBooking(services.database, input.userId, input.bookingId);
  if (booking.paymentMethod !== 'razorpay' || booking.status !== 'requested' || booking.amountPaid > 0) throw new ConflictError(t('notWaitingForPayment'));
  // What is paid online: the quote's payable total; the deposit is collected at pickup (decision 066).
  const amountPaise = rupeesToPaise(booking.quote.payableNow);
  if (booking.paymentOrderId) return { provider: 'razorpay', keyId: payments.keyId, orderId: booking.paymentOrderId, amount: amountPaise, currency: 'INR', bookingId: booking.id };
  const order = await payments.createOrder({ amountPaise, receipt: `booking-${booking.id}`, notes: { booking: String(booking.id) } });
  if (order.amountPaise !== amountPaise) throw new PaymentError(t('orderOtherAmount'), 'amount_mismatch', undefined);
  // Only the first order is kept: two taps at once create two orders, one of which is never paid.
  await services.database.db.updateTable('rental_bookings').set({ payment_order_id: order.orderId }).where('id', '=', booking.id).where('payment_order_id', 'is', null).execute();
  const kept = await getBooking(services.database, booking.id);
  return { provider: 'razorpay', keyId: payments.keyId, orderId: kept?.paymentOrderId ?? order.orderId, amount: amountPaise, currency: 'INR', bookingId: booking.id };
}

/** What became of a verified payment: accepted now, a repeat of one already recorded, refunded because it came too late, or not accepted (and refunded). */
export type PaymentOutcome = 'paid' | 'repeat' | 'late' | 'not-accepted';

/** Why a payment cannot pay this booking, in the desk's words; null when it pays exactly what is owed. */
function paymentProblem(booking: Booking, acceptedPaymentId: string | null, payment: { paymentId: string; amountPaise: number; currency: string }): string | null {
  const owedPaise = rupeesToPaise(booking.quote.payableNow);
  const received = `Payment ${payment.paymentId} of ${formatPaise(payment.amountPaise, payment.currency)}`;
  if (acceptedPaymentId) return `${received} came after the booking was already paid (${acceptedPaymentId}); not accepted, it is refunded.`;
  if (payment.currency !== 'INR') return `${received} is not in rupees; the booking owes ${formatPaise(owedPaise)}. Not accepted, it is refunded.`;
  if (payment.amountPaise !== owedPaise) return `${received} does not match the ${formatPaise(owedPaise)} the booking owes; not accepted, it is refunded.`;
  return null;
}

/** Whether this payment of the booking was seen before (accepted, or recorded as not accepted). */
async function seenBefore(services: RentalDeskServices, acceptedPaymentId: string | null, paymentId: string): Promise<boolean> {
  if (acceptedPaymentId === paymentId) return true;
  const refund = await services.database.db.selectFrom('rental_refunds').select('id').where('payment_id', '=', paymentId).where('reason', '=', 'not accepted').executeTakeFirst();
  return refund !== undefined;
}

/**
 * Records a verified payment of an order, with the amount and currency the provider says were
 * paid. It pays the booking only when it is exactly what the booking owes, in rupees, for the
 * booking's own order: then the booking is paid and its hold no longer lapses. Anything else
 * (short, more, another currency, a second payment) is noted on the booking for the desk and
 * refunded; the booking stays unpaid and its hold still lapses. A payment for a booking that no
 * longer waits for it (lapsed, cancelled) is refunded in full. A repeat of a payment already
 * recorded (the callback and the webhook both arrive; Razorpay retries) changes nothing.
 * Returns the booking and what became of the payment, or null when no booking has this order.
 */
export async function recordPayment(services: RentalDeskServices, input: { orderId: string; paymentId: string; amountPaise: number; currency: string }): Promise<{ booking: Booking; outcome: PaymentOutcome } | null> {
  const db = services.database.db;
  const row = await db.selectFrom('rental_bookings').select(['id', 'payment_id']).where('payment_order_id', '=', input.orderId).where('kind', '=', 'booking').executeTakeFirst();
  if (!row) return null;
  const booking = (await getBooking(services.database, Number(row.id)))!;
  if (await seenBefore(services, row.payment_id, input.paymentId)) return { booking, outcome: 'repeat' };
  const now = new Date(services.clock.now()).toISOString();
  const problem = paymentProblem(booking, row.payment_id, input);
  if (problem) {
    await db.updateTable('rental_bookings').set({ payment_problem: problem, updated_at: now }).where('id', '=', booking.id).execute();
    services.logger.warn({ booking: booking.id, payment: input.paymentId, amountPaise: input.amountPaise, currency: input.currency }, 'rentals: a payment did not match its booking; not accepted, refunded');
    await refundBooking(services, { bookingId: booking.id, paymentId: input.paymentId, amountPaise: input.amountPaise, currency: input.currency, reason: 'not accepted', ofPaid: false });
    return { booking: (await getBooking(services.database, booking.id))!, outcome: 'not-accepted' };
  }
  const amount = booking.quote.payableNow;
  const pay = bulkMove(BOOKING_TRANSITIONS, 'pay', 'gateway');
  const claimed = await db
    .updateTable('rental_bookings')
    .set({ payment_id: input.paymentId, amount_paid: amount, hold_expires_ms: null, updated_at: now })
    .where('id', '=', booking.id)
    .where('payment_id', 'is', null)
    .where('status', 'in', pay.from)
    .where((eb) => eb.or([eb('hold_expires_ms', 'is', null), eb('hold_expires_ms', '>', services.clock.now())]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) > 0) return { booking: (await getBooking(services.database, booking.id))!, outcome: 'paid' };
  // Too late: the hold lapsed or the booking was cancelled before the money arrived.
  const late = await db
    .updateTable('rental_bookings')
    .set({ payment_id: input.paymentId, amount_paid: amount, status: transition(BOOKING_TRANSITIONS, booking.status, 'lapse', 'gateway') ?? booking.status, hold_expires_ms: null, updated_at: now })
    .where('id', '=', booking.id)
    .where('payment_id', 'is', null)
    .executeTakeFirst();
  if (Number(late.numUpdatedRows) > 0) {
    const outcome = await refundBooking(services, { bookingId: booking.id, paymentId: input.paymentId, amountPaise: rupeesToPaise(amount), reason: 'hold lapsed', ofPaid: true });
    services.logger.info({ booking: booking.id, refund: outcome }, 'rentals: a payment after the hold lapsed is refunded');
    return { booking: (await getBooking(services.database, booking.id))!, outcome: 'late' };
  }
  // Another call recorded a payment meanwhile: this one again, or another (then it is a second payment).
  const latest = await db.selectFrom('rental_bookings').select('payment_id').where('id', '=', booking.id).executeTakeFirst();
  if (latest?.payment_id !== input.paymentId) return recordPayment(services, input);
  const current = (await getBooking(services.database, booking.id))!;
  return { booking: current, outcome: current.status === 'requested' || current.status === 'confirmed' ? 'repeat' : 'late' };
}

/**
 * Checkout's callback: `razorpay_signature` must be HMAC-SHA256(order_id|payment_id) with our
 * key secret, and the order must be this person's booking's. What was paid is then asked of
 * Razorpay (GET /v1/payments/:id), never taken from the browser, and recorded by recordPayment.
 * Input: user id, booking id, order id, payment id, signature. Errors: NotFoundError,
 * ForbiddenError (bad signature or another order), InvalidInputError (missing values),
 * ConflictError (the hold lapsed first, or the payment is not what the booking owes: it is
 * refunded; or Razorpay has not captured it yet), UpstreamError (Razorpay could not be asked).
 */
export async function confirmCheckoutPayment(services: RentalDeskServices, input: { userId: string; bookingId: number; orderId: string; paymentId: string; signature: string }): Promise<Booking> {
  // Own booking first: another person's booking is "not found" whatever else is wrong with the request.
  const booking = await getOwnBooking(services.database, input.userId, input.bookingId);
  if (!services.payments) throw new InvalidInputError(t('onlineNotAvailable'));
  if (!input.orderId || !input.paymentId || !input.signature) throw new InvalidInputError(t('checkoutFieldsRequired'));
  if (!booking.paymentOrderId || booking.paymentOrderId !== input.orderId) throw new ForbiddenError(t('paymentNotForBooking'));
  if (!services.payments.verifyPaymentSignature({ orderId: input.orderId, paymentId: input.paymentId, signature: input.signature })) throw new ForbiddenError(t('paymentNotVerified'));
  let payment: ProviderPayment;
  try {
    payment = await services.payments.fetchPayment(input.paymentId);
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    services.logger.warn({ err: error, booking: booking.id }, 'payments: the payment could not be checked with Razorpay');
    throw new UpstreamError(t('razorpayCheckFailed'));
  }
  if (payment.orderId !== input.orderId) throw new ForbiddenError(t('paymentNotForBooking'));
  if (payment.status !== 'captured') {
    const row = await services.database.db.selectFrom('rental_bookings').select('payment_id').where('id', '=', booking.id).executeTakeFirst();
    if (!(await seenBefore(services, row?.payment_id ?? null, input.paymentId))) throw new ConflictError(t('razorpayNotConfirmed'));
  }
  const recorded = (await recordPayment(services, { orderId: input.orderId, paymentId: input.paymentId, amountPaise: payment.amountPaise, currency: payment.currency }))!;
  const settled = await services.database.db.selectFrom('rental_refunds').select('id').where('payment_id', '=', input.paymentId).where('reason', '=', 'not accepted').executeTakeFirst();
  if (recorded.outcome === 'not-accepted' || settled) throw new ConflictError(t('paymentWrongAmount'));
  const paid = recorded.booking;
  if (paid.status !== 'requested' && paid.status !== 'confirmed') throw new ConflictError(t('bookingLapsed'));
  return paid;
}

/**
 * Razorpay's webhook: the raw body's signature is checked with the webhook secret; a
 * `payment.captured` or `order.paid` event marks its order's booking paid. Other events are
 * acknowledged and ignored; an order that is no booking's goes to `otherOrders`. Input: raw body, X-Razorpay-Signature. Errors: ForbiddenError
 * (bad signature), InvalidInputError (not a JSON event).
 */
export async function handlePaymentWebhook(
  services: RentalDeskServices,
  rawBody: string,
  signature: string,
  /** Another kind of order (a car reservation's): records the payment and says whether the order was its own. */
  otherOrders?: (payment: { orderId: string; paymentId: string; amountPaise: number; currency: string }) => Promise<boolean>,
): Promise<{ handled: boolean }> {
  if (!services.payments || !services.payments.verifyWebhookSignature(rawBody, signature)) throw new ForbiddenError(t('webhookSignature'));
  let event: { event?: unknown; payload?: { payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown; currency?: unknown; status?: unknown } } } };
  try {
    event = JSON.parse(rawBody) as typeof event;
  } catch {
    throw new InvalidInputError(t('webhookNotJson'));
  }
  if (event.event !== 'payment.captured' && event.event !== 'order.paid') return { handled: false };
  const payment = event.payload?.payment?.entity;
  if (!payment || typeof payment.id !== 'string' || typeof payment.order_id !== 'string') return { handled: false };
  // The signed event says what was paid; without those fields, Razorpay is asked.
  const paid = typeof payment.amount === 'number' && typeof payment.currency === 'string' ? { amountPaise: payment.amount, currency: payment.currency } : await services.payments.fetchPayment(payment.id);
  const proven = { orderId: payment.order_id, paymentId: payment.id, amountPaise: paid.amountPaise, currency: paid.currency };
  const recorded = await recordPayment(services, proven);
  if (recorded === null && otherOrders) return { handled: await otherOrders(proven) };
  return { handled: recorded !== null };
}
