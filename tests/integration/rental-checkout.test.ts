import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRupees } from '../../app/lib/format.ts';
import { razorpaySignature } from '../../server/payments/razorpay.ts';
import { completeProfile, decodeEntities, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addFleetCarOn, param, sendLicence } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Razorpay Checkout on the booking pages (docs/decisions/030), over HTTP on both databases: an
 * online booking leads to its payment page, which hands Checkout the order; the CSP lets
 * checkout.js run only while Razorpay is configured; the page's action marks the booking paid
 * only with Razorpay's signature: a forged one, one made with another secret, or one for
 * another order is refused and the booking stays unpaid.
 */

const shared = sharedServer();
const HOUR_MS = 60 * 60 * 1000;

type BookingJson = { id: number; status: string; paymentMethod: string; amountPaid: number; quote: { total: number } };

describe.skipIf(!shared.url)(`Razorpay Checkout on the booking pages (${shared.dialect})`, () => {
  let server: TestServer;
  let standin: RazorpayStandin;
  let renter: HttpClient;
  let carId: number;

  beforeAll(async () => {
    standin = await startRazorpayStandin();
    server = await startTestServer({
      dialect: shared.dialect,
      seed: false,
      env: {
        RAZORPAY_KEY_ID: STANDIN_KEY_ID,
        RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
        RAZORPAY_API_URL: standin.url,
        RAZORPAY_CHECKOUT_URL: standin.checkoutUrl,
        TRUST_PROXY: 'true',
      },
    });
    carId = await addFleetCarOn(server, 'Checkout Swift');
    renter = new HttpClient(server.url);
    await signUp(renter, uniqueEmail('checkout'));
    await completeProfile(renter, 'Nisha Rao', uniqueMobile());
    expect((await sendLicence(renter, 'TN0120180011223', '1992-03-04')).status).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await standin?.close();
  });

  /** An online booking made on the booking page, a day long, `daysAhead` days from now. */
  async function bookOnline(daysAhead: number): Promise<{ id: number; payPage: string }> {
    const fromMs = Math.ceil((Date.now() + daysAhead * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
    const range = `from=${encodeURIComponent(param(fromMs))}&to=${encodeURIComponent(param(fromMs + 24 * HOUR_MS))}`;
    const page = await renter.get(`/rent/${carId}/book?${range}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Pay online now');
    const response = await renter.postForm(`/rent/${carId}/book?${range}`, { pickup: 'hub', payment: 'razorpay' });
    expect(response.status).toBe(302);
    const payPage = response.headers.get('location')!;
    const id = Number(/^\/profile\/bookings\/(\d+)\/pay$/.exec(payPage)?.[1]);
    expect(id).toBeGreaterThan(0);
    return { id, payPage };
  }

  async function booking(id: number): Promise<BookingJson> {
    const response = await renter.get(`/api/v1/me/bookings/${id}`);
    expect(response.status).toBe(200);
    return (await response.json()) as BookingJson;
  }

  it('lets checkout.js run only while Razorpay is configured, and only on the pay page', async () => {
    const { payPage } = await bookOnline(3);
    const answer = await renter.get(payPage);
    expect(answer.status).toBe(200);
    const csp = answer.headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((part) => part.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).toContain(standin.url);
    expect(csp.split(';').find((part) => part.trim().startsWith('frame-src'))).toContain(standin.url);
    // Only the pay page: the booking pages, the profile and the listing of this server carry none.
    for (const path of ['/rent', `/rent/${carId}`, `/rent/${carId}/book`, '/profile', '/profile.data', '/']) {
      const other = await renter.get(path);
      await other.body?.cancel();
      expect(other.headers.get('content-security-policy'), path).not.toContain(standin.url);
    }
    // Reached from the booking page inside the app, the pay page is loaded as a document, with its own policy.
    const fromBooking = await renter.get(`${payPage}.data`, { headers: { referer: `${server.url}/rent/${carId}/book` } });
    expect(fromBooking.status).toBe(204);
    expect(fromBooking.headers.get('x-remix-redirect')).toBe(payPage);
    expect(fromBooking.headers.get('x-remix-reload-document')).toBe('true');
    // The shared server has no Razorpay keys: no payment origin in its policy.
    const plain = (await fetch(`${shared.url}/rent`)).headers.get('content-security-policy') ?? '';
    expect(plain).not.toContain(standin.url);
    expect(plain).not.toContain('razorpay');
  });

  it('hands Checkout the order and marks the booking paid only with Razorpay’s signature', async () => {
    const { id, payPage } = await bookOnline(5);
    const html = await (await renter.get(payPage)).text();
    const order = standin.orders.at(-1)!;
    expect(order.receipt).toBe(`booking-${id}`);
    expect(html).toContain(order.id);
    expect(html).toContain(STANDIN_KEY_ID);
    expect(html).not.toContain(STANDIN_KEY_SECRET);
    const before = await booking(id);
    expect(before).toMatchObject({ status: 'requested', paymentMethod: 'razorpay', amountPaid: 0 });
    expect(order.amount).toBe(before.quote.total * 100);

    const paid = standin.pay(order.id);
    const forgeries = [
      { ...paid, razorpay_signature: 'f'.repeat(64) },
      { ...paid, razorpay_signature: razorpaySignature(`${paid.razorpay_order_id}|${paid.razorpay_payment_id}`, 'someone-elses-secret') },
      {
        ...paid,
        razorpay_signature: razorpaySignature(`${paid.razorpay_order_id}|pay_Invented123`, STANDIN_KEY_SECRET),
        razorpay_payment_id: paid.razorpay_payment_id,
      },
      { ...paid, razorpay_order_id: 'order_NotThisOne123' },
      { ...paid, razorpay_signature: '' },
    ];
    for (const forged of forgeries) {
      const refused = await renter.postForm(payPage, forged);
      expect(refused.status, JSON.stringify(forged)).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect((await booking(id)).amountPaid).toBe(0);
    }
    // The same through the app's API.
    const api = await renter.request(`/api/v1/me/bookings/${id}/payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(forgeries[0]),
    });
    expect(api.status).toBe(403);
    expect((await booking(id)).amountPaid).toBe(0);

    // Another person cannot post a real payment to this booking either.
    const stranger = new HttpClient(server.url);
    await signUp(stranger, uniqueEmail('stranger'));
    expect((await stranger.postForm(payPage, paid)).status).toBe(404);

    const accepted = await renter.postForm(payPage, paid);
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get('location')).toBe('/profile#bookings');
    expect(await booking(id)).toMatchObject({ status: 'requested', amountPaid: before.quote.total });
    // Paid: the page sends back to the bookings list, which says so.
    expect((await renter.get(payPage)).headers.get('location')).toBe('/profile#bookings');
    expect(await (await renter.get('/profile')).text()).toContain(`paid online`);
  });

  it('shows the renter the refund of a cancelled paid booking: on its way while Razorpay refuses refunds, refunded once one goes through', async () => {
    async function paidBooking(daysAhead: number): Promise<number> {
      const { id, payPage } = await bookOnline(daysAhead);
      await renter.get(payPage);
      expect((await renter.postForm(payPage, standin.pay(standin.orders.at(-1)!.id))).status).toBe(302);
      return id;
    }
    const cancel = async (id: number) =>
      expect((await renter.postForm('/profile', { intent: 'cancel-booking', bookingId: String(id) })).headers.get('location')).toBe('/profile#bookings');
    const bookingCard = async (id: number) => {
      const html = await (await renter.get('/profile')).text();
      const card = html.slice(html.indexOf(`data-booking="${id}"`));
      const list = /data-refunds="[^"]*">([\s\S]*?)<\/ul>/.exec(card)?.[1] ?? '';
      return [...list.matchAll(/<li>([^<]*)<\/li>/g)].map((item) => decodeEntities(item[1] ?? '')).join(' ');
    };

    const owed = await paidBooking(30);
    const { amountPaid: owedAmount } = await booking(owed);
    standin.failRefunds(true);
    try {
      await cancel(owed);
    } finally {
      standin.failRefunds(false);
    }
    expect(await bookingCard(owed)).toBe(
      `A refund of ${formatRupees(owedAmount)} is on its way: our payment provider has not completed it yet, and we keep trying.`,
    );

    const refunded = await paidBooking(32);
    const { amountPaid } = await booking(refunded);
    await cancel(refunded);
    // Paid online: back through the gateway, to the card or UPI it came from.
    expect(await bookingCard(refunded)).toBe(`Refunded ${formatRupees(amountPaid)} to your card/UPI (the payment method you paid with).`);
  });
});
