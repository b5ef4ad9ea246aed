import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRupees } from '../../app/lib/format.ts';
import { paths } from '../../app/lib/paths.ts';
import { compareAnswerSchema, paymentStartSchema, rentalQuoteAnswerSchema, vehicleEmiSchema } from '../../server/http/api-answers.ts';
import { compareQuerySchema } from '../../app/features/compare/schemas.ts';
import { emiQuerySchema } from '../../app/features/emi/schemas.ts';
import { SESSION_COOKIE_NAME } from '../../server/auth/session-cookie.ts';
import { visibleText } from '../support/html.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { openServerSql, vehicleRow } from '../support/database.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addFleetCarOn, param, sendLicence } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The API's compare, EMI, rental quote and pay-later endpoints, and its paged lists, over HTTP
 * on both databases: each answer equals what the page shows for the same inputs (worked out by
 * hand here), hostile inputs are refused with problem+json 4xx (never 5xx), and twenty pay
 * requests at once for one booking all answer the one order the database keeps.
 */

const shared = sharedServer();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Problem = { type: string; title: string; status: number; detail: string; fields?: Record<string, string>; reason?: string };

async function problemOf(response: Response, status: number): Promise<Problem> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(text) as Problem;
  expect(body).toMatchObject({ status, title: expect.any(String), detail: expect.stringMatching(/\w/) });
  return body;
}

/** Every whitespace gone: the page breaks "₹14,181/month" after the slash, the API does not. */
const squeezed = (text: string) => text.replace(/\s+/g, '');

