import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, multipart, type ApiClient } from '../support/api/client.ts';
import { HttpClient, otpFrom, uniqueEmail, uniqueMobile, waitForOutbox } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * A buyer and renter's whole life through the Android app's API, on SQLite and PostgreSQL, with
 * the client generated from the served OpenAPI document (tests/support/api/client.ts): a path,
 * input or answer the document does not have fails the typecheck, and every answer passes the
 * contract check. The app signs in with a bearer token, never a cookie.
 */

const shared = sharedServer();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PASSWORD = 'journey-pass-7';

async function photo(red: number): Promise<Blob> {
  const bytes = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: red, g: 90, b: 60 } } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

/** Midnight India time `days` days from today, in ms. */
function indiaDay(days: number): number {
  return Math.floor((Date.now() + 5.5 * HOUR) / DAY) * DAY - 5.5 * HOUR + days * DAY;
}

describe.skipIf(!shared.url)(`the app's journey through the generated API client (${shared.dialect})`, () => {
  let server: TestServer;
  let razorpay: RazorpayStandin;
  /** The machine's own view: the outbox (mail and SMS) and the bot check's puzzles, which the app solves as the site's script does. */
  let browser: HttpClient;
  let app: ApiClient;
  const email = uniqueEmail('journey');
  const mobile = uniqueMobile();
  let bookingId: number;
  /** The token sign-up answered: a second device, revoked later. */
  let signUpToken: string;

  beforeAll(async () => {
    razorpay = await startRazorpayStandin();
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: {
        RAZORPAY_KEY_ID: STANDIN_KEY_ID,
        RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
        RAZORPAY_API_URL: razorpay.url,
        TRUST_PROXY: 'true',
      },
    });
    browser = new HttpClient(server.url);
    app = apiClient(server.url, { address: browser.address });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await razorpay?.close();
  });

  it('signs up, verifies the email by the token in the mail, and signs in for a token', async () => {
    const signedUp = await app.POST('/auth/sign-up', { body: { name: 'Journey Test', email, password: PASSWORD } });
    expect(signedUp.response.status, JSON.stringify(signedUp.error)).toBe(201);
    expect(signedUp.data!.user).toMatchObject({ email, emailVerified: false });
    signUpToken = signedUp.data!.token;

    const mail = await waitForOutbox(browser, 'email', email);
    const link = mail.links.find((candidate) => candidate.includes('verify-email'));
    const token = new URL(link!).searchParams.get('token')!;
    app.useToken(signUpToken);
    const verified = await app.POST('/auth/verify-email', { body: { token } });
    expect(verified.data, JSON.stringify(verified.error)).toEqual({ verified: true });

    const signedIn = await app.POST('/auth/sign-in', { body: { email, password: PASSWORD, botCheck: await browser.botToken('LOGIN') } });
    expect(signedIn.response.status, JSON.stringify(signedIn.error)).toBe(200);
    expect(signedIn.data!.user).toMatchObject({ email, emailVerified: true });
    expect(signedIn.data!.token).not.toBe(signUpToken);
    app.useToken(signedIn.data!.token);
  });

  it('verifies the phone by the code sent by SMS', async () => {
    const sent = await app.POST('/me/phone/code', { body: { phone: mobile, countryCode: '+91', botCheck: await browser.botToken('SEND_OTP') } });
    expect(sent.data).toEqual({ sent: true, phone: `+91${mobile}`, channel: 'sms' });
    const sms = await waitForOutbox(browser, 'sms', `+91${mobile}`);
    const verified = await app.POST('/me/phone/verify', { body: { phone: mobile, countryCode: '+91', otp: otpFrom(sms.body), name: 'Journey Test' } });
    expect(verified.response.status, JSON.stringify(verified.error)).toBe(200);
  });

  it('filters the catalogue by budget and fuel, and each facet count is what its listing shows', async () => {
    const all = await app.GET('/vehicles', { params: { query: { perPage: '5' } } });
    const budget = all.data!.facets.budget.find((option) => option.count > 0)!;
    const inBudget = await app.GET('/vehicles', { params: { query: { budget: budget.value } } });
    expect(inBudget.data!.total).toBe(budget.count);
    const fuel = inBudget.data!.facets.fuel.find((option) => option.count > 0)!;
    const filtered = await app.GET('/vehicles', { params: { query: { budget: budget.value, fuel: fuel.value } } });
    expect(filtered.data!.total).toBe(fuel.count);
    expect(filtered.data!.items.length).toBeGreaterThan(0);
    for (const car of filtered.data!.items) expect(car.fuelType.toLowerCase()).toBe(fuel.value.toLowerCase());
  });

  it('adds two cars to the wishlist, which then lists both', async () => {
    const listing = await app.GET('/vehicles', { params: { query: { perPage: '2' } } });
    const chosen = listing.data!.items.map((car) => car.id);
    expect(chosen).toHaveLength(2);
    for (const vehicleId of chosen) {
      const added = await app.POST('/me/wishlist', { body: { vehicleId } });
      expect(added.data, JSON.stringify(added.error)).toMatchObject({ vehicleId, wishlisted: true });
    }
    const wishlist = await app.GET('/me/wishlist');
    expect(wishlist.data!.total).toBe(2);
    expect(wishlist.data!.items.map((item) => item.vehicleId).sort()).toEqual([...chosen].sort());
  });

  it('asks the dealer for a car it does not list, and offers its own car with two photos', async () => {
    const requested = await app.POST('/vehicle-requests', {
      body: {
        name: 'Journey Test',
        phone: mobile,
        model: 'Maruti Swift VXi',
        year: '2019',
        budget: '₹5,00,000',
        description: 'White, petrol',
        botCheck: await browser.botToken('REQUEST_FORM'),
      },
    });
    expect(requested.response.status, JSON.stringify(requested.error)).toBe(201);
    expect(requested.data!.sent).toBe(true);

    const offered = await app.POST('/sell-offers', {
      body: {
        name: 'Journey Test',
        phone: mobile,
        vehicle: 'Hyundai i20 Asta',
        year: '2018',
        price: '4,50,000',
        description: 'Single owner, 42,000 km',
        botCheck: await browser.botToken('SELL_FORM'),
        images: [new File([await photo(180)], 'front.jpg', { type: 'image/jpeg' }), new File([await photo(30)], 'back.jpg', { type: 'image/jpeg' })],
      },
      bodySerializer: multipart,
    });
    expect(offered.response.status, JSON.stringify(offered.error)).toBe(201);
    expect(offered.data!.imageUrls).toHaveLength(2);
    expect(offered.data!.imagesFailed).toBe(false);
  });

  it('books a test drive in a free slot, which then lists among my test drives', async () => {
    const listing = await app.GET('/vehicles', { params: { query: { perPage: '10' } } });
    const car = listing.data!.items.find((item) => item.status === 'available')!;
    const date = new Date(indiaDay(3) + 5.5 * HOUR).toISOString().slice(0, 10);
    const slots = await app.GET('/test-drives/slots', { params: { query: { vehicleId: car.id, date } } });
    const slot = slots.data!.slots.find((candidate) => candidate.remaining > 0)!;
    const booked = await app.POST('/test-drives', { body: { vehicleId: car.id, slot: slot.start, mode: 'hub' } });
    expect(booked.response.status, JSON.stringify(booked.error)).toBe(201);
    expect(booked.data!.testDrive).toMatchObject({ vehicleId: car.id, slot: slot.start, status: 'booked' });
    const mine = await app.GET('/me/test-drives');
    expect(mine.data!.items.map((drive) => drive.id)).toEqual([booked.data!.testDrive.id]);
  });

  it('uploads a licence, gets a rental quote, books a car paying online and cancels it with the refund shown', async () => {
    const licence = await app.POST('/me/licence', {
      body: { number: 'KA0120150009876', dateOfBirth: '1990-04-12', front: await photo(200), back: await photo(40) },
      bodySerializer: multipart,
    });
    expect(licence.response.status, JSON.stringify(licence.error)).toBe(201);
    expect(licence.data!.licence).toMatchObject({ status: 'pending' });

    const from = indiaDateTimeParam(indiaDay(10) + 10 * HOUR);
    const to = indiaDateTimeParam(indiaDay(12) + 10 * HOUR);
    const fleet = await app.GET('/rentals/cars', { params: { query: { from, to } } });
    const car = fleet.data!.items.find((item) => item.available && item.minAge <= 21 && item.minHours <= 48)!;
    const quoted = await app.GET('/rentals/cars/{id}/quote', { params: { path: { id: car.id }, query: { from, to, pickup: 'hub', payment: 'razorpay' } } });
    expect(quoted.response.status, JSON.stringify(quoted.error)).toBe(200);
    expect(quoted.data).toMatchObject({ carId: car.id, available: true, payment: 'razorpay' });
    expect(quoted.data!.quote.payableNow).toBeGreaterThan(0);
    expect(quoted.data!.totals.find((line) => line.key === 'now')?.amount).toBe(quoted.data!.quote.payableNow);

    const booked = await app.POST('/rentals/bookings', { body: { carId: car.id, from, to, pickup: 'hub', payment: 'razorpay' } });
    expect(booked.response.status, JSON.stringify(booked.error)).toBe(201);
    expect(booked.data!.quote.total).toBe(quoted.data!.quote.total);
    const checkout = booked.data!.payment!;
    expect(checkout.amountRupees).toBe(quoted.data!.quote.payableNow);
    bookingId = booked.data!.booking.id;
    // The person pays in Razorpay's Checkout, which hands its signed answer to the app.
    const paid = await app.POST('/me/bookings/{id}/payment', { params: { path: { id: bookingId } }, body: razorpay.pay(checkout.orderId) });
    expect(paid.response.status, JSON.stringify(paid.error)).toBe(200);
    expect(paid.data!.booking.amountPaid).toBe(checkout.amountRupees);

    // Ten days ahead is free cancellation: everything paid goes back, as the preview says first.
    const preview = await app.GET('/me/bookings/{id}/cancel', { params: { path: { id: bookingId } } });
    expect(preview.response.status, JSON.stringify(preview.error)).toBe(200);
    expect(preview.data!.refund).toMatchObject({ window: 'free', rentKept: 0, refund: checkout.amountRupees });
    const cancelled = await app.POST('/me/bookings/{id}/cancel', { params: { path: { id: bookingId } } });
    expect(cancelled.response.status, JSON.stringify(cancelled.error)).toBe(200);
    expect(cancelled.data!.booking.status).toBe('cancelled');
    expect(cancelled.data!.refund).toEqual(preview.data!.refund);
  });

  it('lists its signed-in devices and revokes the other one, whose token is refused at once', async () => {
    const other = apiClient(server.url, { address: browser.address });
    other.useToken(signUpToken);
    expect((await other.GET('/me/devices')).response.status).toBe(200);

    const devices = await app.GET('/me/devices');
    expect(devices.response.status, JSON.stringify(devices.error)).toBe(200);
    expect(devices.data!.items).toHaveLength(2);
    expect(devices.data!.items.map((device) => device.kind)).toEqual(['app', 'app']);
    const current = devices.data!.items.filter((device) => device.current);
    expect(current).toHaveLength(1);
    const signUpDevice = devices.data!.items.find((device) => !device.current)!;

    const revoked = await app.DELETE('/me/devices/{id}', { params: { path: { id: signUpDevice.id } } });
    expect(revoked.data, JSON.stringify(revoked.error)).toEqual({ revoked: true });
    expect((await other.GET('/me/devices')).response.status).toBe(401);
    const left = await app.GET('/me/devices');
    expect(left.data!.items.map((device) => device.id)).toEqual([current[0]!.id]);
  });

  it('downloads my data, deletes the account, and its token is refused at once', async () => {
    const data = await app.GET('/me/data');
    expect(data.response.status, JSON.stringify(data.error)).toBe(200);
    expect(JSON.stringify(data.data)).toContain(email);

    const deleted = await app.POST('/me/delete', { body: { password: PASSWORD } });
    expect(deleted.response.status, JSON.stringify(deleted.error)).toBe(200);
    expect(deleted.data!.deleted).toBe(true);

    const after = await app.GET('/me/data');
    expect(after.response.status).toBe(401);
    const bookings = await app.GET('/me/bookings/{id}', { params: { path: { id: bookingId } } });
    expect(bookings.response.status).toBe(401);
  });
});
