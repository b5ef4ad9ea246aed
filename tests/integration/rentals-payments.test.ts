import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../app/features/rentals/rental-price.ts';
import { ForbiddenError } from '../../server/errors.ts';
import { PaymentError } from '../../server/payments/gateway.ts';
import { createRazorpayGateway } from '../../server/payments/razorpay.ts';
import { getBooking } from '../../server/rentals/bookings.ts';
import { cancelBooking, confirmBooking, requestBooking, type RentalDeskServices } from '../../server/rentals/lifecycle.ts';
import { handlePaymentWebhook as handleWebhook } from '../../server/payments/webhook.ts';
import { confirmCheckoutPayment, recordPayment, startOnlinePayment } from '../../server/rentals/payments.ts';
import { openTestDatabase, type TestDatabase } from '../support/database.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addFleetCar, addRenter, deskServices, movableClock } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * Paying a booking online through the Razorpay adapter against a local stand-in that answers as
 * Razorpay's API does: the order, the Checkout signature check, the webhook, refunds, and the
 * provider's error answers. A booking is paid only on a verified signature.
 */

const { dialect } = sharedServer();
const DAY = 24 * HOUR_MS;
const startMs = Date.now();
const clock = movableClock(startMs);
const base = Math.ceil((startMs + 4 * DAY) / DAY) * DAY + 4.5 * HOUR_MS;

let opened: TestDatabase;
let standin: RazorpayStandin;
let services: RentalDeskServices;

beforeAll(async () => {
  opened = await openTestDatabase(dialect);
  standin = await startRazorpayStandin();
  services = deskServices(
    opened.database,
    clock,
    createRazorpayGateway({ keyId: STANDIN_KEY_ID, keySecret: STANDIN_KEY_SECRET, webhookSecret: STANDIN_WEBHOOK_SECRET, apiUrl: standin.url }),
  );
});
afterAll(async () => {
  await standin?.close();
  await opened?.cleanup();
});

/** The payments' webhook with only rental bookings as owners: this file's services are the rentals'. */
function handlePaymentWebhook(desk: RentalDeskServices, rawBody: string, signature: string) {
  return handleWebhook(desk, { rawBody, signature }, { 'rental-booking': (payment) => recordPayment(desk, payment), reservation: async () => null });
}

async function onlineBooking(offsetDays = 0) {
  const carId = await addFleetCar(services, `Pay Swift ${Math.random().toString(36).slice(2, 7)}`);
  const renter = await addRenter(opened.database);
  const fromMs = base + offsetDays * DAY;
  const booking = await requestBooking(services, {
    userId: renter.userId,
    vehicleId: carId,
    fromMs,
    toMs: fromMs + 24 * HOUR_MS,
    pickup: 'hub',
    paymentMethod: 'razorpay',
  });
  return { renter, booking };
}

