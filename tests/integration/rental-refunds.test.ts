import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../app/features/rentals/rental-price.ts';
import type { Database } from '../../server/db/connection.ts';
import { ConflictError } from '../../server/errors.ts';
import { createRazorpayGateway } from '../../server/payments/razorpay.ts';
import { getBooking } from '../../server/rentals/bookings.ts';
import {
  cancelBooking,
  confirmBooking,
  expireHolds,
  handOver,
  refuseBooking,
  requestBooking,
  returnCar,
  settleDeposit,
  type RentalDeskServices,
} from '../../server/rentals/lifecycle.ts';
import { confirmCheckoutPayment, startOnlinePayment } from '../../server/rentals/payments.ts';
import { retryOwedRefunds } from '../../server/payments/refunds.ts';
import { openServerDatabase } from '../support/database.ts';
import { decodeEntities, HttpClient, mainText } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addFleetCar, addRenter, deskServices, movableClock, fullChecklist } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Refunds never strand money (docs/decisions/050) and a payment pays a booking only when it is
 * exactly what the booking owes (decision 051), on both databases. Razorpay is the local
 * stand-in, speaking its HTTP protocol to the production adapter; `failRefunds` makes its refunds
 * fail. Refuse, cancel, a payment after the hold lapsed and the deposit at settlement each leave
 * their booking changed with the refund owed, on the desk's page and dashboard; once the stand-in
 * recovers, the retry refunds each exactly once. Webhooks that pay too little, in another
 * currency, or again leave the booking unpaid (or unchanged) and in view of the desk.
 *
 * The services run in the test against the server's own database, so the desk's pages show what
 * they did. Their clock is two days ahead of the server's: the server's own minute job (expiry,
 * retries) never reaches these holds and refunds, so every retry here is the test's own.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
const DAY = 24 * HOUR_MS;
const startMs = Date.now() + 2 * DAY;
const clock = movableClock(startMs);
const base = Math.ceil((startMs + 4 * DAY) / DAY) * DAY + 4.5 * HOUR_MS;
/** Rent 1,800 + 18% GST for a day of the fixture car, in paise: what is paid online (the deposit is paid at pickup). */
const TOTAL_PAISE = 212_400;

