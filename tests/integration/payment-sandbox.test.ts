import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { waitFor } from '../support/browser.ts';
import { openServerDatabase } from '../support/database.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { STANDIN_KEY_ID, STANDIN_KEY_SECRET } from '../support/razorpay-standin.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The demo's payment sandbox (docs/decisions/095) on SQLite and PostgreSQL: a server with
 * PAYMENTS=sandbox and no Razorpay keys answers Razorpay's API and Checkout itself, and the
 * production adapter talks to it over HTTP. A payment made in its Checkout reaches the app by the
 * sandbox's signed webhook alone (the browser's answer never posted), through the app's own
 * webhook handler; the handler's signed values are accepted too. Cancelling refunds through the
 * sandbox's refund API, recorded once however often it is asked and after its refund webhook.
 */

const { dialect, url: sharedUrl } = sharedServer();
const BASE = '/dev/payment-sandbox';
const TOKEN_PAISE = 500_000;

type Started = { reservation: { id: number; status: string }; payment: { orderId: string; amount: number; keyId: string; reservationId: number } };
type Mine = { items: Array<{ id: number; status: string; amountRefunded: number }> };

function postJson(client: HttpClient, path: string, body: unknown): Promise<Response> {
  return client.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe.skipIf(!sharedUrl)(`the demo's payment sandbox (${dialect})`, () => {
  let server: TestServer;
  let database: Database;
  let buyer: HttpClient;
  let saleCars: number[] = [];

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', PAYMENTS: 'sandbox' } });
    database = openServerDatabase(server);
    const rows = await database.db
      .selectFrom('vehicles')
      .select('id')
      .where('purpose', '=', 'sale')
      .where('status', '=', 'available')
      .orderBy('id')
      .limit(3)
      .execute();
    saleCars = rows.map((row) => Number(row.id));
    buyer = new HttpClient(server.url);
    await signUp(buyer, uniqueEmail('sandbox'));
    await completeProfile(buyer, 'Sandbox Buyer', uniqueMobile());
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  const checkoutPay = (path: 'pay' | 'fail', started: Started) =>
    fetch(`${server.url}${BASE}/checkout/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ key_id: started.payment.keyId, order_id: started.payment.orderId }),
    });
  const mine = async (id: number) => ((await (await buyer.get('/api/v1/me/reservations')).json()) as Mine).items.find((item) => item.id === id);

  it("answers Razorpay's API only with the keys it made at start, and opens Checkout framed by the pay pages alone", async () => {
    for (const authorization of [undefined, `Basic ${Buffer.from(`${STANDIN_KEY_ID}:${STANDIN_KEY_SECRET}`).toString('base64')}`]) {
      const refused = await fetch(`${server.url}${BASE}/v1/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ amount: TOKEN_PAISE, currency: 'INR' }),
      });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } });
    }
    const refund = await fetch(`${server.url}${BASE}/v1/payments/pay_x/refund`, { method: 'POST', body: '{}' });
    expect(refund.status).toBe(401);

    const started = (await (await postJson(buyer, `/api/v1/vehicles/${saleCars[0]}/reservation`, {})).json()) as Started;
    expect(started.payment.keyId).toMatch(/^rzp_test_[A-Za-z0-9]{14}$/);
    expect(started.payment).toMatchObject({ amount: TOKEN_PAISE });

    const query = new URLSearchParams({
      key_id: started.payment.keyId,
      order_id: started.payment.orderId,
      name: 'Gaadi Bazaar',
      description: `Reservation #${started.reservation.id}`,
      origin: server.url,
    });
    const sheet = await fetch(`${server.url}${BASE}/checkout?${query}`);
    expect(sheet.status).toBe(200);
    const html = await sheet.text();
    for (const text of ['Gaadi Bazaar', '₹5,000', 'Pay ₹5,000', '>Fail<', '>Close<', started.payment.orderId]) expect(html).toContain(text);
    expect(sheet.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(sheet.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const foreign = await fetch(
      `${server.url}${BASE}/checkout?${new URLSearchParams({ key_id: STANDIN_KEY_ID, order_id: started.payment.orderId, origin: server.url })}`,
    );
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).not.toContain(started.payment.orderId);

    // The pay page may frame it; every other page frames nothing of this site and is framed by nothing.
    const payPage = await buyer.get(`/profile/reservations/${started.reservation.id}/pay`);
    expect(payPage.status).toBe(200);
    expect(await payPage.text()).toContain(`${BASE}/v1/checkout.js`);
    expect(payPage.headers.get('content-security-policy')).toMatch(/frame-src [^;]* 'self'/);
    const home = await fetch(`${server.url}/`);
    expect(home.headers.get('content-security-policy')).not.toMatch(/frame-src [^;]*'self'/);
    expect(home.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    // A failed payment leaves the reservation waiting for payment.
    const failed = await checkoutPay('fail', started);
    expect(await failed.json()).toMatchObject({ error: { reason: 'payment_failed', metadata: { order_id: started.payment.orderId } } });
    expect((await mine(started.reservation.id))?.status).toBe('pending');
    // Failures are kept, so one order takes twenty of them at most (the sheet is open to anyone who knows the order).
    const statuses = [];
    for (let attempt = 0; attempt < 21; attempt++) statuses.push((await checkoutPay('fail', started)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    expect(statuses.at(-1)).toBe(400);
    // A malformed body is refused as Razorpay refuses an unknown order.
    const malformed = await fetch(`${server.url}${BASE}/checkout/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"key_id":\u0000',
    });
    expect(malformed.status).toBe(400);
    await postJson(buyer, `/api/v1/me/reservations/${started.reservation.id}/cancel`, {});
  });

  it("a payment in the sandbox's Checkout reserves the car by its signed webhook alone, through the app's handler; the handler's signed values are accepted too", async () => {
    const started = (await (await postJson(buyer, `/api/v1/vehicles/${saleCars[1]}/reservation`, {})).json()) as Started;
    const paying = await checkoutPay('pay', started);
    expect(paying.status).toBe(200);
    const paid = (await paying.json()) as { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
    expect(paid).toMatchObject({
      razorpay_order_id: started.payment.orderId,
      razorpay_payment_id: expect.stringMatching(/^pay_[A-Za-z0-9]{14}$/),
      razorpay_signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    // Nothing was posted to the app: only the webhook, signed with the sandbox's webhook secret, can have reserved it.
    await waitFor(
      () => mine(started.reservation.id),
      (reservation) => reservation?.status === 'active',
    );
    const car = await database.db.selectFrom('vehicles').select('status').where('id', '=', saleCars[1]!).executeTakeFirstOrThrow();
    expect(car.status).toBe('reserved');

    // Checkout's handler values are HMAC(order|payment) with the key secret: the app accepts them (a repeat), and not a forgery.
    const confirm = `/api/v1/me/reservations/${started.reservation.id}/payment`;
    expect((await postJson(buyer, confirm, { ...paid, razorpay_signature: 'f'.repeat(64) })).status).toBe(403);
    const confirmed = await postJson(buyer, confirm, paid);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ reservation: { id: started.reservation.id, status: 'active' } });
    // An order is paid once.
    expect((await checkoutPay('pay', started)).status).toBe(400);
    // A webhook the sandbox did not sign is refused by the same handler.
    const forged = await fetch(`${server.url}/api/v1/payments/razorpay/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'a'.repeat(64) },
      body: '{"event":"payment.captured"}',
    });
    expect(forged.status).toBe(403);
  });

  it('cancelling refunds through the sandbox, recorded once however often it is asked', async () => {
    const started = (await (await postJson(buyer, `/api/v1/vehicles/${saleCars[2]}/reservation`, {})).json()) as Started;
    const paid = (await (await checkoutPay('pay', started)).json()) as { razorpay_payment_id: string };
    expect((await postJson(buyer, `/api/v1/me/reservations/${started.reservation.id}/payment`, paid)).status).toBe(200);

    const cancels = await Promise.all(Array.from({ length: 5 }, () => postJson(buyer, `/api/v1/me/reservations/${started.reservation.id}/cancel`, {})));
    expect(cancels.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const refunds = () =>
      database.db
        .selectFrom('payment_ledger')
        .select(['status', 'amount_paise', 'provider_refund_id'])
        .where('entry', '=', 'refund')
        .where('payment_id', '=', paid.razorpay_payment_id)
        .execute();
    const recorded = await refunds();
    expect(recorded).toEqual([{ status: 'refunded', amount_paise: TOKEN_PAISE, provider_refund_id: expect.stringMatching(/^rfnd_[A-Za-z0-9]{14}$/) }]);
    // The sandbox's refund.processed webhook is acknowledged and changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await refunds()).toEqual(recorded);
    expect(await mine(started.reservation.id)).toMatchObject({ status: 'cancelled', amountRefunded: 5000 });
  });

  it('offers Reserve on the car page, where a site without online payment says it is not offered', async () => {
    const offered = await (await fetch(`${server.url}/vehicle/${saleCars[0]}`)).text();
    expect(offered).toContain('Reserve for ₹5,000, fully refundable');
    expect(offered).not.toContain('Online reservation is not offered');
  });
});
