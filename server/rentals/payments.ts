import { ConflictError, InvalidInputError } from '../errors.ts';
import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import { confirmCheckout } from '../payments/checkout.ts';
import { PaymentError } from '../payments/gateway.ts';
import { recordCharge, settleOnce, settlementOf, type ProvenPayment } from '../payments/ledger.ts';
import { getBooking, getOwnBooking } from './bookings.ts';
import type { RentalDeskServices } from './lifecycle.ts';
import { recordRefund, sendRefund } from './refunds.ts';
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
 * What every payable thing shares (the order's charge, the proof, settling once, refunds) is
 * the payments' (server/payments, decision 106); what a booking owes and accepts is here.
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
  if (booking.paymentOrderId)
    return { provider: 'razorpay', keyId: payments.keyId, orderId: booking.paymentOrderId, amount: amountPaise, currency: 'INR', bookingId: booking.id };
  const order = await payments.createOrder({ amountPaise, receipt: `booking-${booking.id}`, notes: { booking: String(booking.id) } });
  if (order.amountPaise !== amountPaise) throw new PaymentError(t('orderOtherAmount'), 'amount_mismatch', undefined);
  // Only the first order is kept: two taps at once create two orders, one of which is never paid.
  // The kept one is the booking's charge in the ledger, by which the webhook finds the booking.
  const nowIso = new Date(services.clock.now()).toISOString();
  await services.database.db.transaction().execute(async (trx) => {
    const kept = await trx
      .updateTable('rental_bookings')
      .set({ payment_order_id: order.orderId })
      .where('id', '=', booking.id)
      .where('payment_order_id', 'is', null)
      .executeTakeFirst();
    if (Number(kept.numUpdatedRows) > 0) await recordCharge(trx, { kind: 'rental-booking', id: booking.id }, { orderId: order.orderId, amountPaise }, nowIso);
  });
  const kept = await getBooking(services.database, booking.id);
  return {
    provider: 'razorpay',
    keyId: payments.keyId,
    orderId: kept?.paymentOrderId ?? order.orderId,
    amount: amountPaise,
    currency: 'INR',
    bookingId: booking.id,
  };
}

/** What became of a verified payment: accepted now, a repeat of one already recorded, refunded because it came too late, or not accepted (and refunded). */
export type PaymentOutcome = 'paid' | 'repeat' | 'late' | 'not-accepted';

/** Why a payment cannot pay this booking, in the desk's words; null when it pays exactly what is owed. */
function paymentProblem(
  booking: Booking,
  acceptedPaymentId: string | null,
  payment: { paymentId: string; amountPaise: number; currency: string },
): string | null {
  const owedPaise = rupeesToPaise(booking.quote.payableNow);
  const received = `Payment ${payment.paymentId} of ${formatPaise(payment.amountPaise, payment.currency)}`;
  if (acceptedPaymentId) return `${received} came after the booking was already paid (${acceptedPaymentId}); not accepted, it is refunded.`;
  if (payment.currency !== 'INR') return `${received} is not in rupees; the booking owes ${formatPaise(owedPaise)}. Not accepted, it is refunded.`;
  if (payment.amountPaise !== owedPaise) return `${received} does not match the ${formatPaise(owedPaise)} the booking owes; not accepted, it is refunded.`;
  return null;
}

/** A settlement the ledger refused: the payment was settled before, by another call (its transaction is rolled back). */
class SettledBefore extends Error {}

/**
 * Records a verified payment of an order, with the amount and currency the provider says were
 * paid. It pays the booking only when it is exactly what the booking owes, in rupees, for the
 * booking's own order: then the booking is paid and its hold no longer lapses. Anything else
 * (short, more, another currency, a second payment) is noted on the booking for the desk and
 * refunded; the booking stays unpaid and its hold still lapses. A payment for a booking that no
 * longer waits for it (lapsed, cancelled) is refunded in full. Each settlement is written to the
 * payments ledger in the same transaction, whose unique key on the payment settles it once: a
 * repeat (the callback and the webhook both arrive; Razorpay retries) changes nothing.
 * Returns the booking and what became of the payment, or null when no booking has this order.
 */
