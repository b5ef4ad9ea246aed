import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * The quote in lines (decision 066) through the app API of the running server, on SQLite and
 * PostgreSQL: rent and GST, damage protection and delivery when chosen, the deposit apart and
 * never in the total; delivery outside the served PIN codes refused with a sentence saying so; a
 * booking stores the lines it was quoted and gives them back; Razorpay is asked for the total
 * (never the deposit) and the signed webhook pays the booking only for exactly that.
 */

const shared = sharedServer();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Line = { kind: string; label: string; amount: number };
type Quote = {
  lines: Line[];
  total: number;
  deposit: number;
  depositAt: string;
  payableNow: number;
  dueAtPickup: number;
  gst: number;
  gstPercent: number;
  protection: number;
  deliveryFee: number;
  rent: number;
};
type Car = {
  id: number;
  delivery: boolean;
  minAge: number;
  minHours: number;
  deposit: number;
  quote: Quote | null;
  facts: Array<{ key: string; text: string }>;
};

async function photo(red: number): Promise<Blob> {
  const bytes = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: red, g: 90, b: 60 } } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

describe.skipIf(!shared.url)(`the rental quote in lines (${shared.dialect})`, () => {
  let server: TestServer;
  let standin: RazorpayStandin;
  let database: Database;
  let renter: HttpClient;
  let car: Car;
  let from: string;
  let to: string;

  beforeAll(async () => {
    standin = await startRazorpayStandin();
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: {
        APP_MODE: 'demo',
        TRUST_PROXY: 'true',
        RAZORPAY_KEY_ID: STANDIN_KEY_ID,
        RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
        RAZORPAY_API_URL: standin.url,
        RAZORPAY_CHECKOUT_URL: standin.checkoutUrl,
      },
    });
    database = openServerDatabase(server);
    const fleet = (await (await fetch(`${server.url}/api/v1/rentals/cars`)).json()) as { items: Car[] };
    car = fleet.items.find((item) => item.delivery && item.minAge <= 21 && item.minHours <= 24)!;
    expect(car).toBeDefined();
    // Two days and three hours, three weeks ahead (clear of the demo's seeded week), 10:00 India time.
    const day = Math.floor((Date.now() + 5.5 * HOUR) / DAY) * DAY - 5.5 * HOUR;
    from = indiaDateTimeParam(day + 21 * DAY + 10 * HOUR);
    to = indiaDateTimeParam(day + 23 * DAY + 13 * HOUR);
    renter = new HttpClient(server.url);
    await signUp(renter, uniqueEmail('quote'));
    await completeProfile(renter, 'Quote Test', uniqueMobile());
    const form = new FormData();
    form.append('number', 'KA0120150009876');
    form.append('dateOfBirth', '1990-04-12');
    form.append('front', await photo(200), 'front.jpg');
    form.append('back', await photo(40), 'back.jpg');
    expect((await renter.request('/api/v1/me/licence', { method: 'POST', body: form })).status).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
    await standin?.close();
  });

  async function quote(query: Record<string, string>): Promise<{ status: number; body: Car & { detail?: string; fields?: Record<string, string> } }> {
    const response = await fetch(`${server.url}/api/v1/rentals/cars/${car.id}?${new URLSearchParams({ from, to, ...query })}`);
    return { status: response.status, body: (await response.json()) as Car & { detail?: string; fields?: Record<string, string> } };
  }

  const sum = (lines: Line[]) => lines.reduce((total, line) => total + line.amount, 0);

  it('quotes rent and GST with the deposit apart; protection and delivery add their lines, with GST on them', async () => {
    const terms = (await (await fetch(`${server.url}/api/v1/rentals/terms`)).json()) as {
      facts: Array<{ key: string; text: string }>;
      policy: { gstPercent: number; protectionPerDay: number; deliveryFee: number };
    };
    expect(terms.policy).toMatchObject({ gstPercent: 18, protectionPerDay: 250, deliveryFee: 500 });
    expect(terms.facts.map((fact) => fact.key)).toEqual(['deposit-return', 'refund', 'late-return', 'cancellation', 'protection', 'delivery', 'gst']);

    const plain = await quote({});
    expect(plain.status).toBe(200);
    const bare = plain.body.quote!;
    expect(bare.lines.map((line) => line.kind)).toEqual(['rent', 'gst']);
    expect(bare.total).toBe(sum(bare.lines));
    expect(bare.gst).toBe(Math.round(bare.rent * 0.18));
    expect(bare).toMatchObject({ deposit: car.deposit, depositAt: 'pickup', payableNow: 0, dueAtPickup: bare.total + car.deposit });
    expect(plain.body.facts.map((fact) => fact.key)).toEqual(['km', 'fuel', 'deposit', 'driver']);

    const chosen = await quote({ protection: 'true', pickup: 'delivery', pinCode: '400069' });
    expect(chosen.status).toBe(200);
    const full = chosen.body.quote!;
    // 51 hours are three started days of protection.
    expect(full.lines.map((line) => [line.kind, line.amount])).toEqual([
      ['rent', bare.rent],
      ['protection', 750],
      ['delivery', 500],
      ['gst', Math.round((bare.rent + 750 + 500) * 0.18)],
    ]);
    expect(full.total).toBe(sum(full.lines));
    expect(full.deposit).toBe(car.deposit);
  });

  it("refuses delivery outside the areas we visit, or without a PIN code, with a sentence saying so (the home visits' own, decision 097)", async () => {
    const outside = await quote({ pickup: 'delivery', pinCode: '110001' });
    expect(outside.status).toBe(400);
    const notVisited = "We don't visit 110001 yet. Please come to our hub at Plot 14, Andheri-Kurla Road, Andheri East, Mumbai 400069.";
    expect(outside.body.detail).toBe(notVisited);
    expect(outside.body.fields).toEqual({ pinCode: notVisited });
    const nearby = await quote({ pickup: 'delivery', pinCode: '400071' });
    expect(nearby.body.fields?.pinCode).toContain('Nearest area we visit: Saki Naka — 400072, or come to our hub at ');
    const none = await quote({ pickup: 'delivery' });
    expect(none.status).toBe(400);
    expect(none.body.fields?.pinCode).toBe('Please enter the 6-digit PIN code of your address.');
    const booked = await renter.request('/api/v1/rentals/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ carId: car.id, from, to, pickup: 'delivery', pinCode: '110001', deliveryAddress: 'Connaught Place, New Delhi' }),
    });
    expect(booked.status).toBe(400);
    expect(((await booked.json()) as { fields: Record<string, string> }).fields.pinCode).toContain("We don't visit 110001 yet.");
    // Choices that are not choices: a clear 400 naming the field, never a 500.
    const maybe = await quote({ protection: 'maybe' });
    expect(maybe.status).toBe(400);
    expect(maybe.body.fields?.protection).toBe('protection must be true or false.');
    for (const [deliveryAddress, message] of [
      [42, 'deliveryAddress must be text.'],
      ['x'.repeat(301), 'The delivery address can be at most 300 characters.'],
      ['', 'Please enter the address to deliver the car to.'],
    ] as const) {
      const answer = await renter.request('/api/v1/rentals/bookings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ carId: car.id, from, to, pickup: 'delivery', pinCode: '400069', deliveryAddress }),
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { fields: Record<string, string> }).fields.deliveryAddress).toBe(message);
    }
  });

  it('stores the lines it quoted and gives them back; Razorpay is asked for the total, and the webhook pays only exactly that', async () => {
    const quoted = (await quote({ protection: 'true', pickup: 'delivery', pinCode: '400069' })).body.quote!;
    const response = await renter.request('/api/v1/rentals/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        carId: car.id,
        from,
        to,
        pickup: 'delivery',
        pinCode: '400069',
        deliveryAddress: 'Flat 2, Marol Road, Andheri East',
        protection: true,
        payment: 'razorpay',
      }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const made = (await response.json()) as {
      booking: { id: number; protection: boolean; deliveryAddress: string; quote: Quote };
      payment: { orderId: string; amount: number };
    };
    expect(made.booking).toMatchObject({ protection: true, deliveryAddress: 'Flat 2, Marol Road, Andheri East' });
    expect(made.booking.quote.lines).toEqual(quoted.lines);
    expect(made.booking.quote).toMatchObject({ total: quoted.total, deposit: quoted.deposit, payableNow: quoted.total, dueAtPickup: quoted.deposit });
    // Razorpay's order is for the total: the deposit is collected at pickup.
    expect(made.payment.amount).toBe(quoted.total * 100);

    const row = await database.db
      .selectFrom('rental_bookings')
      .select(['quote', 'protection', 'delivery_address'])
      .where('id', '=', made.booking.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.protection)).toBe(1);
    expect(row.delivery_address).toBe('Flat 2, Marol Road, Andheri East');
    expect((JSON.parse(row.quote) as Quote).lines).toEqual(quoted.lines);
    const read = (await (await renter.request(`/api/v1/me/bookings/${made.booking.id}`)).json()) as { quote: Quote };
    expect(read.quote).toEqual(made.booking.quote);

    const webhook = (body: string) =>
      fetch(`${server.url}/api/v1/payments/razorpay/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': standin.webhookSignature(body) },
        body,
      });
    // The total with the deposit added (what the booking used to charge) is not what it owes.
    const withDeposit = standin.pay(made.payment.orderId, { amount: (quoted.total + quoted.deposit) * 100 });
    expect((await webhook(standin.webhookBody(made.payment.orderId, withDeposit.razorpay_payment_id))).status).toBe(200);
    const refused = (await (await renter.request(`/api/v1/me/bookings/${made.booking.id}`)).json()) as { amountPaid: number; status: string };
    expect(refused).toMatchObject({ amountPaid: 0, status: 'requested' });

    const exact = standin.pay(made.payment.orderId, { amount: quoted.total * 100 });
    expect((await webhook(standin.webhookBody(made.payment.orderId, exact.razorpay_payment_id))).status).toBe(200);
    const paid = (await (await renter.request(`/api/v1/me/bookings/${made.booking.id}`)).json()) as {
      amountPaid: number;
      status: string;
      holdExpiresAt: string | null;
    };
    expect(paid).toMatchObject({ amountPaid: quoted.total, status: 'requested', holdExpiresAt: null });
  });
});