describe(`Razorpay payments on ${dialect}`, () => {
  it('creates an order in paise with our keys, marks the booking paid only on a valid Checkout signature, and reuses the order', async () => {
    clock.set(startMs);
    const { renter, booking } = await onlineBooking();
    // A day's rent and 18% GST are paid online; the ₹5,000 deposit is not: it is collected at pickup (decision 066).
    expect(booking.quote).toMatchObject({ payableNow: 1800 + 324, deposit: 5000, dueAtPickup: 5000 });
    const checkout = await startOnlinePayment(services, { userId: renter.userId, bookingId: booking.id });
    expect(checkout).toMatchObject({ provider: 'razorpay', keyId: STANDIN_KEY_ID, amount: 212_400, currency: 'INR', bookingId: booking.id });
    const sent = standin.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/orders', body: { amount: 212_400, currency: 'INR', receipt: `booking-${booking.id}` } });
    expect(sent.authorization).toBe(`Basic ${Buffer.from(`${STANDIN_KEY_ID}:${STANDIN_KEY_SECRET}`).toString('base64')}`);
    expect((await startOnlinePayment(services, { userId: renter.userId, bookingId: booking.id })).orderId).toBe(checkout.orderId);

    const paid = standin.pay(checkout.orderId);
    // The browser's word with a forged signature is refused, and so is a signature of another order.
    await expect(
      confirmCheckoutPayment(services, {
        userId: renter.userId,
        bookingId: booking.id,
        orderId: paid.razorpay_order_id,
        paymentId: paid.razorpay_payment_id,
        signature: 'f'.repeat(64),
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      confirmCheckoutPayment(services, {
        userId: renter.userId,
        bookingId: booking.id,
        orderId: 'order_other',
        paymentId: paid.razorpay_payment_id,
        signature: paid.razorpay_signature,
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect((await getBooking(opened.database, booking.id))!.amountPaid).toBe(0);

    const confirmed = await confirmCheckoutPayment(services, {
      userId: renter.userId,
      bookingId: booking.id,
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    });
    expect(confirmed).toMatchObject({ status: 'requested', amountPaid: 2124, holdExpiresAt: null });
    // Paid: the hold no longer lapses after 30 minutes, and the desk can confirm it.
    clock.set(startMs + 2 * HOUR_MS);
    expect((await confirmBooking(services, { bookingId: booking.id, actorEmail: 'admin@gaadibazaar.in' })).status).toBe('confirmed');
  });

  it('accepts the signed webhook, refuses a forged one, and counts a payment once', async () => {
    clock.set(startMs);
    const { renter, booking } = await onlineBooking(3);
    const checkout = await startOnlinePayment(services, { userId: renter.userId, bookingId: booking.id });
    const paid = standin.pay(checkout.orderId);
    const body = standin.webhookBody(checkout.orderId, paid.razorpay_payment_id);
    await expect(handlePaymentWebhook(services, body, standin.webhookSignature(body, 'wrong-secret-123'))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(handlePaymentWebhook(services, `${body} `, standin.webhookSignature(body))).rejects.toBeInstanceOf(ForbiddenError);
    expect(await handlePaymentWebhook(services, body, standin.webhookSignature(body))).toEqual({ handled: true, owner: 'rental-booking' });
    expect(await handlePaymentWebhook(services, body, standin.webhookSignature(body))).toEqual({ handled: true, owner: 'rental-booking' });
    const after = (await getBooking(opened.database, booking.id))!;
    expect(after).toMatchObject({ amountPaid: 2124, holdExpiresAt: null, status: 'requested' });
    // The Checkout callback arriving after the webhook changes nothing.
    await confirmCheckoutPayment(services, {
      userId: renter.userId,
      bookingId: booking.id,
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    });
    expect((await getBooking(opened.database, booking.id))!.amountPaid).toBe(2124);
    const other = JSON.stringify({ event: 'payment.failed', payload: {} });
    expect(await handlePaymentWebhook(services, other, standin.webhookSignature(other))).toEqual({ handled: false });
  });

  it('refunds through Razorpay when a paid booking is cancelled, and a payment after the hold lapsed in full', async () => {
    clock.set(startMs);
    const { renter, booking } = await onlineBooking(6);
    const checkout = await startOnlinePayment(services, { userId: renter.userId, bookingId: booking.id });
    const paid = standin.pay(checkout.orderId);
    await confirmCheckoutPayment(services, {
      userId: renter.userId,
      bookingId: booking.id,
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    });
    const { refund } = await cancelBooking(services, { userId: renter.userId, bookingId: booking.id });
    expect(refund).toEqual({ window: 'free', rentKept: 0, refund: 2124 });
    expect(standin.refunds.at(-1)).toMatchObject({ payment_id: paid.razorpay_payment_id, amount: 212_400 });

    const late = await onlineBooking(9);
    const lateCheckout = await startOnlinePayment(services, { userId: late.renter.userId, bookingId: late.booking.id });
    clock.set(startMs + 31 * 60_000);
    const latePaid = standin.pay(lateCheckout.orderId);
    await expect(
      confirmCheckoutPayment(services, {
        userId: late.renter.userId,
        bookingId: late.booking.id,
        orderId: latePaid.razorpay_order_id,
        paymentId: latePaid.razorpay_payment_id,
        signature: latePaid.razorpay_signature,
      }),
    ).rejects.toThrow('The booking lapsed before the payment arrived; the payment is being refunded.');
    expect(standin.refunds.at(-1)).toMatchObject({ payment_id: latePaid.razorpay_payment_id, amount: 212_400 });
    expect((await getBooking(opened.database, late.booking.id))!).toMatchObject({ status: 'expired', amountRefunded: 2124 });
    clock.set(startMs);
  });

  it('20 callbacks and webhooks for one payment at once record it once; 20 at once after the hold lapsed refund it once', async () => {
    clock.set(startMs);
    const { renter, booking } = await onlineBooking(12);
    const checkout = await startOnlinePayment(services, { userId: renter.userId, bookingId: booking.id });
    const paid = standin.pay(checkout.orderId);
    const callback = {
      userId: renter.userId,
      bookingId: booking.id,
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    };
    const body = standin.webhookBody(checkout.orderId, paid.razorpay_payment_id);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        index % 2 ? confirmCheckoutPayment(services, callback) : handlePaymentWebhook(services, body, standin.webhookSignature(body)),
      ),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect((await getBooking(opened.database, booking.id))!).toMatchObject({ status: 'requested', amountPaid: 2124, amountRefunded: 0, holdExpiresAt: null });

    const late = await onlineBooking(15);
    const lateCheckout = await startOnlinePayment(services, { userId: late.renter.userId, bookingId: late.booking.id });
    clock.set(startMs + 31 * 60_000);
    const latePaid = standin.pay(lateCheckout.orderId);
    const refundsBefore = standin.refunds.length;
    const lateCallback = {
      userId: late.renter.userId,
      bookingId: late.booking.id,
      orderId: latePaid.razorpay_order_id,
      paymentId: latePaid.razorpay_payment_id,
      signature: latePaid.razorpay_signature,
    };
    const lateResults = await Promise.allSettled(Array.from({ length: 20 }, () => confirmCheckoutPayment(services, lateCallback)));
    // Each callback hears that the money goes back; Razorpay is asked for it once.
    expect(lateResults.every((result) => result.status === 'rejected')).toBe(true);
    expect(standin.refunds.slice(refundsBefore)).toEqual([expect.objectContaining({ payment_id: latePaid.razorpay_payment_id, amount: 212_400 })]);
    expect((await getBooking(opened.database, late.booking.id))!).toMatchObject({ status: 'expired', amountPaid: 2124, amountRefunded: 2124 });
    clock.set(startMs);
  });

  it("turns Razorpay's error answers into payment errors with its code and words", async () => {
    clock.set(startMs);
    const gateway = services.payments!;
    standin.setMode('bad-request');
    await expect(gateway.createOrder({ amountPaise: 212_400, receipt: 'x' })).rejects.toMatchObject({
      name: 'PaymentError',
      code: 'BAD_REQUEST_ERROR',
      status: 400,
      message: 'Razorpay refused the request: The amount must be atleast INR 1.00',
    });
    standin.setMode('server-error');
    await expect(gateway.refund({ paymentId: 'pay_x', amountPaise: 100, idempotencyKey: 'test-refund-x' })).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      status: 500,
    });
    standin.setMode('ok');
    const wrongKeys = createRazorpayGateway({ keyId: STANDIN_KEY_ID, keySecret: 'not-the-secret', webhookSecret: undefined, apiUrl: standin.url });
    const refused = await wrongKeys.createOrder({ amountPaise: 212_400, receipt: 'x' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentError);
    expect(refused).toMatchObject({ status: 401, message: 'Razorpay did not accept our keys: Authentication failed' });
    expect(wrongKeys.verifyWebhookSignature('{}', standin.webhookSignature('{}'))).toBe(false);
    const unreachable = createRazorpayGateway({ keyId: STANDIN_KEY_ID, keySecret: STANDIN_KEY_SECRET, webhookSecret: undefined, apiUrl: 'http://127.0.0.1:9' });
    await expect(unreachable.createOrder({ amountPaise: 100, receipt: 'x' })).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    // A failed refund leaves the cancellation standing and the money owed (decision 050), never an error to the renter.
    const { renter, booking } = await onlineBooking(12);
    const checkout = await startOnlinePayment(services, { userId: renter.userId, bookingId: booking.id });
    const paid = standin.pay(checkout.orderId);
    await confirmCheckoutPayment(services, {
      userId: renter.userId,
      bookingId: booking.id,
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    });
    standin.setMode('server-error');
    const { booking: cancelled } = await cancelBooking(services, { userId: renter.userId, bookingId: booking.id });
    standin.setMode('ok');
    expect(cancelled).toMatchObject({ status: 'cancelled', amountRefunded: 0, refundOwedPaise: 212_400 });
  });
});
