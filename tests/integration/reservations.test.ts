import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDocument } from '../../server/documents/documents.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { tokenReceipt, type TokenReceiptServices } from '../../server/reservations/token-receipt.ts';
import type { Database } from '../../server/db/connection.ts';
import { createRazorpayGateway } from '../../server/payments/razorpay.ts';
import { retryOwedRefunds } from '../../server/payments/refunds.ts';
import {
  cancelOwnReservation,
  cancelReservationAtDesk,
  confirmReservationPayment,
  expireDueReservations,
  extendReservation,
  recordReservationPayment,
  reservationCounts,
  startReservation,
  type ReservationServices,
} from '../../server/reservations/reservations.ts';
import { findReservation } from '../../server/reservations/store.ts';
import { saveSettings, settingsFor } from '../../server/admin/settings.ts';
import { recordSale, type SaleServices } from '../../server/sales/sales.ts';
import { openServerDatabase } from '../support/database.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addRenter, deskServices, movableClock, outboxFor } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Reserving a car for sale with a refundable token (docs/decisions/080), on SQLite and
 * PostgreSQL, against a running server with the Razorpay stand-in. The HTTP part: twenty buyers
 * at once make one reservation, the payment callback is trusted only on Razorpay's signature,
 * hostile input answers 4xx problem+json. The services part runs in the test against the
 * server's database with its own clock two days ahead (so the server's minute job never reaches
 * these holds): expiry, cancel, a payment for a car taken first, convert to a sale.
 */

const { dialect, url: sharedUrl } = sharedServer();
const HOUR = 60 * 60 * 1000;
const ADMIN = 'admin@gaadibazaar.in';
const TOKEN_PAISE = 500_000;

type Problem = { type: string; title: string; status: number; detail: string; reason?: string };
type Started = {
  reservation: { id: number; status: string; amount: number };
  payment: { orderId: string; amount: number; keyId: string; reservationId: number };
};

async function buyer(server: TestServer, label: string): Promise<HttpClient> {
  const client = new HttpClient(server.url);
  await signUp(client, uniqueEmail(label));
  await completeProfile(client, `${label} Buyer`, uniqueMobile());
  return client;
}

