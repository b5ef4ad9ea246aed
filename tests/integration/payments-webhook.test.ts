import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../app/features/rentals/rental-price.ts';
import type { Database } from '../../server/db/connection.ts';
import { createRazorpayGateway } from '../../server/payments/razorpay.ts';
import { getBooking } from '../../server/rentals/bookings.ts';
import { requestBooking, type RentalDeskServices } from '../../server/rentals/lifecycle.ts';
import { startOnlinePayment } from '../../server/rentals/payments.ts';
import { startReservation, type ReservationServices } from '../../server/reservations/reservations.ts';
import { findReservation } from '../../server/reservations/store.ts';
import { openServerDatabase } from '../support/database.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addFleetCar, addRenter, deskServices, movableClock } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Razorpay's one webhook (docs/decisions/106), on both databases, against a running server and
 * the Razorpay stand-in: at /api/v1/payments/razorpay/webhook each captured payment goes to the
 * owner of its order (a rental booking, a car reservation) and is settled there; the former
 * address /api/v1/rentals/razorpay/webhook answers the same; a forged signature is refused at
 * both; and one event fired many times at once settles once, by the ledger's unique key: one
 * payment row, nothing refunded, the owner paid once.
 *
 * The orders are made by the services in the test against the server's database, with a clock
 * two days ahead (the server's minute jobs never reach these holds); the webhooks go to the server.
 */

const { dialect, url: sharedUrl } = sharedServer();
const DAY = 24 * HOUR_MS;
const startMs = Date.now() + 2 * DAY;
const base = Math.ceil((startMs + 4 * DAY) / DAY) * DAY + 4.5 * HOUR_MS;
const RENT_PAISE = 212_400;
const TOKEN_PAISE = 500_000;
const AT_ONCE = 20;

describe.skipIf(!sharedUrl)(`one Razorpay webhook for every payable thing (${dialect})`, () => {
  let server: TestServer;
  let standin: RazorpayStandin;
  let database: Database;
  let services: RentalDeskServices & ReservationServices;
  const clock = movableClock(startMs);
  let offset = 0;
  let saleCars: number[] = [];

  beforeAll(async () => {
    standin = await startRazorpayStandin();
    server = await startTestServer({
      dialect,
      seed: true,
      env: {
        APP_MODE: 'demo',
        RAZORPAY_KEY_ID: STANDIN_KEY_ID,
        RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
        RAZORPAY_API_URL: standin.url,
        RAZORPAY_CHECKOUT_URL: standin.checkoutUrl,
      },
    });
    database = openServerDatabase(server);
    const desk = deskServices(
      database,
      clock,
      createRazorpayGateway({ keyId: STANDIN_KEY_ID, keySecret: STANDIN_KEY_SECRET, webhookSecret: STANDIN_WEBHOOK_SECRET, apiUrl: standin.url }),
    );
    services = {
      ...desk,
      pageCache: { clear: () => {} },
      listingTotals: { clear: () => {} },
      changeNotices: { announce: async () => {} },
    } as unknown as RentalDeskServices & ReservationServices;
    const rows = await database.db
      .selectFrom('vehicles')
      .select('id')
      .where('purpose', '=', 'sale')
      .where('status', '=', 'available')
      .orderBy('id', 'desc')
      .limit(4)
      .execute();
    saleCars = rows.map((row) => Number(row.id));
    expect(saleCars.length).toBe(4);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
    await standin?.close();
  });

  function postWebhook(path: string, body: string, signature = standin.webhookSignature(body)): Promise<Response> {
    return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature }, body });
  }

  /** An online booking of a car of its own, with its order, paid at the stand-in (Checkout's callback never arrives). */
  async function bookingPaidAtRazorpay() {
    clock.set(startMs);
    const carId = await addFleetCar(services, `Webhook Swift ${Math.random().toString(36).slice(2, 7)}`);
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
    const paid = standin.pay(orderId);
    return { booking, orderId, paymentId: paid.razorpay_payment_id, body: standin.webhookBody(orderId, paid.razorpay_payment_id) };
  }

  /** A reservation of a car for sale, with its order, paid at the stand-in. */
  async function reservationPaidAtRazorpay(carId: number, amountPaise?: number) {
    clock.set(startMs);
    const person = await addRenter(database, { licence: null });
    const checkout = await startReservation(services, { userId: person.userId, vehicleId: carId });
    const paid = standin.pay(checkout.orderId, amountPaise === undefined ? {} : { amount: amountPaise });
    return {
      reservationId: checkout.reservationId,
      orderId: checkout.orderId,
      paymentId: paid.razorpay_payment_id,
      body: standin.webhookBody(checkout.orderId, paid.razorpay_payment_id),
    };
  }

  const ledger = (paymentId: string) =>
    database.db
      .selectFrom('payment_ledger')
      .select(['owner_kind', 'owner_id', 'entry', 'status', 'amount_paise'])
      .where('payment_id', '=', paymentId)
      .orderBy('id')
      .execute();
  const refundsOf = (paymentId: string) => standin.refunds.filter((refund) => refund.payment_id === paymentId);

  it("routes a rental booking's payment and a reservation's payment, each to its owner, at the new address", async () => {
    const rental = await bookingPaidAtRazorpay();
    const reservation = await reservationPaidAtRazorpay(saleCars[0]!);

    const rentalHook = await postWebhook('/api/v1/payments/razorpay/webhook', rental.body);
    expect(rentalHook.status).toBe(200);
    expect(await rentalHook.json()).toEqual({ ok: true, handled: true });
    const reservationHook = await postWebhook('/api/v1/payments/razorpay/webhook', reservation.body);
    expect(reservationHook.status).toBe(200);
    expect(await reservationHook.json()).toEqual({ ok: true, handled: true });

    expect(await getBooking(database, rental.booking.id)).toMatchObject({ status: 'requested', amountPaid: 2124, holdExpiresAt: null });
    expect(await findReservation(database, reservation.reservationId)).toMatchObject({ status: 'active', amount: 5000 });
    expect(await ledger(rental.paymentId)).toEqual([
      { owner_kind: 'rental-booking', owner_id: rental.booking.id, entry: 'payment', status: 'accepted', amount_paise: expect.anything() },
    ]);
    expect(Number((await ledger(rental.paymentId))[0]!.amount_paise)).toBe(RENT_PAISE);
    expect(await ledger(reservation.paymentId)).toEqual([
      { owner_kind: 'reservation', owner_id: reservation.reservationId, entry: 'payment', status: 'accepted', amount_paise: expect.anything() },
    ]);
    expect(Number((await ledger(reservation.paymentId))[0]!.amount_paise)).toBe(TOKEN_PAISE);
    const stored = await database.db.selectFrom('rental_bookings').select('amount_paid_paise').where('id', '=', rental.booking.id).executeTakeFirstOrThrow();
    expect(Number(stored.amount_paid_paise)).toBe(RENT_PAISE);

    // An order no owner made (another site's on the same account) is acknowledged and left alone.
    const stranger = standin.webhookBody('order_NotOurs12345', 'pay_NotOurs12345');
    expect(await (await postWebhook('/api/v1/payments/razorpay/webhook', stranger)).json()).toEqual({ ok: true, handled: false });
  });

  it('the former address /api/v1/rentals/razorpay/webhook still settles both kinds, and refuses what the new one refuses', async () => {
    const rental = await bookingPaidAtRazorpay();
    const reservation = await reservationPaidAtRazorpay(saleCars[1]!);
    for (const path of ['/api/v1/payments/razorpay/webhook', '/api/v1/rentals/razorpay/webhook']) {
      const forged = await postWebhook(path, rental.body, standin.webhookSignature(rental.body, 'not-the-secret-123'));
      expect(forged.status).toBe(403);
      expect(forged.headers.get('content-type')).toContain('application/problem+json');
      expect((await postWebhook(path, '{not json')).status).toBe(400);
    }
    expect(await getBooking(database, rental.booking.id)).toMatchObject({ amountPaid: 0 });

    expect(await (await postWebhook('/api/v1/rentals/razorpay/webhook', rental.body)).json()).toEqual({ ok: true, handled: true });
    expect(await (await postWebhook('/api/v1/rentals/razorpay/webhook', reservation.body)).json()).toEqual({ ok: true, handled: true });
    expect(await getBooking(database, rental.booking.id)).toMatchObject({ status: 'requested', amountPaid: 2124 });
    expect(await findReservation(database, reservation.reservationId)).toMatchObject({ status: 'active' });
  });

  it(`one event fired ${AT_ONCE} times at once, at both addresses, settles once: one payment row, nothing refunded`, async () => {
    const rental = await bookingPaidAtRazorpay();
    const reservation = await reservationPaidAtRazorpay(saleCars[2]!);
    const outboxBefore = await database.db
      .selectFrom('outbox_messages')
      .select('id')
      .where('body', 'like', `%Reservation: #${reservation.reservationId}%`)
      .execute();
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, index) => {
        const path = index % 4 < 2 ? '/api/v1/payments/razorpay/webhook' : '/api/v1/rentals/razorpay/webhook';
        return postWebhook(path, index % 2 ? rental.body : reservation.body);
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: AT_ONCE }, () => 200));

    expect(await ledger(rental.paymentId)).toMatchObject([{ owner_kind: 'rental-booking', entry: 'payment', status: 'accepted' }]);
    expect(await ledger(reservation.paymentId)).toMatchObject([{ owner_kind: 'reservation', entry: 'payment', status: 'accepted' }]);
    expect(refundsOf(rental.paymentId)).toEqual([]);
    expect(refundsOf(reservation.paymentId)).toEqual([]);
    expect(await getBooking(database, rental.booking.id)).toMatchObject({ status: 'requested', amountPaid: 2124, amountRefunded: 0, paymentProblem: null });
    expect(await findReservation(database, reservation.reservationId)).toMatchObject({ status: 'active', amountRefunded: 0, paymentProblem: null });
    // The buyer and the desk heard of the reservation once.
    const outboxAfter = await database.db
      .selectFrom('outbox_messages')
      .select('id')
      .where('body', 'like', `%Reservation: #${reservation.reservationId}%`)
      .execute();
    expect(outboxAfter.length - outboxBefore.length).toBeGreaterThanOrEqual(1);
    const again = await Promise.all(Array.from({ length: 4 }, () => postWebhook('/api/v1/payments/razorpay/webhook', reservation.body)));
    expect(again.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const outboxLater = await database.db
      .selectFrom('outbox_messages')
      .select('id')
      .where('body', 'like', `%Reservation: #${reservation.reservationId}%`)
      .execute();
    expect(outboxLater.length).toBe(outboxAfter.length);
  });

  it(`a payment that is not what is owed, fired ${AT_ONCE} times at once, is refunded once`, async () => {
    // Paid 100 paise short of the token.
    const reservation = await reservationPaidAtRazorpay(saleCars[3]!, TOKEN_PAISE - 100);
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => postWebhook('/api/v1/payments/razorpay/webhook', reservation.body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: AT_ONCE }, () => 200));
    expect(await ledger(reservation.paymentId)).toMatchObject([
      { entry: 'payment', status: 'not accepted' },
      { entry: 'refund', status: 'refunded' },
    ]);
    expect(refundsOf(reservation.paymentId).map((refund) => refund.amount)).toEqual([TOKEN_PAISE - 100]);
    expect(await findReservation(database, reservation.reservationId)).toMatchObject({ status: 'pending' });
  });
});