describe.skipIf(!shared.url)(`the API's compare, EMI, rental quote and paying (${shared.dialect})`, () => {
  let server: TestServer;
  let standin: RazorpayStandin;
  let renter: HttpClient;
  let stranger: HttpClient;
  let carId: number;
  const cars = { creta: 0, city: 0, sold: 0, onRequest: 0 };
  /** Midnight India time today, as epoch ms. */
  let today: number;

  beforeAll(async () => {
    standin = await startRazorpayStandin();
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: {
        RAZORPAY_KEY_ID: STANDIN_KEY_ID,
        RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
        RAZORPAY_API_URL: standin.url,
        TRUST_PROXY: 'true',
      },
    });
    // Plain SQL with a busy timeout: the server starting up may hold SQLite's write lock a moment.
    const sql = await openServerSql(server);
    try {
      const [category] = await sql.all<{ id: number }>('SELECT id FROM categories ORDER BY id LIMIT 1');
      const add = async (fields: Partial<Parameters<typeof vehicleRow>[0]> & { name: string }) => {
        const row = vehicleRow({ category_id: Number(category!.id), ...fields }) as Record<string, unknown>;
        const columns = Object.keys(row);
        await sql.run(`INSERT INTO vehicles (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, Object.values(row));
        const [added] = await sql.all<{ id: number }>('SELECT id FROM vehicles WHERE name = ?', [fields.name]);
        return Number(added!.id);
      };
      cars.creta = await add({
        name: 'Extras Creta',
        make: 'Hyundai',
        model: 'Creta',
        fuel_type: 'Diesel',
        price: '750000',
        price_rupees: 750_000,
        year: '2021',
      });
      cars.city = await add({ name: 'Extras City', make: 'Honda', model: 'City', fuel_type: 'Petrol', price: '650000', price_rupees: 650_000, year: '2021' });
      cars.sold = await add({ name: 'Extras Sold Baleno', make: 'Maruti', model: 'Baleno', status: 'sold', price: '550000', price_rupees: 550_000 });
      cars.onRequest = await add({ name: 'Extras Fortuner', make: 'Toyota', model: 'Fortuner', price: 'On request', price_rupees: null });
    } finally {
      await sql.close();
    }
    carId = await addFleetCarOn(server, 'Extras Swift');
    renter = new HttpClient(server.url);
    await signUp(renter, uniqueEmail('extras'));
    await completeProfile(renter, 'Meera Iyer', uniqueMobile());
    expect((await sendLicence(renter, 'KA0320170054321', '1991-06-15')).status).toBe(201);
    stranger = new HttpClient(server.url);
    await signUp(stranger, uniqueEmail('extras-other'));
    today = Math.floor((Date.now() + 5.5 * HOUR) / DAY) * DAY - 5.5 * HOUR;
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await standin?.close();
  });

  describe('GET /compare', () => {
    it('answers the compare page’s cars, rows and highlighted rows, sold and unknown ids as no longer available', async () => {
      const ids = `${cars.creta},${cars.city},abc,${cars.sold},${cars.creta}`;
      const response = await renter.get(`/api/v1/compare?ids=${encodeURIComponent(ids)}`);
      expect(response.status).toBe(200);
      const body = compareAnswerSchema.parse(await response.json());
      expect(body.items.map((item) => [item.id, item.available, item.title])).toEqual([
        [cars.creta, true, 'Hyundai Creta'],
        [cars.city, true, 'Honda City'],
        [cars.sold, false, 'Extras Sold Baleno'],
      ]);
      // The page's, the tray's and the texts' one limit (app/features/compare/compare.ts).
      expect(body).toMatchObject({ unreadable: 1, leftOut: 0, max: 3, notice: 'One entry in this link is not a car and was left out.' });
      // ₹6,37,500 (85% of ₹7,50,000) at 12% for 60 months: 637500 × 0.01 × 1.01^60 / (1.01^60 − 1) = ₹14,181.
      expect(body.items[0]).toMatchObject({ priceRupees: 750_000, emiFrom: 14_181 });
      expect(body.rows.find((row) => row.label === 'EMI from')).toEqual({
        label: 'EMI from',
        values: ['₹14,181/month', '₹12,290/month', null],
        differs: true,
        group: 'specs',
      });
      expect(body.rows.find((row) => row.label === 'Transmission')).toMatchObject({ values: ['Manual', 'Manual', null], differs: false });
      // An id with no car is an entry no longer available too, without a title.
      const unknown = compareAnswerSchema.parse(await (await renter.get(`/api/v1/compare?ids=${cars.creta},999999`)).json());
      expect(unknown.items.map((item) => [item.id, item.available, item.title])).toEqual([
        [cars.creta, true, 'Hyundai Creta'],
        [999999, false, null],
      ]);

      // The page for the same link: each row with its "(differs)" mark and its values, a dash for a car no longer available.
      const page = await renter.get(`/compare?ids=${encodeURIComponent(ids)}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const pageRows = (html.match(/<tr[^>]*>\s*<th scope="row"[\s\S]*?<\/tr>/g) ?? []).map((row) => squeezed(visibleText(row)));
      const apiRows = body.rows.map((row) => squeezed(`${row.label}${row.differs ? ' (differs)' : ''} ${row.values.map((value) => value ?? '—').join(' ')}`));
      expect(pageRows).toEqual(apiRows);
      expect(visibleText(html)).toContain('One entry in this link is not a car and was left out.');
    });

    it('never refuses a hostile ids parameter, as the page does: NUL bytes, huge numbers, 500 ids', async () => {
      const many = Array.from({ length: 500 }, (_, index) => index + 1).join(',');
      for (const ids of ['%00', `${cars.creta}%00,1`, '99999999999999999999', many, '', '-1,0,1.5']) {
        const response = await renter.get(`/api/v1/compare?ids=${ids}`);
        expect(response.status, ids).toBe(200);
        compareAnswerSchema.parse(await response.json());
      }
      const capped = compareAnswerSchema.parse(await (await renter.get(`/api/v1/compare?ids=${many}`)).json());
      expect(capped.items).toHaveLength(3);
      expect(capped.leftOut).toBeGreaterThan(0);
      expect(compareAnswerSchema.parse(await (await renter.get('/api/v1/compare')).json()).items).toEqual([]);
    });
  });

  describe('the document describes the parameters the routes enforce', () => {
    type Parameter = { name: string; in: string; schema: Record<string, unknown> };
    const parametersOf = async (path: string) => {
      const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, { get: { parameters?: Parameter[] } }> };
      return (document.paths[path]?.get.parameters ?? []).filter((parameter) => parameter.in === 'query');
    };

    it('compare: the schema that reads `ids` is the one documented, and it refuses no text', async () => {
      const documented = await parametersOf('/compare');
      expect(documented.map((parameter) => parameter.name)).toEqual(Object.keys(compareQuerySchema.shape));
      expect(documented[0]!.schema).toMatchObject({ type: 'string' });
      // Any text is taken (the page never refuses a link); what is not a car is counted instead.
      const body = compareAnswerSchema.parse(await (await renter.get(`/api/v1/compare?ids=${cars.creta},abc`)).json());
      expect(body).toMatchObject({ unreadable: 1, leftOut: 0 });
      expect(body.items.map((item) => item.id)).toEqual([cars.creta]);
    });

    it('emi: each documented parameter is read by the documented schema; a value it refuses is a 400 problem naming the field', async () => {
      const documented = await parametersOf('/vehicles/{id}/emi');
      expect(documented.map((parameter) => parameter.name)).toEqual(Object.keys(emiQuerySchema.shape));
      const refused: Record<string, string> = { downPayment: '1e5', ratePercent: '25', tenureMonths: '13' };
      for (const parameter of documented) {
        const value = refused[parameter.name]!;
        expect(emiQuerySchema.safeParse({ [parameter.name]: value }).success, parameter.name).toBe(false);
        const problem = await problemOf(await renter.get(`/api/v1/vehicles/${cars.creta}/emi?${parameter.name}=${value}`), 400);
        expect(Object.keys(problem.fields ?? {})).toEqual([parameter.name]);
      }
    });
  });

  describe('GET /vehicles/:id/emi', () => {
    it('works the calculator out as the car page does, for the inputs given and from the admin’s terms for the rest', async () => {
      // ₹7,50,000 less ₹1,50,000 down: ₹6,00,000 at 12% over 72 months is ₹11,730 a month.
      const response = await renter.get(`/api/v1/vehicles/${cars.creta}/emi?downPayment=150000&ratePercent=12&tenureMonths=72`);
      expect(response.status).toBe(200);
      const body = vehicleEmiSchema.parse(await response.json());
      expect(body).toMatchObject({
        vehicleId: cars.creta,
        price: 750_000,
        downPayment: 150_000,
        ratePercent: 12,
        tenureMonths: 72,
        loan: 600_000,
        emi: 11_730,
      });
      // 72 × ₹11,730 = ₹8,44,560 repaid: ₹2,44,560 interest; ₹9,94,560 paid with the down payment.
      expect(body).toMatchObject({
        totalInterest: 244_560,
        totalPaid: 994_560,
        limits: { downPayment: { min: 0, max: 750_000 }, ratePercent: { min: 9, max: 20, step: 0.25 } },
      });

      // The car page for the same inputs (its calculator's form sent without JavaScript) shows the same figures.
      const page = await renter.get(`${paths.vehicle(cars.creta)}?dp=150000&rate=12&tenure=72`);
      expect(page.status).toBe(200);
      const text = visibleText(await page.text());
      for (const amount of [11_730, 600_000, 244_560, 994_560]) expect(text).toContain(formatRupees(amount));

      // Nothing given: the admin's terms (15% down, 12%, 60 months), the card's "EMI from".
      const defaults = vehicleEmiSchema.parse(await (await renter.get(`/api/v1/vehicles/${cars.creta}/emi`)).json());
      expect(defaults).toMatchObject({
        downPayment: 112_500,
        ratePercent: 12,
        tenureMonths: 60,
        loan: 637_500,
        emi: 14_181,
        financeTerms: { ratePercent: 12, tenureMonths: 60, financedPercent: 85 },
      });
      // Indian grouping is read as the page reads it; a blank value is "not given".
      expect(vehicleEmiSchema.parse(await (await renter.get(`/api/v1/vehicles/${cars.creta}/emi?downPayment=1,50,000&ratePercent=`)).json())).toMatchObject({
        downPayment: 150_000,
        ratePercent: 12,
      });
    });

    it('refuses what the calculator would not take, with problem+json naming the field', async () => {
      const base = `/api/v1/vehicles/${cars.creta}/emi`;
      const cases: Array<[string, string]> = [
        ['downPayment=-1', 'downPayment'],
        ['downPayment=750001', 'downPayment'],
        ['downPayment=1e5', 'downPayment'],
        ['downPayment=%00', 'downPayment'],
        ['downPayment=99999999999999999999', 'downPayment'],
        ['ratePercent=8.99', 'ratePercent'],
        ['ratePercent=abc', 'ratePercent'],
        ['tenureMonths=13', 'tenureMonths'],
        ['tenureMonths=60.5', 'tenureMonths'],
      ];
      for (const [query, field] of cases) {
        const body = await problemOf(await renter.get(`${base}?${query}`), 400);
        expect(Object.keys(body.fields ?? {}), query).toEqual([field]);
      }
      expect((await problemOf(await renter.get(`${base}?tenureMonths=13`), 400)).detail).toBe('Tenure must be 12, 24, 36, 48, 60, 72, 84 months.');
      // A down payment is said with this car's price, over it or unreadable, as the car page says it.
      expect((await problemOf(await renter.get(`${base}?downPayment=750001`), 400)).fields).toEqual({
        downPayment: 'The down payment cannot be more than the car’s price of ₹7,50,000.',
      });
      expect((await problemOf(await renter.get(`${base}?downPayment=abc`), 400)).detail).toBe(
        'Down payment must be a whole number of rupees from 0 to 7,50,000.',
      );
      // Both fields wrong: each beside its own.
      expect(Object.keys((await problemOf(await renter.get(`${base}?downPayment=abc&tenureMonths=13`), 400)).fields ?? {}).sort()).toEqual([
        'downPayment',
        'tenureMonths',
      ]);
      for (const id of ['999999', '99999999999999999999', 'abc', '%00', '-1', `${carId}`]) await problemOf(await renter.get(`/api/v1/vehicles/${id}/emi`), 404);
      expect((await problemOf(await renter.get(`/api/v1/vehicles/${cars.sold}/emi`), 409)).reason).toBe('sold');
      expect((await problemOf(await renter.get(`/api/v1/vehicles/${cars.onRequest}/emi`), 409)).reason).toBe('no-price');
    });
  });

  describe('GET /rentals/cars/:id/quote', () => {
    /** Ten days ahead at 10:00 India time, for 2 days and 3 hours (51 hours). */
    const range = () => ({ from: param(today + 10 * DAY + 10 * HOUR), to: param(today + 12 * DAY + 13 * HOUR) });

    it('prices delivery, protection and paying online as the booking page does', async () => {
      const { from, to } = range();
      const query = new URLSearchParams({ from, to, pickup: 'delivery', pinCode: '400049', protection: 'true', payment: 'razorpay' });
      const response = await renter.get(`/api/v1/rentals/cars/${carId}/quote?${query}`);
      expect(response.status).toBe(200);
      const body = rentalQuoteAnswerSchema.parse(await response.json());
      expect(body).toMatchObject({
        carId,
        pickup: 'delivery',
        pinCode: '400049',
        protection: true,
        payment: 'razorpay',
        available: true,
        from: expect.stringMatching(/T10:00:00\+05:30$/),
      });
      // 51 hours: 2 days × ₹1,800 + 3 hours × ₹150 = ₹4,050; protection 3 started days × ₹250 = ₹750;
      // delivery ₹500; GST 18% of ₹5,300 = ₹954; total ₹6,254, all paid now; the ₹5,000 deposit at pickup.
      expect(body.quote.lines.map((line) => [line.kind, line.amount])).toEqual([
        ['rent', 4050],
        ['protection', 750],
        ['delivery', 500],
        ['gst', 954],
      ]);
      expect(body.quote).toMatchObject({ hours: 51, total: 6254, deposit: 5000, payableNow: 6254, dueAtPickup: 5000, kmIncluded: 720 });
      expect(body.totals.map((row) => [row.key, row.amount])).toEqual([
        ['total', 6254],
        ['deposit', 5000],
        ['now', 6254],
        ['pickup', 5000],
      ]);
    });

    it('answers the booking page’s own quote for hub pickup paid at pickup', async () => {
      const { from, to } = range();
      const body = rentalQuoteAnswerSchema.parse(await (await renter.get(`/api/v1/rentals/cars/${carId}/quote?${new URLSearchParams({ from, to })}`)).json());
      // ₹4,050 rent and ₹729 GST: ₹4,779, all at pickup with the ₹5,000 deposit: ₹9,779.
      expect(body.quote).toMatchObject({ rent: 4050, gst: 729, total: 4779, payableNow: 0, dueAtPickup: 9779 });
      expect(body).toMatchObject({ pickup: 'hub', pinCode: null, protection: false, payment: 'pay-at-pickup' });
      const page = await renter.get(`/rent/${carId}/book?${new URLSearchParams({ from, to })}`);
      expect(page.status).toBe(200);
      const text = visibleText(await page.text());
      for (const line of body.quote.lines) expect(text).toContain(`${line.label} ${formatRupees(line.amount)}`);
      for (const row of body.totals) expect(text, row.label).toContain(formatRupees(row.amount));
    });

    it('refuses what booking refuses, with problem+json naming the field, never a 500', async () => {
      const { from, to } = range();
      const ask = (params: Record<string, string>, id: string | number = carId) =>
        renter.get(`/api/v1/rentals/cars/${id}/quote?${new URLSearchParams(params)}`);
      const cases: Array<[Record<string, string>, string]> = [
        [{ to }, 'from'],
        [{ from }, 'to'],
        [{ from: to, to: from }, 'to'],
        [{ from: 'tomorrow', to }, 'from'],
        [{ from: `${from}\u0000`, to }, 'from'],
        [{ from: param(Date.now() - DAY), to }, 'from'],
        [{ from: param(today + 200 * DAY), to: param(today + 201 * DAY) }, 'from'],
        [{ from, to: param(today + 80 * DAY) }, 'to'],
        [{ from, to, pickup: 'rooftop' }, 'pickup'],
        [{ from, to, pickup: 'delivery' }, 'pinCode'],
        [{ from, to, pickup: 'delivery', pinCode: '110001' }, 'pinCode'],
        [{ from, to, protection: 'maybe' }, 'protection'],
        [{ from, to, payment: 'cash' }, 'payment'],
      ];
      for (const [params, field] of cases) {
        const body = await problemOf(await ask(params), 400);
        expect(Object.keys(body.fields ?? {}), JSON.stringify(params)).toContain(field);
      }
      for (const id of ['999999', '99999999999999999999', 'abc', '%00', `${cars.creta}`]) await problemOf(await ask({ from, to }, id), 404);
    });
  });

  describe('POST /me/bookings/:id/pay', () => {
    /** An online booking made on the booking page, its order not made yet (the pay page was never opened). */
    async function onlineBooking(daysAhead: number): Promise<number> {
      const fromMs = today + daysAhead * DAY + 10 * HOUR;
      const query = new URLSearchParams({ from: param(fromMs), to: param(fromMs + DAY) });
      const response = await renter.postForm(`/rent/${carId}/book?${query}`, { pickup: 'hub', payment: 'razorpay' });
      expect(response.status).toBe(302);
      return Number(/^\/profile\/bookings\/(\d+)\/pay$/.exec(response.headers.get('location') ?? '')?.[1]);
    }

    it('answers twenty requests at once with the one order the booking keeps, then takes Checkout’s answer', async () => {
      const id = await onlineBooking(20);
      const answers = await Promise.all(Array.from({ length: 20 }, () => renter.request(`/api/v1/me/bookings/${id}/pay`, { method: 'POST' })));
      expect(answers.map((answer) => answer.status)).toEqual(Array<number>(20).fill(200));
      const bodies = await Promise.all(answers.map(async (answer) => paymentStartSchema.parse(await answer.json())));
      const orderIds = new Set(bodies.map((body) => body.orderId));
      expect(orderIds.size).toBe(1);
      const [orderId] = [...orderIds];
      // One day (24 hours): ₹1,800 rent + ₹324 GST = ₹2,124, paid online; in paise for Checkout.
      expect(bodies[0]).toMatchObject({
        provider: 'razorpay',
        keyId: STANDIN_KEY_ID,
        amountPaise: 212_400,
        amountRupees: 2124,
        currency: 'INR',
        bookingId: id,
        prefill: { name: 'Meera Iyer' },
      });
      expect(bodies[0]!.booking).toMatchObject({
        id,
        status: 'requested',
        paymentMethod: 'razorpay',
        amountPaid: 0,
        holdExpiresAt: expect.stringMatching(/\+05:30$/),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?\+05:30$/),
      });
      expect(standin.orders.find((order) => order.id === orderId)).toMatchObject({ amount: 212_400, receipt: `booking-${id}` });
      // Paying later asks again: the same order.
      expect(paymentStartSchema.parse(await (await renter.request(`/api/v1/me/bookings/${id}/pay`, { method: 'POST' })).json()).orderId).toBe(orderId);

      const paid = await renter.request(`/api/v1/me/bookings/${id}/payment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(standin.pay(orderId!)),
      });
      expect(paid.status, await paid.clone().text()).toBe(200);
      expect((await paid.json()) as { booking: { amountPaid: number } }).toMatchObject({ booking: { amountPaid: 2124 } });
      // Nothing is left to pay.
      await problemOf(await renter.request(`/api/v1/me/bookings/${id}/pay`, { method: 'POST' }), 409);
    });

    it('refuses a booking that is not mine, not one, or paid at pickup, and a request without a session', async () => {
      const id = await onlineBooking(24);
      expect((await problemOf(await stranger.request(`/api/v1/me/bookings/${id}/pay`, { method: 'POST' }), 404)).detail).toBe('This booking was not found.');
      for (const bad of ['999999', '99999999999999999999', 'abc', '%00', '0'])
        await problemOf(await renter.request(`/api/v1/me/bookings/${bad}/pay`, { method: 'POST' }), 404);
      await problemOf(await new HttpClient(server.url).request(`/api/v1/me/bookings/${id}/pay`, { method: 'POST' }), 401);
      // A forged session cookie is no session.
      const forged = await new HttpClient(server.url).request(`/api/v1/me/bookings/${id}/pay`, {
        method: 'POST',
        headers: { cookie: `${SESSION_COOKIE_NAME}=forged.${'x'.repeat(40)}` },
      });
      await problemOf(forged, 401);
      // A malformed body is not read: the booking alone says what to pay.
      const withJunk = await renter.request(`/api/v1/me/bookings/${id}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"amount": 1',
      });
      expect(paymentStartSchema.parse(await withJunk.json()).amountRupees).toBe(2124);

      const fromMs = today + 30 * DAY + 10 * HOUR;
      const atPickup = await renter.request('/api/v1/rentals/bookings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ carId, from: param(fromMs), to: param(fromMs + DAY), pickup: 'hub', payment: 'pay-at-pickup' }),
      });
      expect(atPickup.status, await atPickup.clone().text()).toBe(201);
      const { booking } = (await atPickup.json()) as { booking: { id: number } };
      await problemOf(await renter.request(`/api/v1/me/bookings/${booking.id}/pay`, { method: 'POST' }), 409);

      // Booking online through the API answers the Checkout at once, amount in both units; paying later asks for the same order.
      const onlineFrom = today + 36 * DAY + 10 * HOUR;
      const online = await renter.request('/api/v1/rentals/bookings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ carId, from: param(onlineFrom), to: param(onlineFrom + DAY), pickup: 'hub', payment: 'razorpay' }),
      });
      expect(online.status, await online.clone().text()).toBe(201);
      const created = (await online.json()) as {
        booking: { id: number };
        payment: { orderId: string; amount: number; amountPaise: number; amountRupees: number };
      };
      expect(created.payment).toMatchObject({ amount: 212_400, amountPaise: 212_400, amountRupees: 2124 });
      const later = paymentStartSchema.parse(await (await renter.request(`/api/v1/me/bookings/${created.booking.id}/pay`, { method: 'POST' })).json());
      expect(later.orderId).toBe(created.payment.orderId);
    });
  });

  describe('paged lists', () => {
    it('pages my bookings, my test drives and the fleet: { items, page, perPage, total }, perPage capped', async () => {
      const all = (await (await renter.get('/api/v1/me/bookings?perPage=1000')).json()) as {
        items: Array<{ id: number }>;
        page: number;
        perPage: number;
        total: number;
      };
      expect(all).toMatchObject({ page: 1, perPage: 50 });
      expect(all.total).toBeGreaterThanOrEqual(3);
      expect(all.items).toHaveLength(all.total);
      for (const item of all.items as Array<{ id: number; createdAt?: string }>) expect(item.createdAt).toMatch(/\+05:30$/);
      const second = (await (await renter.get('/api/v1/me/bookings?page=2&perPage=1')).json()) as typeof all;
      expect(second).toMatchObject({ page: 2, perPage: 1, total: all.total });
      expect(second.items.map((item) => item.id)).toEqual([all.items[1]!.id]);
      expect(((await (await renter.get('/api/v1/me/bookings?page=999')).json()) as typeof all).items).toEqual([]);

      expect(await (await renter.get('/api/v1/me/test-drives')).json()).toEqual({ items: [], page: 1, perPage: 20, total: 0 });
      const fleet = (await (await renter.get('/api/v1/rentals/cars?perPage=1')).json()) as typeof all;
      expect(fleet).toMatchObject({ page: 1, perPage: 1 });
      expect(fleet.items).toHaveLength(1);
      expect(fleet.total).toBeGreaterThan(1);

      for (const path of ['/api/v1/me/bookings', '/api/v1/me/test-drives']) {
        for (const query of ['page=0', 'page=-1', 'perPage=0', 'perPage=abc', 'page=1.5', 'page=%00', 'page=99999999999999999999']) {
          const body = await problemOf(await renter.get(`${path}?${query}`), 400);
          expect(Object.keys(body.fields ?? {}), `${path}?${query}`).toHaveLength(1);
        }
      }
      const fleetRefused = await renter.get('/api/v1/rentals/cars?page=0');
      expect(fleetRefused.status).toBe(400);
    });
  });
});
