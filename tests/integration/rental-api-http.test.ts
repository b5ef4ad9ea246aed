import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CancellationRefund } from '../../app/features/rentals/rental-price.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * The rental JSON API (/api/v1, the Android app's) through the running server with real
 * signed-in sessions, on SQLite and PostgreSQL: another person's booking is never shown or
 * cancelled (404, nothing of it in the answer); malformed bodies get 400 or 422 with the
 * reason, never 500; twenty identical booking requests at once give exactly one 201 and 409s;
 * and the reasons a person cannot book yet (no verified phone, no licence, under age).
 */

const shared = sharedServer();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type BookingAnswer = { booking: { id: number; carId: number; status: string; from: string; to: string }; quote: { rent: number } };
type ErrorAnswer = { detail: string; reason?: string; fields?: Record<string, string> };

async function photo(red: number): Promise<Blob> {
  const bytes = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: red, g: 90, b: 60 } } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

/** India's calendar date `years` years and `days` days before now, as a date of birth. */
function bornYearsAgo(years: number, days = 0): string {
  const date = new Date(Date.now() - days * DAY);
  date.setUTCFullYear(date.getUTCFullYear() - years);
  return date.toISOString().slice(0, 10);
}

async function person(
  server: TestServer,
  label: string,
  options: { phone: boolean; licence: { number: string; dateOfBirth: string } | null },
): Promise<HttpClient> {
  const client = new HttpClient(server.url);
  await signUp(client, uniqueEmail(label));
  if (options.phone) await completeProfile(client, `${label} Test`, uniqueMobile());
  if (options.licence) {
    const form = new FormData();
    form.append('number', options.licence.number);
    form.append('dateOfBirth', options.licence.dateOfBirth);
    form.append('front', await photo(200), 'front.jpg');
    form.append('back', await photo(40), 'back.jpg');
    const response = await client.request('/api/v1/me/licence', { method: 'POST', body: form });
    expect(response.status, await response.clone().text()).toBe(201);
  }
  return client;
}

function postJson(client: HttpClient, path: string, body: string, contentType = 'application/json'): Promise<Response> {
  return client.request(path, { method: 'POST', headers: { 'content-type': contentType }, body });
}