describe.skipIf(!sharedUrl)(`refunds owed and payments checked against the booking (${dialect})`, () => {
  let server: TestServer;
  let standin: RazorpayStandin;
  let database: Database;
  let services: RentalDeskServices;
  let admin: HttpClient;
  let offset = 0;

  beforeAll(async () => {
    standin = await startRazorpayStandin();
    server = await startTestServer({
      dialect,
      seed: true,
      env: {
        APP_MODE: 'demo',
        DEMO_ADMIN_PASSWORD: PASSWORD,
        ADMIN_EMAILS: ADMIN,
        RAZORPAY_KEY_ID: STANDIN_KEY_ID,
        RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
        RAZORPAY_API_URL: standin.url,
        RAZORPAY_CHECKOUT_URL: standin.checkoutUrl,
      },
    });
    database = openServerDatabase(server);
    services = deskServices(
      database,
      clock,
      createRazorpayGateway({ keyId: STANDIN_KEY_ID, keySecret: STANDIN_KEY_SECRET, webhookSecret: STANDIN_WEBHOOK_SECRET, apiUrl: standin.url }),
    );
    admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
  }, 240_000);

  afterAll(async () => {
    standin?.failRefunds(false);
    await database?.close();
    await server?.stop();
    await standin?.close();
  });

  /** An online booking of a car of its own, a day long, with its Razorpay order. */
  async function onlineBooking() {
    clock.set(startMs);
    const carId = await addFleetCar(services, `Refund Swift ${Math.random().toString(36).slice(2, 7)}`);
    const renter = await addRenter(database);
    const fromMs = base + offset++ * 2 * DAY;
    const booking = await requestBooking(services, {
      userId: renter.userId,
      vehicleId: carId,
      fromMs,
      toMs: fromMs + DAY,
      pickup: 'hub',
      paymentMethod: 'razorpay',
    });
    const { orderId } = await startOnlinePayment(services, { userId: renter.userId, bookingId: booking.id });
    return { renter, booking, orderId };
  }

  /** The same, paid in full through Checkout. */
  async function paidBooking() {
    const made = await onlineBooking();
    const paid = standin.pay(made.orderId);
    await confirmCheckoutPayment(services, {
      userId: made.renter.userId,
      bookingId: made.booking.id,
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    });
    return { ...made, paymentId: paid.razorpay_payment_id };
  }

  const refundsOf = (paymentId: string) => standin.refunds.filter((refund) => refund.payment_id === paymentId).map((refund) => refund.amount);

  async function page(path: string): Promise<string> {
    const response = await admin.get(path);
    expect(response.status).toBe(200);
    return decodeEntities(mainText(await response.text()));
  }

  async function outboxSize(): Promise<number> {
    const row = await database.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async function postWebhook(body: string): Promise<Response> {
    return fetch(`${server.url}/api/v1/payments/razorpay/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': standin.webhookSignature(body) },
      body,
    });
  }

  it('refuse, cancel and a payment after the hold lapsed, with Razorpay failing refunds: each change stands, the refund is owed and on the desk, then refunded exactly once', async () => {
    standin.failRefunds(true);
    const refused = await paidBooking();
    const cancelled = await paidBooking();
    const late = await onlineBooking();

    const afterRefuse = await refuseBooking(services, { bookingId: refused.booking.id, reason: 'The car is in the workshop', actorEmail: ADMIN });
    expect(afterRefuse).toMatchObject({ status: 'refused', amountPaid: 2124, amountRefunded: 0, refundOwedPaise: TOTAL_PAISE });
    const { booking: afterCancel, refund } = await cancelBooking(services, { userId: cancelled.renter.userId, bookingId: cancelled.booking.id });
    expect(refund.refund).toBe(2124);
    expect(afterCancel).toMatchObject({ status: 'cancelled', amountPaid: 2124, amountRefunded: 0, refundOwedPaise: TOTAL_PAISE });
    clock.set(startMs + 31 * 60_000);
    const latePaid = standin.pay(late.orderId);
    await expect(
      confirmCheckoutPayment(services, {
        userId: late.renter.userId,
        bookingId: late.booking.id,
        orderId: latePaid.razorpay_order_id,
        paymentId: latePaid.razorpay_payment_id,
        signature: latePaid.razorpay_signature,
      }),
    ).rejects.toThrow('The booking lapsed before the payment arrived; the payment is being refunded.');
    expect(await getBooking(database, late.booking.id)).toMatchObject({ status: 'expired', amountPaid: 2124, amountRefunded: 0, refundOwedPaise: TOTAL_PAISE });
    expect([...refundsOf(refused.paymentId), ...refundsOf(cancelled.paymentId), ...refundsOf(latePaid.razorpay_payment_id)]).toEqual([]);

    // The desk sees each, with the amount, on its page and the dashboard.
    const desk = await page('/admin/rentals');
    expect(desk).toMatch(/Refunds owed \(\d+\)/);
    for (const booking of [refused.booking, cancelled.booking, late.booking]) expect(desk).toContain(`#${booking.id} · ${booking.carName}`);
    expect(desk.match(/Refund owed ₹2,124/g)?.length).toBeGreaterThanOrEqual(3);
    expect(Number(/Refunds owed \((\d+)\)/.exec(desk)![1])).toBeGreaterThanOrEqual(3);
    expect(await page('/admin-panel')).toMatch(/\d+\s*Refunds owed/);
    const bookingPage = await page(`/admin/rentals/bookings/${cancelled.booking.id}`);
    expect(bookingPage).toContain('Refund owed ₹2,124');
    expect(bookingPage).toContain('Refunds are temporarily unavailable');
    expect(bookingPage).toContain('Retry refund');

    // Still failing: the retry leaves them owed and waits longer before the next try.
    clock.set(startMs + 40 * 60_000);
    expect(await retryOwedRefunds(services)).toEqual({ refunded: 0, owed: 3 });
    expect(await retryOwedRefunds(services)).toEqual({ refunded: 0, owed: 0 });

    // Recovered: five retries at once (instances of the job) refund each exactly once.
    standin.failRefunds(false);
    clock.set(startMs + 60 * 60_000);
    const retries = await Promise.all(Array.from({ length: 5 }, () => retryOwedRefunds(services)));
    expect(retries.reduce((sum, retry) => sum + retry.refunded, 0)).toBe(3);
    expect(retries.reduce((sum, retry) => sum + retry.owed, 0)).toBe(0);
    expect(await retryOwedRefunds(services)).toEqual({ refunded: 0, owed: 0 });
    for (const { booking } of [refused, cancelled, late])
      expect(await getBooking(database, booking.id)).toMatchObject({ amountPaid: 2124, amountRefunded: 2124, refundOwedPaise: 0 });
    expect(refundsOf(refused.paymentId)).toEqual([TOTAL_PAISE]);
    expect(refundsOf(cancelled.paymentId)).toEqual([TOTAL_PAISE]);
    expect(refundsOf(latePaid.razorpay_payment_id)).toEqual([TOTAL_PAISE]);
    expect(await page('/admin/rentals')).not.toContain('Refunds owed (');
  });

  it('the deposit at settlement of a booking made today: paid at pickup, handed back by the desk, Razorpay not asked', async () => {
    const { booking, paymentId } = await paidBooking();
    await confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN });
    clock.set(booking.fromMs);
    const active = await handOver(services, {
      bookingId: booking.id,
      odometerOut: 1000,
      fuelOut: 8,
      checklist: await fullChecklist(),
      collected: { amountPaise: 500_000, method: 'card', reference: 'APR123' },
      actorEmail: ADMIN,
    });
    // The desk collects the deposit at pickup: paid online and at the desk, 2,124 + 5,000.
    expect(active.amountPaid).toBe(2124 + 5000);
    clock.set(booking.toMs);
    await returnCar(services, {
      bookingId: booking.id,
      odometerIn: 1000 + 240 + 50,
      fuelIn: 8,
      returnedMs: booking.toMs,
      fuelCharge: 0,
      checklist: await fullChecklist(),
      actorEmail: ADMIN,
    });
    const closed = await settleDeposit(services, { bookingId: booking.id, money: { amountPaise: null, method: 'cash', reference: '' }, actorEmail: ADMIN });
    expect(closed).toMatchObject({
      status: 'closed',
      depositRefund: 4400,
      amountRefunded: 4400,
      refundOwedPaise: 0,
      settlement: { direction: 'returned', paise: 440_000, method: 'cash' },
    });
    expect(refundsOf(paymentId)).toEqual([]);
  });

  it("the deposit at settlement of a booking paid online with its deposit (before decision 066): the booking closes with the refund owed, and the desk's Retry refund sends it once Razorpay recovers", async () => {
    // Such a booking's stored quote, as migration 018 rewrote it: the deposit inside the online payment.
    const { booking: made, orderId, renter } = await onlineBooking();
    const legacy = { ...made.quote, lines: [made.quote.lines[0]], gst: 0, gstPercent: 0, total: 1800, depositAt: 'online', payableNow: 6800, dueAtPickup: 0 };
    await database.db
      .updateTable('rental_bookings')
      .set({ quote: JSON.stringify(legacy) })
      .where('id', '=', made.id)
      .execute();
    const paid = standin.pay(orderId, { amount: 680_000 });
    await confirmCheckoutPayment(services, {
      userId: renter.userId,
      bookingId: made.id,
      orderId,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    });
    const booking = (await getBooking(database, made.id))!;
    const paymentId = paid.razorpay_payment_id;
    expect(booking.amountPaid).toBe(6800);
    await confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN });
    clock.set(booking.fromMs);
    const out = await handOver(services, { bookingId: booking.id, odometerOut: 1000, fuelOut: 8, checklist: await fullChecklist(), actorEmail: ADMIN });
    // Everything was paid online: nothing to collect at the desk.
    expect(out.handoverMoney).toEqual({ paise: 0, method: 'online', reference: null });
    clock.set(booking.toMs);
    await returnCar(services, {
      bookingId: booking.id,
      odometerIn: 1000 + 240 + 50,
      fuelIn: 8,
      returnedMs: booking.toMs,
      fuelCharge: 0,
      checklist: await fullChecklist(),
      actorEmail: ADMIN,
    });
    standin.failRefunds(true);
    const closed = await settleDeposit(services, { bookingId: booking.id, actorEmail: ADMIN });
    // 50 km over the allowance at ₹12: ₹600 kept of the ₹5,000 deposit.
    expect(closed).toMatchObject({
      status: 'closed',
      depositRefund: 4400,
      amountRefunded: 0,
      refundOwedPaise: 440_000,
      settlement: { direction: 'returned', paise: 440_000, method: 'online' },
    });

    const failed = await admin.postForm(`/admin/rentals/bookings/${booking.id}`, { intent: 'retry-refund' });
    expect(failed.status).toBe(502);
    expect(decodeEntities(await failed.text())).toContain('The refund failed again');
    expect(await getBooking(database, booking.id)).toMatchObject({ status: 'closed', amountRefunded: 0, refundOwedPaise: 440_000 });

    standin.failRefunds(false);
    const retried = await admin.postForm(`/admin/rentals/bookings/${booking.id}`, { intent: 'retry-refund' });
    expect(retried.status).toBe(302);
    expect(await getBooking(database, booking.id)).toMatchObject({ status: 'closed', amountRefunded: 4400, refundOwedPaise: 0 });
    expect((await admin.postForm(`/admin/rentals/bookings/${booking.id}`, { intent: 'retry-refund' })).status).toBe(302);
    expect(refundsOf(paymentId)).toEqual([440_000]);
    const bookingPage = await page(`/admin/rentals/bookings/${booking.id}`);
    expect(bookingPage).toContain('Refunded ₹4,400');
    expect(bookingPage).not.toContain('Retry refund');
  });

  it('a signed webhook for ₹1 of a booking that owes ₹2,124 leaves it unpaid, its hold still lapsing, shown to the desk, the ₹1 refunded; its replay changes and sends nothing', async () => {
    const { booking, orderId } = await onlineBooking();
    const short = standin.pay(orderId, { amount: 100 });
    const body = standin.webhookBody(orderId, short.razorpay_payment_id);
    const outboxBefore = await outboxSize();
    expect((await postWebhook(body)).status).toBe(200);
    const after = (await getBooking(database, booking.id))!;
    expect(after).toMatchObject({ status: 'requested', amountPaid: 0, amountRefunded: 0, refundOwedPaise: 0 });
    expect(after.holdExpiresAt).not.toBeNull();
    expect(after.paymentProblem).toContain('₹1 does not match the ₹2,124 the booking owes');
    expect(refundsOf(short.razorpay_payment_id)).toEqual([100]);

    const desk = await page('/admin/rentals');
    expect(desk).toContain(`#${booking.id} · ${booking.carName}`);
    expect(desk).toContain(`Payment problem: Payment ${short.razorpay_payment_id} of ₹1 does not match`);
    expect(await page(`/admin/rentals/bookings/${booking.id}`)).toContain('₹1 (not accepted): refunded');

    // Razorpay delivers it again: nothing changes, nothing is refunded or sent twice.
    expect((await postWebhook(body)).status).toBe(200);
    expect(await getBooking(database, booking.id)).toEqual(after);
    expect(refundsOf(short.razorpay_payment_id)).toEqual([100]);
    expect(await outboxSize()).toBe(outboxBefore);
    // The desk cannot confirm it as paid, and the hold lapses as any unpaid one.
    await expect(confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN })).rejects.toThrow('This online booking is not paid yet.');
    clock.set(startMs + 31 * 60_000);
    await expireHolds(services);
    expect(await getBooking(database, booking.id)).toMatchObject({ status: 'expired', amountPaid: 0 });
  });

  it('a payment in another currency, by webhook or through Checkout, pays nothing and is refunded in its own currency; the right payment afterwards still pays', async () => {
    const { booking, orderId, renter } = await onlineBooking();
    const dollars = standin.pay(orderId, { amount: TOTAL_PAISE, currency: 'USD' });
    expect((await postWebhook(standin.webhookBody(orderId, dollars.razorpay_payment_id))).status).toBe(200);
    const after = (await getBooking(database, booking.id))!;
    expect(after).toMatchObject({ status: 'requested', amountPaid: 0 });
    expect(after.paymentProblem).toContain('USD 2124.00 is not in rupees');
    expect(standin.refunds.filter((refund) => refund.payment_id === dollars.razorpay_payment_id)).toEqual([
      expect.objectContaining({ amount: TOTAL_PAISE, currency: 'USD' }),
    ]);
    expect(await page('/admin/rentals')).toContain(`Payment problem: Payment ${dollars.razorpay_payment_id} of USD 2124.00 is not in rupees`);

    // Checkout's callback carries no amount: what was paid is asked of Razorpay, so a short payment is caught there too.
    const short = standin.pay(orderId, { amount: 50_000 });
    const callback = {
      userId: renter.userId,
      bookingId: booking.id,
      orderId: short.razorpay_order_id,
      paymentId: short.razorpay_payment_id,
      signature: short.razorpay_signature,
    };
    await expect(confirmCheckoutPayment(services, callback)).rejects.toBeInstanceOf(ConflictError);
    await expect(confirmCheckoutPayment(services, callback)).rejects.toBeInstanceOf(ConflictError);
    expect(refundsOf(short.razorpay_payment_id)).toEqual([50_000]);
    expect(await getBooking(database, booking.id)).toMatchObject({ status: 'requested', amountPaid: 0 });

    const right = standin.pay(orderId);
    const body = standin.webhookBody(orderId, right.razorpay_payment_id);
    expect((await postWebhook(body)).status).toBe(200);
    const paid = (await getBooking(database, booking.id))!;
    expect(paid).toMatchObject({ status: 'requested', amountPaid: 2124, amountRefunded: 0, holdExpiresAt: null });
    // Replayed, by webhook and by the Checkout callback: the same booking, nothing refunded, nothing sent.
    const outboxBefore = await outboxSize();
    expect((await postWebhook(body)).status).toBe(200);
    await confirmCheckoutPayment(services, {
      userId: renter.userId,
      bookingId: booking.id,
      orderId,
      paymentId: right.razorpay_payment_id,
      signature: right.razorpay_signature,
    });
    expect(await getBooking(database, booking.id)).toEqual(paid);
    expect(refundsOf(right.razorpay_payment_id)).toEqual([]);
    expect(await outboxSize()).toBe(outboxBefore);
  });
});