export async function recordPayment(services: RentalDeskServices, input: ProvenPayment): Promise<{ booking: Booking; outcome: PaymentOutcome } | null> {
  const db = services.database.db;
  const row = await db
    .selectFrom('rental_bookings')
    .select(['id', 'payment_id'])
    .where('payment_order_id', '=', input.orderId)
    .where('kind', '=', 'booking')
    .executeTakeFirst();
  if (!row) return null;
  const booking = (await getBooking(services.database, Number(row.id)))!;
  const owner = { kind: 'rental-booking', id: booking.id } as const;
  const current = async () => (await getBooking(services.database, booking.id))!;
  // Read again after the check: the settlement seen may have committed after the booking was read.
  if ((await settlementOf(db, input.paymentId)) !== null) return { booking: await current(), outcome: 'repeat' };
  const now = new Date(services.clock.now()).toISOString();
  const problem = paymentProblem(booking, row.payment_id, input);
  try {
    if (problem) {
      const refund = await db.transaction().execute(async (trx) => {
        if (!(await settleOnce(trx, owner, input, 'not accepted', now))) throw new SettledBefore();
        await trx.updateTable('rental_bookings').set({ payment_problem: problem, updated_at: now }).where('id', '=', booking.id).execute();
        return recordRefund(trx, services, {
          bookingId: booking.id,
          paymentId: input.paymentId,
          amountPaise: input.amountPaise,
          currency: input.currency,
          reason: 'not accepted',
          ofPaid: false,
        });
      });
      services.logger.warn(
        { booking: booking.id, payment: input.paymentId, amountPaise: input.amountPaise, currency: input.currency },
        'rentals: a payment did not match its booking; not accepted, refunded',
      );
      await sendRefund(services, refund);
      return { booking: await current(), outcome: 'not-accepted' };
    }
    const amountPaise = rupeesToPaise(booking.quote.payableNow);
    const pay = bulkMove(BOOKING_TRANSITIONS, 'pay', 'gateway');
    const paid = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('rental_bookings')
        .set({ payment_id: input.paymentId, amount_paid_paise: amountPaise, hold_expires_ms: null, updated_at: now })
        .where('id', '=', booking.id)
        .where('payment_id', 'is', null)
        .where('status', 'in', pay.from)
        .where((eb) => eb.or([eb('hold_expires_ms', 'is', null), eb('hold_expires_ms', '>', services.clock.now())]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return false;
      if (!(await settleOnce(trx, owner, input, 'accepted', now))) throw new SettledBefore();
      return true;
    });
    if (paid) return { booking: await current(), outcome: 'paid' };
    // Too late: the hold lapsed or the booking was cancelled before the money arrived. Refunded
    // in full, owed in the same transaction, so a crash after it cannot lose the refund.
    const late = await db.transaction().execute(async (trx) => {
      const noted = await trx
        .updateTable('rental_bookings')
        .set({
          payment_id: input.paymentId,
          amount_paid_paise: amountPaise,
          status: transition(BOOKING_TRANSITIONS, booking.status, 'lapse', 'gateway') ?? booking.status,
          hold_expires_ms: null,
          updated_at: now,
        })
        .where('id', '=', booking.id)
        .where('payment_id', 'is', null)
        .executeTakeFirst();
      if (Number(noted.numUpdatedRows) === 0) return null;
      if (!(await settleOnce(trx, owner, input, 'late', now))) throw new SettledBefore();
      return recordRefund(trx, services, { bookingId: booking.id, paymentId: input.paymentId, amountPaise, reason: 'hold lapsed', ofPaid: true });
    });
    if (late) {
      const outcome = await sendRefund(services, late);
      services.logger.info({ booking: booking.id, refund: outcome }, 'rentals: a payment after the hold lapsed is refunded');
      return { booking: await current(), outcome: 'late' };
    }
  } catch (error) {
    if (!(error instanceof SettledBefore)) throw error;
    return { booking: await current(), outcome: 'repeat' };
  }
  // Another call recorded a payment meanwhile: this one again, or another (then it is a second payment).
  const latest = await db.selectFrom('rental_bookings').select('payment_id').where('id', '=', booking.id).executeTakeFirst();
  if (latest?.payment_id !== input.paymentId) return recordPayment(services, input);
  const after = await current();
  return { booking: after, outcome: after.status === 'requested' || after.status === 'confirmed' ? 'repeat' : 'late' };
}

/**
 * Checkout's callback for the person's own booking, verified and settled by the payments' one
 * Checkout confirmation (server/payments/checkout.ts), then recorded by recordPayment.
 * Input: user id, booking id, order id, payment id, signature. Errors: NotFoundError,
 * ForbiddenError (bad signature or another order), InvalidInputError (missing values),
 * ConflictError (the hold lapsed first, or the payment is not what the booking owes: it is
 * refunded; or Razorpay has not captured it yet), UpstreamError (Razorpay could not be asked).
 */
export async function confirmCheckoutPayment(
  services: RentalDeskServices,
  input: { userId: string; bookingId: number; orderId: string; paymentId: string; signature: string },
): Promise<Booking> {
  // Own booking first: another person's booking is "not found" whatever else is wrong with the request.
  const booking = await getOwnBooking(services.database, input.userId, input.bookingId);
  const texts = {
    notConfigured: t('onlineNotAvailable'),
    fieldsRequired: t('checkoutFieldsRequired'),
    notThisOrder: t('paymentNotForBooking'),
    notVerified: t('paymentNotVerified'),
    checkFailed: t('razorpayCheckFailed'),
    notCaptured: t('razorpayNotConfirmed'),
  };
  const recorded = await confirmCheckout(
    services,
    {
      owner: { kind: 'rental-booking', id: booking.id },
      ownOrderId: booking.paymentOrderId,
      answer: { orderId: input.orderId, paymentId: input.paymentId, signature: input.signature },
      texts,
    },
    async (payment) => (await recordPayment(services, payment))!,
  );
  if (recorded.outcome === 'not-accepted' || (await settlementOf(services.database.db, input.paymentId)) === 'not accepted')
    throw new ConflictError(t('paymentWrongAmount'));
  const paid = recorded.booking;
  if (paid.status !== 'requested' && paid.status !== 'confirmed') throw new ConflictError(t('bookingLapsed'));
  return paid;
}