describe.skipIf(!shared.url)(`rental JSON API with signed-in sessions (${shared.dialect})`, () => {
  let server: TestServer;
  let asha: HttpClient;
  let bharat: HttpClient;
  let chitra: HttpClient;
  let carId: number;
  let otherCarId: number;
  /** Ten days ahead, 10:00 India time, for two days. */
  let from: string;
  let to: string;
  let ashaBooking: BookingAnswer['booking'];

  beforeAll(async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: true, env: { APP_MODE: 'demo', TRUST_PROXY: 'true' } });
    const fleet = (await (await fetch(`${server.url}/api/v1/rentals/cars`)).json()) as { items: Array<{ id: number; minAge: number; minHours: number }> };
    const bookable = fleet.items.filter((car) => car.minAge <= 21 && car.minHours <= 24);
    expect(bookable.length).toBeGreaterThan(1);
    carId = bookable[0]!.id;
    otherCarId = bookable[1]!.id;
    const day = Math.floor((Date.now() + 5.5 * HOUR) / DAY) * DAY - 5.5 * HOUR;
    from = indiaDateTimeParam(day + 10 * DAY + 10 * HOUR);
    to = indiaDateTimeParam(day + 12 * DAY + 10 * HOUR);
    [asha, bharat, chitra] = await Promise.all([
      person(server, 'asha', { phone: true, licence: { number: 'KA0120150001234', dateOfBirth: '1990-04-12' } }),
      person(server, 'bharat', { phone: true, licence: { number: 'MH1220120004321', dateOfBirth: '1987-09-30' } }),
      person(server, 'chitra', { phone: true, licence: { number: 'DL0420180007777', dateOfBirth: '1995-01-20' } }),
    ]);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('books one car once when twenty identical requests arrive at the same moment: one 201, the others 409', async () => {
    const body = JSON.stringify({ carId, from, to, pickup: 'hub' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => postJson(asha, '/api/v1/rentals/bookings', body)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    const bodies = await Promise.all(answers.map(async (answer) => ({ status: answer.status, body: (await answer.json()) as BookingAnswer & ErrorAnswer })));
    const created = bodies.find((answer) => answer.status === 201)!.body;
    expect(created.booking).toMatchObject({ carId, status: 'requested', from: expect.stringMatching(/\+05:30$/) });
    for (const refused of bodies.filter((answer) => answer.status === 409)) expect(refused.body.detail).toMatch(/\w/);
    ashaBooking = created.booking;
    const mine = (await (await asha.get('/api/v1/me/bookings')).json()) as { items: Array<{ id: number }> };
    expect(mine.items.map((item) => item.id)).toEqual([ashaBooking.id]);
  });

  it('never shows or cancels another person’s booking: 404 with nothing of it in the answer', async () => {
    const path = `/api/v1/me/bookings/${ashaBooking.id}`;
    const answers = [
      await bharat.get(path),
      await bharat.get(`${path}/cancel`),
      await postJson(bharat, `${path}/cancel`, '{}'),
      await postJson(bharat, `${path}/payment`, '{}'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      const text = await answer.text();
      expect(text).not.toContain(from.slice(0, 10));
      expect(text).not.toContain('"carId"');
      expect((JSON.parse(text) as ErrorAnswer).detail).toBe('This booking was not found.');
    }
    // The same answer as for a booking that does not exist at all: an id tells nothing.
    const missing = await bharat.get('/api/v1/me/bookings/999999');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ErrorAnswer).detail).toBe('This booking was not found.');
    expect(((await (await bharat.get('/api/v1/me/bookings')).json()) as { items: unknown[] }).items).toEqual([]);
    // Signed out: asked to sign in, nothing more.
    const stranger = new HttpClient(server.url);
    expect((await stranger.get(path)).status).toBe(401);
    expect((await postJson(stranger, `${path}/cancel`, '{}')).status).toBe(401);
    // Still Asha's and still holding the car.
    const own = (await (await asha.get(path)).json()) as { status: string };
    expect(own.status).toBe('requested');
  });

  it('answers malformed booking bodies with 400 and the reason, never 500', async () => {
    const valid = { carId: otherCarId, from, to, pickup: 'hub' };
    const cases: Array<{ name: string; body: string; field?: string }> = [
      { name: 'not JSON', body: '{"carId": 1,' },
      { name: 'empty', body: '' },
      { name: 'null', body: 'null' },
      { name: 'an array', body: JSON.stringify([valid]) },
      { name: 'a string', body: JSON.stringify('book it') },
      { name: 'a number', body: '42' },
      { name: 'no car', body: JSON.stringify({ ...valid, carId: undefined }), field: 'carId' },
      { name: 'a huge car id', body: JSON.stringify({ ...valid, carId: 1e20 }), field: 'carId' },
      { name: 'a huge car id as text', body: JSON.stringify({ ...valid, carId: '99999999999999999999999' }), field: 'carId' },
      { name: 'a negative car id', body: JSON.stringify({ ...valid, carId: -3 }), field: 'carId' },
      { name: 'a fractional car id', body: JSON.stringify({ ...valid, carId: 1.5 }), field: 'carId' },
      { name: 'a car id object', body: JSON.stringify({ ...valid, carId: { id: 1 } }), field: 'carId' },
      { name: 'a NUL byte in the car id', body: JSON.stringify({ ...valid, carId: `${otherCarId}\u0000` }), field: 'carId' },
      { name: 'a NUL byte in a date', body: JSON.stringify({ ...valid, from: `${from.slice(0, 10)}\u0000T10:00` }), field: 'from' },
      { name: 'an impossible date', body: JSON.stringify({ ...valid, from: '2026-02-30T10:00' }), field: 'from' },
      { name: 'a date with an offset', body: JSON.stringify({ ...valid, to: `${to}+05:30` }), field: 'to' },
      { name: 'a date as a number', body: JSON.stringify({ ...valid, to: Date.now() + 20 * DAY }), field: 'to' },
      { name: 'no dates', body: JSON.stringify({ carId: otherCarId }), field: 'from' },
      { name: 'reversed dates', body: JSON.stringify({ ...valid, from: to, to: from }), field: 'to' },
      { name: 'a passed date', body: JSON.stringify({ ...valid, from: '2021-03-01T10:00', to: '2021-03-02T10:00' }), field: 'from' },
      { name: 'beyond the horizon', body: JSON.stringify({ ...valid, from: '2999-03-01T10:00', to: '2999-03-02T10:00' }), field: 'from' },
      { name: 'an unknown pickup', body: JSON.stringify({ ...valid, pickup: 'airport' }), field: 'pickup' },
      { name: 'an unknown payment', body: JSON.stringify({ ...valid, payment: 'cash-on-moon' }), field: 'payment' },
      { name: 'a very long PIN code with a NUL byte', body: JSON.stringify({ ...valid, pickup: 'delivery', pinCode: `5600\u0000${'1'.repeat(10_000)}` }) },
    ];
    for (const { name, body, field } of cases) {
      const answer = await postJson(chitra, '/api/v1/rentals/bookings', body);
      expect([400, 422], `${name}: ${answer.status}`).toContain(answer.status);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const parsed = (await answer.json()) as ErrorAnswer;
      expect(parsed.detail.length, name).toBeGreaterThan(5);
      if (field) expect(Object.keys(parsed.fields ?? {}), name).toContain(field);
    }
    // None of them booked anything.
    expect(((await (await chitra.get('/api/v1/me/bookings')).json()) as { items: unknown[] }).items).toEqual([]);
  });

  it('answers malformed ids in the booking paths with 404, never 500', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999999', '%00', '1%00', '9007199254740993']) {
      for (const answer of [await chitra.get(`/api/v1/me/bookings/${id}`), await postJson(chitra, `/api/v1/me/bookings/${id}/cancel`, '{}')]) {
        expect(answer.status, id).toBe(404);
        expect(((await answer.json()) as ErrorAnswer).detail).toBe('This booking was not found.');
      }
    }
  });

  it('says why a person cannot book yet (422 with the reason): no verified phone, no licence, under age', async () => {
    const [noPhone, noLicence, young] = await Promise.all([
      person(server, 'deepa', { phone: false, licence: null }),
      person(server, 'esha', { phone: true, licence: null }),
      // 19 years old: may hold a licence, too young for the car's minimum of 21.
      person(server, 'farhan', { phone: true, licence: { number: 'TN0920250005555', dateOfBirth: bornYearsAgo(19, 30) } }),
    ]);
    const body = JSON.stringify({ carId: otherCarId, from, to, pickup: 'hub' });
    const expectations: Array<[HttpClient, string, RegExp]> = [
      [noPhone, 'phone', /verify your phone/i],
      [noLicence, 'licence', /driving licence/i],
      [young, 'age', /at least 21 years old/],
    ];
    for (const [client, reason, message] of expectations) {
      const answer = await postJson(client, '/api/v1/rentals/bookings', body);
      expect(answer.status, reason).toBe(422);
      const parsed = (await answer.json()) as ErrorAnswer;
      expect(parsed.reason).toBe(reason);
      expect(parsed.detail).toMatch(message);
    }
  });

  it('lets the owner cancel, with the refund in the answer, and then the car is free for another person', async () => {
    const preview = await asha.get(`/api/v1/me/bookings/${ashaBooking.id}/cancel`);
    expect(preview.status).toBe(200);
    const answer = await postJson(asha, `/api/v1/me/bookings/${ashaBooking.id}/cancel`, '{}');
    expect(answer.status).toBe(200);
    const parsed = (await answer.json()) as { booking: { status: string; amountPaid: number; amountRefunded: number }; refund: CancellationRefund };
    expect(parsed.booking.status).toBe('cancelled');
    // Ten days ahead is inside free cancellation, so no rent is kept; paying at pickup, nothing
    // was paid, so nothing goes back. The preview said the same before the cancel.
    expect(parsed.refund).toEqual({ window: 'free', rentKept: 0, refund: 0 } satisfies CancellationRefund);
    expect(parsed.booking).toMatchObject({ amountPaid: 0, amountRefunded: 0 });
    expect(((await preview.json()) as { refund: CancellationRefund }).refund).toEqual(parsed.refund);
    const again = await postJson(bharat, '/api/v1/rentals/bookings', JSON.stringify({ carId, from, to, pickup: 'hub' }));
    expect(again.status).toBe(201);
  });
});