function postJson(client: HttpClient, path: string, body: string): Promise<Response> {
  return client.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

/** The dealer's phone (SELLER_PHONE's default), where the desk's SMS go. */
const DESK_PHONE = '+919876543210';

describe.skipIf(!sharedUrl)(`reserving a car with a refundable token (${dialect})`, () => {
  let server: TestServer;
  let standin: RazorpayStandin;
  let database: Database;
  let services: ReservationServices;
  const clock = movableClock(Date.now() + 48 * HOUR);
  let saleCars: number[] = [];

  beforeAll(async () => {
    standin = await startRazorpayStandin();
    server = await startTestServer({
      dialect,
      seed: true,
      env: {
        APP_MODE: 'demo',
        TRUST_PROXY: 'true',
        ADMIN_EMAILS: ADMIN,
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
      config: { ...desk.config, sellerPhone: DESK_PHONE },
      pageCache: { clear: () => {} },
      listingTotals: { clear: () => {} },
      changeNotices: { announce: async () => {} },
    } as unknown as ReservationServices;
    const rows = await database.db
      .selectFrom('vehicles')
      .select('id')
      .where('purpose', '=', 'sale')
      .where('status', '=', 'available')
      .orderBy('id')
      .limit(12)
      .execute();
    saleCars = rows.map((row) => Number(row.id));
    expect(saleCars.length).toBeGreaterThanOrEqual(8);
  }, 240_000);

  afterAll(async () => {
    standin?.failRefunds(false);
    await database?.close();
    await server?.stop();
    await standin?.close();
  });

  const refundsOf = (paymentId: string) => standin.refunds.filter((refund) => refund.payment_id === paymentId).map((refund) => refund.amount);
  const carStatus = async (id: number) =>
    await database.db.selectFrom('vehicles').select(['status', 'sold_price']).where('id', '=', id).executeTakeFirstOrThrow();

  /** A buyer of the services part: a verified phone, a reservation of `carId` started and paid through Checkout. */
  async function paidReservation(carId: number) {
    const person = await addRenter(database, { licence: null });
    const checkout = await startReservation(services, { userId: person.userId, vehicleId: carId });
    const paid = standin.pay(checkout.orderId);
    const reservation = await confirmReservationPayment(services, {
      userId: person.userId,
      reservationId: checkout.reservationId,
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    });
    return { person, checkout, reservation, paymentId: paid.razorpay_payment_id };
  }

  it('twenty buyers reserving one car at once: one reservation, nineteen refused before paying; the paid car shows Reserved to everyone', async () => {
    const carId = saleCars[0]!;
    const buyers: HttpClient[] = [];
    for (let batch = 0; batch < 4; batch++) buyers.push(...(await Promise.all(Array.from({ length: 5 }, (_, index) => buyer(server, `rush${batch}${index}`)))));
    const answers = await Promise.all(buyers.map((client) => postJson(client, `/api/v1/vehicles/${carId}/reservation`, '{}')));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const winnerIndex = statuses.indexOf(201);
    const winner = buyers[winnerIndex]!;
    const started = (await answers[winnerIndex]!.json()) as Started;
    expect(started.payment).toMatchObject({ amount: TOKEN_PAISE, keyId: STANDIN_KEY_ID, reservationId: started.reservation.id });
    expect(started.reservation).toMatchObject({ status: 'pending', amount: 5000 });
    for (const [index, answer] of answers.entries()) {
      if (index === winnerIndex) continue;
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(((await answer.json()) as Problem).reason).toBe('reserved');
    }
    // Only the one order was ever created: nobody else could pay.
    expect(standin.orders.filter((order) => order.receipt.startsWith('reservation-')).map((order) => order.id)).toEqual([started.payment.orderId]);

    const paid = standin.pay(started.payment.orderId);
    const confirmed = await postJson(winner, `/api/v1/me/reservations/${started.reservation.id}/payment`, JSON.stringify(paid));
    expect(confirmed.status).toBe(200);
    const { reservation } = (await confirmed.json()) as { reservation: { status: string; heldUntil: string } };
    expect(reservation.status).toBe('active');
    expect(Date.parse(reservation.heldUntil) - Date.now()).toBeGreaterThan(71 * HOUR);
    const publicView = (await (await fetch(`${server.url}/api/v1/vehicles/${carId}`)).json()) as { vehicle?: { status: string }; status?: string };
    expect(publicView.vehicle?.status ?? publicView.status).toBe('reserved');

    // The webhook for the same payment, and the callback again, change nothing and send nothing more.
    const buyerMessages = async () =>
      (await database.db.selectFrom('outbox_messages').select('id').where('body', 'like', `%Reservation: #${started.reservation.id}%`).execute()).length;
    const before = await buyerMessages();
    expect(before).toBeGreaterThanOrEqual(1);
    const body = standin.webhookBody(paid.razorpay_order_id, paid.razorpay_payment_id);
    const hook = await fetch(`${server.url}/api/v1/payments/razorpay/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': standin.webhookSignature(body) },
      body,
    });
    expect(await hook.json()).toEqual({ ok: true, handled: true });
    expect((await postJson(winner, `/api/v1/me/reservations/${started.reservation.id}/payment`, JSON.stringify(paid))).status).toBe(200);
    expect(await buyerMessages()).toBe(before);
    expect(refundsOf(paid.razorpay_payment_id)).toEqual([]);

    // Someone else still cannot reserve it; the buyer sees it in their list and cancels: one full refund, the car listed again.
    expect((await postJson(buyers[(winnerIndex + 1) % 20]!, `/api/v1/vehicles/${carId}/reservation`, '{}')).status).toBe(409);
    const mine = (await (await winner.get('/api/v1/me/reservations')).json()) as {
      items: Array<{ id: number; status: string }>;
      total: number;
      page: number;
      perPage: number;
    };
    expect(mine).toMatchObject({ total: 1, page: 1, items: [{ id: started.reservation.id, status: 'active' }] });
    const cancelled = await postJson(winner, `/api/v1/me/reservations/${started.reservation.id}/cancel`, '{}');
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ reservation: { status: 'cancelled', amountRefunded: 5000 }, refund: 5000 });
    const again = await postJson(winner, `/api/v1/me/reservations/${started.reservation.id}/cancel`, '{}');
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toContain('application/problem+json');
    expect(refundsOf(paid.razorpay_payment_id)).toEqual([TOKEN_PAISE]);
    expect((await carStatus(carId)).status).toBe('available');
  }, 240_000);

  it("the listing's cards offer Reserve on available cars only, a plain form to the car's reserve path", async () => {
    const html = await (await fetch(`${server.url}/?perPage=100`)).text();
    const offered = [...html.matchAll(/<form[^>]*action="\/vehicle\/(\d+)\/reserve"/g)].map((match) => Number(match[1]));
    expect(offered.length).toBeGreaterThan(0);
    expect(html).toContain('Reserve for ₹5,000, fully refundable');
    const statuses = await database.db.selectFrom('vehicles').select(['id', 'status']).where('id', 'in', offered).execute();
    expect(statuses.every((row) => row.status === 'available')).toBe(true);
    const reserved = await database.db.selectFrom('vehicles').select('id').where('purpose', '=', 'sale').where('status', '=', 'reserved').execute();
    for (const { id } of reserved) expect(offered).not.toContain(Number(id));
  });

  it('forged, foreign and replayed callbacks are refused; a short payment never reserves and is refunded', async () => {
    const [asha, bharat] = await Promise.all([buyer(server, 'asha'), buyer(server, 'bharat')]);
    const ashaStart = (await (await postJson(asha, `/api/v1/vehicles/${saleCars[1]}/reservation`, '{}')).json()) as Started;
    const bharatStart = (await (await postJson(bharat, `/api/v1/vehicles/${saleCars[2]}/reservation`, '{}')).json()) as Started;
    const path = `/api/v1/me/reservations/${ashaStart.reservation.id}/payment`;
    const paid = standin.pay(ashaStart.payment.orderId);

    const forged = await postJson(asha, path, JSON.stringify({ ...paid, razorpay_signature: 'a'.repeat(64) }));
    expect(forged.status).toBe(403);
    expect(forged.headers.get('content-type')).toContain('application/problem+json');
    // Bharat's own order's proof replayed onto Asha's reservation, and Asha's proof sent by Bharat.
    const bharatPaid = standin.pay(bharatStart.payment.orderId, { amount: 100 });
    expect((await postJson(asha, path, JSON.stringify(bharatPaid))).status).toBe(403);
    const foreign = await postJson(bharat, path, JSON.stringify(paid));
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain(ashaStart.payment.orderId);
    expect((await findReservation(database, ashaStart.reservation.id))?.status).toBe('pending');

    // A short payment of Bharat's own order: 409, not reserved, refunded in full once, even when replayed.
    const short = await postJson(bharat, `/api/v1/me/reservations/${bharatStart.reservation.id}/payment`, JSON.stringify(bharatPaid));
    expect(short.status).toBe(409);
    expect(((await short.json()) as Problem).reason).toBe('payment-not-accepted');
    expect((await postJson(bharat, `/api/v1/me/reservations/${bharatStart.reservation.id}/payment`, JSON.stringify(bharatPaid))).status).toBe(409);
    expect(refundsOf(bharatPaid.razorpay_payment_id)).toEqual([100]);
    expect((await findReservation(database, bharatStart.reservation.id))?.status).toBe('pending');
    expect((await carStatus(saleCars[2]!)).status).toBe('available');

    // The real proof, sent twenty times at once: each answers the one active reservation; one confirmation is sent, nothing refunded.
    const proofs = await Promise.all(Array.from({ length: 20 }, () => postJson(asha, path, JSON.stringify(paid))));
    expect(proofs.map((answer) => answer.status)).toEqual(Array<number>(20).fill(200));
    for (const answer of proofs) expect(await answer.json()).toMatchObject({ reservation: { id: ashaStart.reservation.id, status: 'active' } });
    expect(refundsOf(paid.razorpay_payment_id)).toEqual([]);
    const confirmations = await database.db
      .selectFrom('outbox_messages')
      .select('subject')
      .where('body', 'like', `%Reservation: #${ashaStart.reservation.id}%`)
      .where('channel', '=', 'email')
      .execute();
    expect(confirmations.filter((mail) => mail.subject.startsWith('Reserved for you'))).toHaveLength(1);
    expect((await carStatus(saleCars[1]!)).status).toBe('reserved');

    // Bharat pays in full and closes the page: Razorpay's signed webhook reserves the car; its retry and the late callback change nothing.
    const full = standin.pay(bharatStart.payment.orderId);
    const hookBody = standin.webhookBody(full.razorpay_order_id, full.razorpay_payment_id);
    const webhook = () =>
      fetch(`${server.url}/api/v1/payments/razorpay/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': standin.webhookSignature(hookBody) },
        body: hookBody,
      });
    expect(await (await webhook()).json()).toEqual({ ok: true, handled: true });
    expect((await findReservation(database, bharatStart.reservation.id))?.status).toBe('active');
    expect((await carStatus(saleCars[2]!)).status).toBe('reserved');
    expect((await webhook()).status).toBe(200);
    expect((await postJson(bharat, `/api/v1/me/reservations/${bharatStart.reservation.id}/payment`, JSON.stringify(full))).status).toBe(200);
    const forgedHook = await fetch(`${server.url}/api/v1/payments/razorpay/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': standin.webhookSignature(hookBody, 'not-the-secret') },
      body: hookBody,
    });
    expect(forgedHook.status).toBe(403);
    expect(refundsOf(full.razorpay_payment_id)).toEqual([]);

    // Holding a car, Asha cannot delete her account until she cancels (the token needs her).
    const deletion = await postJson(asha, '/api/v1/me/delete', JSON.stringify({ password: 'correct-horse-7' }));
    expect(deletion.status).toBe(409);
    expect(((await deletion.json()) as { reason?: string }).reason).toBe('reservation-open');
  }, 240_000);

  it('malformed, huge, NUL and foreign-session input answers 4xx problem+json, never 5xx', async () => {
    const [client] = await Promise.all([buyer(server, 'probe')]);
    const anonymous = new HttpClient(server.url);
    const unverified = new HttpClient(server.url);
    await signUp(unverified, uniqueEmail('nophone'));
    const attempts: Array<[HttpClient, string, string, string]> = [
      [anonymous, 'POST', `/api/v1/vehicles/${saleCars[3]}/reservation`, '{}'],
      [anonymous, 'GET', '/api/v1/me/reservations', ''],
      [unverified, 'POST', `/api/v1/vehicles/${saleCars[3]}/reservation`, '{}'],
      [client, 'POST', '/api/v1/vehicles/99999999999999999999/reservation', '{}'],
      [client, 'POST', '/api/v1/vehicles/0/reservation', '{}'],
      [client, 'POST', '/api/v1/vehicles/abc/reservation', '{}'],
      [client, 'POST', '/api/v1/vehicles/2147483647/reservation', '{}'],
      [client, 'POST', '/api/v1/vehicles/1%00/reservation', '{}'],
      [client, 'POST', '/api/v1/me/reservations/1/payment', '{not json'],
      [client, 'POST', '/api/v1/me/reservations/1/payment', '[]'],
      [
        client,
        'POST',
        '/api/v1/me/reservations/1/payment',
        JSON.stringify({ razorpay_order_id: 'x\u0000y', razorpay_payment_id: 'p', razorpay_signature: 's' }),
      ],
      [
        client,
        'POST',
        '/api/v1/me/reservations/1/payment',
        JSON.stringify({ razorpay_order_id: 'o'.repeat(200_000), razorpay_payment_id: 1, razorpay_signature: null }),
      ],
      [client, 'POST', '/api/v1/me/reservations/99999999999/cancel', '{}'],
      [client, 'POST', '/api/v1/me/reservations/-1/cancel', '{}'],
      [client, 'GET', '/api/v1/me/reservations?page=abc', ''],
      [client, 'GET', '/api/v1/me/reservations?page=1e9', ''],
      [client, 'GET', '/api/v1/me/reservations?page=%00', ''],
    ];
    for (const [who, method, path, body] of attempts) {
      const answer = await who.request(path, { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body } : {}) });
      expect(answer.status, `${method} ${path} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${path} ${body.slice(0, 40)}`).toBeLessThan(500);
      const type = answer.headers.get('content-type') ?? '';
      // The edge's own refusals (a body too large, a control character) answer before the route.
      if (answer.status !== 413) expect(type, `${method} ${path}`).toMatch(/json/);
    }
    const noPhone = await postJson(unverified, `/api/v1/vehicles/${saleCars[3]}/reservation`, '{}');
    expect(noPhone.status).toBe(422);
    expect(((await noPhone.json()) as Problem).reason).toBe('phone');
    // A rental car is not for sale.
    const rental = await database.db.selectFrom('vehicles').select('id').where('purpose', '=', 'rental').executeTakeFirst();
    if (rental) expect((await postJson(client, `/api/v1/vehicles/${rental.id}/reservation`, '{}')).status).toBe(404);
  }, 240_000);

  it('expiry lists the car again and refunds the token once; extend holds it longer', async () => {
    const carId = saleCars[4]!;
    const { reservation, paymentId } = await paidReservation(carId);
    expect(reservation.status).toBe('active');
    expect((await carStatus(carId)).status).toBe('reserved');
    const extended = await extendReservation(services, { reservationId: reservation.id, hours: 24, actorEmail: ADMIN });
    expect(Date.parse(extended.heldUntil!) - Date.parse(reservation.heldUntil!)).toBe(24 * HOUR);

    clock.advance(72 * HOUR + 60_000);
    expect(await expireDueReservations(services, { vehicleId: carId })).toBe(0);
    clock.advance(24 * HOUR);
    expect(await expireDueReservations(services, { vehicleId: carId })).toBe(1);
    expect(await expireDueReservations(services, { vehicleId: carId })).toBe(0);
    expect((await carStatus(carId)).status).toBe('available');
    expect(refundsOf(paymentId)).toEqual([TOKEN_PAISE]);
    expect(await findReservation(database, reservation.id)).toMatchObject({ status: 'expired', amountRefunded: 5000, refundOwed: 0 });
    const audit = await database.db
      .selectFrom('audit_log')
      .select('summary')
      .where('entity', '=', 'reservation')
      .where('entity_id', '=', String(reservation.id))
      .execute();
    expect(audit.map((row) => row.summary)).toEqual([expect.stringContaining('Extended reservation')]);
    await expect
      .poll(async () => (await outboxFor(database, DESK_PHONE)).filter((message) => message.body.includes(`#${reservation.id}`)).map((message) => message.body))
      .toEqual([expect.stringContaining('reserved by'), expect.stringContaining('ended; it is for sale again')]);
  });

  it('cancel refunds once, even while Razorpay fails refunds: owed, then retried exactly once', async () => {
    const carId = saleCars[5]!;
    const { person, reservation, paymentId } = await paidReservation(carId);
    standin.failRefunds(true);
    const { refund } = await cancelOwnReservation(services, { userId: person.userId, reservationId: reservation.id });
    expect(refund).toBe(5000);
    await expect(cancelOwnReservation(services, { userId: person.userId, reservationId: reservation.id })).rejects.toThrow('no longer active');
    expect(await findReservation(database, reservation.id)).toMatchObject({ status: 'cancelled', amountRefunded: 0, refundOwed: 5000 });
    expect((await carStatus(carId)).status).toBe('available');
    standin.failRefunds(false);
    clock.advance(5 * 60_000);
    const retried = await retryOwedRefunds(services, { ownerKind: 'reservation' });
    expect(retried.refunded).toBeGreaterThanOrEqual(1);
    await retryOwedRefunds(services, { ownerKind: 'reservation' });
    expect(refundsOf(paymentId)).toEqual([TOKEN_PAISE]);
    expect(await findReservation(database, reservation.id)).toMatchObject({ amountRefunded: 5000, refundOwed: 0 });
    const mails = await outboxFor(database, person.email);
    expect(mails.map((mail) => mail.subject)).toEqual([expect.stringContaining('Reserved for you'), expect.stringContaining('Reservation cancelled')]);
    const sms = await outboxFor(database, person.phone);
    expect(sms).toHaveLength(2);
    // The desk hears of it, so the car can be offered again at once.
    await expect
      .poll(async () => (await outboxFor(database, DESK_PHONE)).filter((message) => message.body.includes(`#${reservation.id}`)).map((message) => message.body))
      .toEqual([expect.stringContaining('reserved by'), expect.stringContaining('cancelled the reservation')]);
  });

  it('the desk is not told of its own cancel', async () => {
    const { reservation } = await paidReservation(saleCars[7]!);
    await cancelReservationAtDesk(services, { reservationId: reservation.id, actorEmail: ADMIN });
    const told = async () =>
      (await outboxFor(database, DESK_PHONE)).filter((message) => message.body.includes(`#${reservation.id}`)).map((message) => message.body);
    await expect.poll(told).toEqual([expect.stringContaining('reserved by')]);
  });

  it('a payment for a car someone else reserved first is refunded at once and the buyer told', async () => {
    const carId = saleCars[6]!;
    const late = await addRenter(database, { licence: null });
    const lateStart = await startReservation(services, { userId: late.userId, vehicleId: carId });
    // The late buyer's payment window passes; another buyer reserves and pays.
    clock.advance(16 * 60_000);
    const first = await paidReservation(carId);
    expect(first.reservation.status).toBe('active');
    const latePaid = standin.pay(lateStart.orderId);
    await expect(
      confirmReservationPayment(services, {
        userId: late.userId,
        reservationId: lateStart.reservationId,
        orderId: latePaid.razorpay_order_id,
        paymentId: latePaid.razorpay_payment_id,
        signature: latePaid.razorpay_signature,
      }),
    ).rejects.toThrow('Someone else reserved this car first');
    // The webhook of the same payment changes nothing more.
    expect(
      (
        await recordReservationPayment(services, {
          orderId: latePaid.razorpay_order_id,
          paymentId: latePaid.razorpay_payment_id,
          amountPaise: TOKEN_PAISE,
          currency: 'INR',
        })
      )?.outcome,
    ).toBe('repeat');
    expect(refundsOf(latePaid.razorpay_payment_id)).toEqual([TOKEN_PAISE]);
    expect(await findReservation(database, first.reservation.id)).toMatchObject({ status: 'active' });
    expect((await carStatus(carId)).status).toBe('reserved');
    const told = await outboxFor(database, late.email);
    expect(told.map((mail) => mail.subject)).toEqual([expect.stringContaining('reserved by someone else first')]);
  });

  it('convert to a sale: the sale converts the reservation, the car becomes sold, the token counted towards the price, audit-logged', async () => {
    const carId = saleCars[7]!;
    const { reservation, paymentId, person } = await paidReservation(carId);
    const sales = services as unknown as SaleServices;
    await saveSettings(
      sales as never,
      {
        ...(await settingsFor(sales)),
        dealerLegalName: 'Gaadi Bazaar Motors LLP',
        dealerAddress: 'Andheri East, Mumbai 400069',
        dealerGstin: '27AAPFU0939F1ZV',
      },
      ADMIN,
    );
    const sale = {
      reservationId: reservation.id,
      buyerName: 'Reservation Buyer',
      buyerAddress: '12 Carter Road, Bandra, Mumbai',
      buyerPhone: person.phone,
      buyerEmail: '',
      buyerPan: 'ABCPE1234F',
      supplyState: '27' as const,
      language: 'en' as const,
      price: 650_000_00,
      paid: 645_000_00,
      paidMethod: 'transfer' as const,
      loan: 0,
      lender: '',
      purchasePrice: 600_000_00,
      carClass: 'large' as const,
      chassisNumber: 'MA3EWDE1S00123456',
      engineNumber: 'K12MN1234567',
      actorEmail: ADMIN,
    };
    const sold = await recordSale(sales, sale);
    expect(sold).toMatchObject({ reservationId: reservation.id, tokenPaise: TOKEN_PAISE, pricePaise: 650_000_00, status: 'recorded' });
    expect(await findReservation(database, reservation.id)).toMatchObject({ status: 'converted', salePrice: 650_000 });
    expect(await carStatus(carId)).toEqual({ status: 'sold', sold_price: 650_000 });
    clock.advance(100 * HOUR);
    expect(await expireDueReservations(services, { vehicleId: carId })).toBe(0);
    expect(refundsOf(paymentId)).toEqual([]);
    await expect(recordSale(sales, sale)).rejects.toThrow('no longer active');
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['action', 'summary'])
      .where('entity', '=', 'sale')
      .where('entity_id', '=', String(sold.id))
      .execute();
    expect(audit).toEqual([{ action: 'sell', summary: expect.stringContaining('₹6,50,000') }]);
  });

  it("statistics count this file's reservations: eight paid, one became a sale, five tokens refunded", async () => {
    // Paid: the rush's winner, Asha, Bharat, expiry, cancel, the desk's cancel, the first of the taken car, convert;
    // refunded: the winner's cancel, expiry, cancel, the desk's cancel, the late payment.
    expect(await reservationCounts(services)).toEqual({ reserved: 8, converted: 1, refunded: 5 });
  });

  it('puts Razorpay in the CSP of the pay page only, and loads the pay page as a document when it is reached inside the app', async () => {
    const carId = saleCars.at(-1)!;
    const person = await buyer(server, 'csp');
    const started = await person.postForm(`/vehicle/${carId}/reserve`, {});
    expect(started.status).toBe(302);
    const payPage = started.headers.get('location')!;
    expect(payPage).toMatch(/^\/profile\/reservations\/\d+\/pay$/);
    const directive = (csp: string, name: string) => csp.split(';').find((part) => part.trim().startsWith(`${name} `)) ?? '';
    for (const path of [payPage, `/hi${payPage}`]) {
      const page = await person.get(path);
      expect(page.status, path).toBe(200);
      await page.body?.cancel();
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(directive(csp, 'script-src'), path).toContain(standin.url);
      expect(directive(csp, 'frame-src'), path).toContain(standin.url);
    }
    for (const path of ['/', `/vehicle/${carId}`, '/profile', '/profile.data', '/rent', '/wishlist']) {
      const response = await person.get(path);
      await response.body?.cancel();
      expect(response.headers.get('content-security-policy'), path).not.toContain(standin.url);
    }
    const anonymous = await fetch(`${server.url}/`);
    await anonymous.body?.cancel();
    expect(anonymous.headers.get('content-security-policy')).not.toContain(standin.url);

    // The pay page's data request from another page (a link, the redirect after signing in) is
    // told to load the page as a document, whose policy lets Checkout run; from the pay page
    // itself (after its form is posted) it is answered as usual.
    const fromProfile = await person.get(`${payPage}.data?_routes=routes%2Freservation-pay`, { headers: { referer: `${server.url}/profile` } });
    expect(fromProfile.status).toBe(204);
    expect(fromProfile.headers.get('x-remix-redirect')).toBe(payPage);
    expect(fromProfile.headers.get('x-remix-reload-document')).toBe('true');
    const hindi = await person.get(`/hi${payPage}.data`);
    expect(hindi.headers.get('x-remix-redirect')).toBe(`/hi${payPage}`);
    const fromItself = await person.get(`${payPage}.data?_routes=routes%2Freservation-pay`, { headers: { referer: `${server.url}${payPage}` } });
    expect(fromItself.status).toBe(200);
    expect(await fromItself.text()).toContain(STANDIN_KEY_ID);
  });
  it("a paid token has its receipt voucher (decision 122): numbered in its own series with the payment, the buyer's, read back with the amount in words", async () => {
    const first = await paidReservation(saleCars[9]!);
    const second = await paidReservation(saleCars[10]!);
    const numbers = await database.db
      .selectFrom('car_reservations')
      .select(['id', 'receipt_number'])
      .where('id', 'in', [first.checkout.reservationId, second.checkout.reservationId])
      .orderBy('id')
      .execute();
    const serials = numbers.map((row) => {
      expect(row.receipt_number).toMatch(/^RV\/20\d\d-\d\d\/\d{5}$/);
      return Number(row.receipt_number!.slice(-5));
    });
    expect(serials[1]).toBe(serials[0]! + 1);
    const withStorage = { ...services, privateStorage: createLocalStorage(path.join(server.dataDir, 'private')) } as unknown as TokenReceiptServices;
    const receipt = await tokenReceipt(withStorage, first.checkout.reservationId);
    expect(receipt).toMatchObject({ kind: 'token-receipt', number: numbers[0]!.receipt_number, ownerKind: 'reservation' });
    // Made once: asked again, the same document.
    expect((await tokenReceipt(withStorage, first.checkout.reservationId))!.id).toBe(receipt!.id);
    const opened = await openDocument(withStorage, receipt!.id, { userId: first.person.userId });
    expect(opened).not.toBeNull();
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: Buffer.from(await new Response(opened!.body).arrayBuffer()) }).toString('utf8');
    expect(text).toContain(numbers[0]!.receipt_number!);
    expect(text).toContain('₹5,000');
    expect(text).toMatch(/five thousand/i);
    // Nobody else's.
    expect(await openDocument(withStorage, receipt!.id, { userId: second.person.userId })).toBeNull();
    // A reservation never paid has no receipt.
    const unpaid = await startReservation(services, { userId: (await addRenter(database, { licence: null })).userId, vehicleId: saleCars[11]! });
    expect(await tokenReceipt(withStorage, unpaid.reservationId)).toBeNull();
  });
});
