import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient, mainText, otpFrom, readOutbox, requestOtp, signUp, uniqueEmail, uniqueMobile, waitForOutbox } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import { verifiedPerson as verifiedPersonOn } from '../support/people.ts';
import type { Database } from '../../server/db/connection.ts';
import { createMailer } from '../../server/notify/mail.ts';
import { createJobSignal } from '../../server/jobs/worker.ts';
import { sendDueReminders } from '../../server/test-drives/notify.ts';
import { daySlots, DEFAULT_TEST_DRIVE_RULES, slotInstant, testDriveMessages } from '../../app/features/appointments/test-drives.ts';
import { createLogger } from '../../server/logger.ts';
import { systemClock } from '../../server/clock.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * Test-drive booking (issue 11) on the real server, on SQLite and PostgreSQL: the slot rules
 * (opening hours, two hours' notice, a week ahead, capacity, places left), booking, moving and
 * cancelling through the API and the pages, hostile input, the admin's schedule behind the
 * guard with its audit log, the statistics, the reminder sent once, and the database's
 * guarantees under concurrency: ten bookings of one car in one slot at once give exactly one
 * booking; ten cars in one slot at once never pass the capacity.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
const CAPACITY = 2;

type Slot = { start: string; remaining: number };
type Summary = { id: number; status: string };

let server: TestServer;
let database: Database;
let admin: HttpClient;
let available: number[] = [];
let soldId: number;
/**
 * The server's clock starts at 11:30 India time tomorrow (TEST_CLOCK_START) and runs on from
 * there: the same time of day whenever the suite runs, so "two hours ahead" has one answer.
 */
const today = addDays(indiaDay(Date.now()), 1);
const SERVER_CLOCK_START = `${today}T11:30:00+05:30`;

/** Each test takes hours no other test uses, from tomorrow on (always two hours or more ahead, within opening hours). */
let slotsTaken = 0;
function freshSlot(): string {
  const index = slotsTaken++;
  const day = addDays(today, 1 + Math.floor(index / 9));
  return `${day}T${String(10 + (index % 9)).padStart(2, '0')}:00`;
}
let carsTaken = 0;
function freshCar(): number {
  const id = available[carsTaken++ % available.length];
  if (id === undefined) throw new Error('no available car');
  return id;
}

/** A signed-up person whose phone is verified (set in the database: the OTP flow has its own tests). */
function verifiedPerson(label = 'buyer') {
  return verifiedPersonOn(server.url, database, { label, name: 'Asha Rao', password: PASSWORD });
}

function postJson(client: HttpClient, path: string, body: unknown, raw = false) {
  return client.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw ? (body as string) : JSON.stringify(body) });
}

async function slotsOf(client: HttpClient, vehicleId: number, date: string): Promise<Slot[]> {
  const response = await client.get(`/api/v1/test-drives/slots?vehicleId=${vehicleId}&date=${date}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { slots: Slot[] }).slots;
}

async function remainingAt(client: HttpClient, vehicleId: number, slot: string): Promise<number | undefined> {
  return (await slotsOf(client, vehicleId, slot.slice(0, 10))).find((entry) => entry.start === slot)?.remaining;
}

describe.skipIf(!shared.url)(`test drives (${shared.dialect})`, () => {
  beforeAll(async () => {
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: {
        APP_MODE: 'demo',
        DEMO_ADMIN_PASSWORD: PASSWORD,
        TRUST_PROXY: 'true',
        ADMIN_EMAILS: ADMIN,
        SETTINGS_CACHE_SECONDS: '0',
        PAGE_CACHE_SECONDS: '0',
        LOG_LEVEL: 'warn',
        TEST_CLOCK_START: SERVER_CLOCK_START,
      },
    });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    const signIn = await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') });
    expect(signIn.status).toBe(302);
    // Test drives are for cars on sale; the demo's rental fleet offers none.
    const cars = await database.db.selectFrom('vehicles').select(['id', 'status']).where('purpose', '=', 'sale').orderBy('id').execute();
    available = cars.filter((car) => car.status === 'available').map((car) => car.id);
    expect(available.length).toBeGreaterThanOrEqual(12);
    const sold = cars.find((car) => car.status === 'sold');
    soldId = sold
      ? sold.id
      : (await database.db.updateTable('vehicles').set({ status: 'sold' }).where('id', '=', available.pop()!).returning('id').executeTakeFirstOrThrow()).id;
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  describe('slots', () => {
    it('offers one-hour slots from 10 am to 7 pm, India time, with the capacity left in each', async () => {
      const client = new HttpClient(server.url);
      const date = addDays(today, 3);
      const slots = await slotsOf(client, freshCar(), date);
      expect(slots.map((slot) => slot.start)).toEqual(['10', '11', '12', '13', '14', '15', '16', '17', '18'].map((hour) => `${date}T${hour}:00`));
      expect(slots.every((slot) => slot.remaining === CAPACITY)).toBe(true);
    });

    it('offers today only the slots 2 hours or more ahead, nothing before today and nothing past today + 6', async () => {
      const client = new HttpClient(server.url);
      const car = freshCar();
      // At 11:30 (and for the next half hour the file may take) the earliest is 13:30: 14:00 on.
      const offered = (await slotsOf(client, car, today)).map((slot) => slot.start);
      expect(offered).toEqual(['14', '15', '16', '17', '18'].map((hour) => `${today}T${hour}:00`));
      expect(offered).toEqual(daySlots(today, Date.parse(SERVER_CLOCK_START), DEFAULT_TEST_DRIVE_RULES));
      expect(await slotsOf(client, car, addDays(today, 6))).toHaveLength(9);
      expect(await slotsOf(client, car, addDays(today, 7))).toEqual([]);
      expect(await slotsOf(client, car, addDays(today, -1))).toEqual([]);
    });

    it('refuses a slot under two hours ahead with the reason', async () => {
      const person = await verifiedPerson('soon');
      const tooSoon = await postJson(person.client, '/api/v1/test-drives', { vehicleId: freshCar(), slot: `${today}T13:00`, mode: 'hub' });
      expect(tooSoon.status).toBe(400);
      expect(((await tooSoon.json()) as { detail: string }).detail).toBe(testDriveMessages.tooSoon(2));
    });

    it('answers a wrong vehicle or date with a clear 400 or 404, a sold car with 409', async () => {
      const client = new HttpClient(server.url);
      const date = addDays(today, 1);
      for (const query of [
        `vehicleId=abc&date=${date}`,
        `vehicleId=99999999999&date=${date}`,
        `vehicleId=1.5&date=${date}`,
        'vehicleId=1&date=2026-02-30',
        'vehicleId=1&date=tomorrow',
        'vehicleId=1',
        `vehicleId=%00&date=${date}`,
      ]) {
        const response = await client.get(`/api/v1/test-drives/slots?${query}`);
        expect(response.status, query).toBe(400);
        expect(((await response.json()) as { detail: string }).detail, query).toMatch(/vehicleId|date/);
      }
      expect((await client.get(`/api/v1/test-drives/slots?vehicleId=2147483647&date=${date}`)).status).toBe(404);
      const sold = await client.get(`/api/v1/test-drives/slots?vehicleId=${soldId}&date=${date}`);
      expect(sold.status).toBe(409);
      expect(((await sold.json()) as { detail: string }).detail).toBe(testDriveMessages.notForSale);
    });
  });

  describe('booking through the API', () => {
    it('books a slot (201), counts it in the places left, and sends the confirmation by mail and SMS with the link to reschedule or cancel', async () => {
      const person = await verifiedPerson();
      const car = freshCar();
      const other = freshCar();
      const slot = freshSlot();
      const response = await postJson(person.client, '/api/v1/test-drives', { vehicleId: car, slot, mode: 'hub' });
      expect(response.status).toBe(201);
      const { testDrive } = (await response.json()) as { testDrive: { id: number; slot: string; status: string; mode: string; vehicleId: number } };
      expect(testDrive).toMatchObject({ slot, status: 'booked', mode: 'hub', vehicleId: car });
      expect(await remainingAt(person.client, car, slot)).toBe(0);
      expect(await remainingAt(person.client, other, slot)).toBe(CAPACITY - 1);

      const outbox = await readOutbox(admin);
      const sms = outbox.find((entry) => entry.channel === 'sms' && entry.recipient === person.phone);
      const mail = outbox.find((entry) => entry.channel === 'email' && entry.recipient === person.email);
      expect(sms?.body).toMatch(/Test drive booked/);
      expect(sms?.body).toContain(`${server.url}/profile#test-drives`);
      expect(mail?.subject).toMatch(/Your test drive is booked/);
      expect(mail?.body).toContain(`Reschedule or cancel: ${server.url}/profile#test-drives`);

      const mine = (await (await person.client.get('/api/v1/me/test-drives')).json()) as { items: Array<{ id: number; changeable: boolean }> };
      expect(mine.items).toEqual([expect.objectContaining({ id: testDrive.id, changeable: true })]);
    });

    it('refuses a car already booked at that time, and a person already busy then, with 409', async () => {
      const [first, second] = [await verifiedPerson(), await verifiedPerson()];
      const car = freshCar();
      const slot = freshSlot();
      expect((await postJson(first.client, '/api/v1/test-drives', { vehicleId: car, slot, mode: 'hub' })).status).toBe(201);
      const taken = await postJson(second.client, '/api/v1/test-drives', { vehicleId: car, slot, mode: 'hub' });
      expect(taken.status).toBe(409);
      expect(((await taken.json()) as { detail: string }).detail).toBe(testDriveMessages.carTaken);
      const busy = await postJson(first.client, '/api/v1/test-drives', { vehicleId: freshCar(), slot, mode: 'hub' });
      expect(busy.status).toBe(409);
      expect(((await busy.json()) as { detail: string }).detail).toBe(testDriveMessages.youAreBusy);
    });

    it('needs a signed-in person (401) with a verified phone (422, reason phone, as for rentals)', async () => {
      const anonymous = new HttpClient(server.url);
      const body = { vehicleId: freshCar(), slot: freshSlot(), mode: 'hub' };
      expect((await postJson(anonymous, '/api/v1/test-drives', body)).status).toBe(401);
      expect((await anonymous.get('/api/v1/me/test-drives')).status).toBe(401);
      const unverified = new HttpClient(server.url);
      await signUp(unverified, uniqueEmail('unverified'), PASSWORD);
      const refused = await postJson(unverified, '/api/v1/test-drives', body);
      expect(refused.status).toBe(422);
      expect(await refused.json()).toMatchObject({ status: 422, detail: testDriveMessages.verifyPhoneFirst, reason: 'phone' });
    });

    it('answers hostile and wrong input with a clear 400, never a 500', async () => {
      const person = await verifiedPerson();
      const car = freshCar();
      const date = addDays(today, 2);
      const cases: Array<[string, unknown, boolean?]> = [
        ['not JSON', '{"vehicleId": 1,', true],
        ['an array', [1, 2]],
        ['null', null],
        ['a huge id', { vehicleId: 99999999999999, slot: `${date}T11:00`, mode: 'hub' }],
        ['a float id', { vehicleId: 1.5, slot: `${date}T11:00`, mode: 'hub' }],
        ['a NUL byte', { vehicleId: car, slot: `${date}T11:00\u0000`, mode: 'hub' }],
        ['half past', { vehicleId: car, slot: `${date}T11:30`, mode: 'hub' }],
        ['no such day', { vehicleId: car, slot: '2026-02-30T11:00', mode: 'hub' }],
        ['an unknown mode', { vehicleId: car, slot: `${date}T11:00`, mode: 'drone' }],
        ['home without a PIN', { vehicleId: car, slot: `${date}T11:00`, mode: 'home' }],
        ['a PIN of five digits', { vehicleId: car, slot: `${date}T11:00`, mode: 'home', pinCode: '40006' }],
        ['a PIN we do not serve', { vehicleId: car, slot: `${date}T11:00`, mode: 'home', pinCode: '110001' }],
        ['before opening', { vehicleId: car, slot: `${date}T09:00`, mode: 'hub' }],
        ['the closing hour', { vehicleId: car, slot: `${date}T19:00`, mode: 'hub' }],
        ['past the window', { vehicleId: car, slot: `${addDays(today, 7)}T11:00`, mode: 'hub' }],
        ['in the past', { vehicleId: car, slot: `${addDays(today, -1)}T11:00`, mode: 'hub' }],
        ['a slot as a number', { vehicleId: car, slot: 1234, mode: 'hub' }],
        ['an object for a PIN', { vehicleId: car, slot: `${date}T11:00`, mode: 'home', pinCode: { $ne: '' } }],
        ['home without a street', { vehicleId: car, slot: `${date}T11:00`, mode: 'home', pinCode: '400069', street: '  ' }],
        ['a NUL byte in the street', { vehicleId: car, slot: `${date}T11:00`, mode: 'home', pinCode: '400069', street: '12 Sea\u0000View' }],
        ['a street of a thousand letters', { vehicleId: car, slot: `${date}T11:00`, mode: 'home', pinCode: '400069', street: 'x'.repeat(1000) }],
        ['an object for a landmark', { vehicleId: car, slot: `${date}T11:00`, mode: 'home', pinCode: '400069', street: '12 Sea View', landmark: { $ne: '' } }],
      ];
      for (const [name, body, raw] of cases) {
        const response = await postJson(person.client, '/api/v1/test-drives', body, raw);
        expect(response.status, name).toBe(400);
        const answer = (await response.json()) as { detail: string };
        expect(answer.detail, name).toBeTruthy();
        expect(answer.detail, name).not.toMatch(/constraint|sql|stack|TypeError/i);
      }
      const notServed = await postJson(person.client, '/api/v1/test-drives', {
        vehicleId: car,
        slot: `${date}T11:00`,
        mode: 'home',
        pinCode: '110001',
        street: '4 Janpath',
      });
      expect(((await notServed.json()) as { detail: string }).detail).toMatch(/^We don't visit 110001 yet\. Please come to our hub at ./);
      expect((await postJson(person.client, '/api/v1/test-drives', { vehicleId: 2147483647, slot: `${date}T11:00`, mode: 'hub' })).status).toBe(404);
      expect((await postJson(person.client, '/api/v1/test-drives', { vehicleId: soldId, slot: `${date}T11:00`, mode: 'hub' })).status).toBe(409);
      // A served PIN books a home test drive.
      const home = await postJson(person.client, '/api/v1/test-drives', {
        vehicleId: car,
        slot: freshSlot(),
        mode: 'home',
        pinCode: '400069',
        street: 'Flat 4, Chakala Road',
      });
      expect(home.status).toBe(201);
      expect(((await home.json()) as { testDrive: { pinCode: string } }).testDrive.pinCode).toBe('400069');
    });

    it('reschedules and cancels only the person’s own upcoming test drive; a cancelled slot is free again', async () => {
      const [owner, stranger] = [await verifiedPerson(), await verifiedPerson()];
      const car = freshCar();
      const [slot, later] = [freshSlot(), freshSlot()];
      const booked = (await (await postJson(owner.client, '/api/v1/test-drives', { vehicleId: car, slot, mode: 'hub' })).json()) as { testDrive: Summary };
      const id = booked.testDrive.id;
      expect((await postJson(stranger.client, `/api/v1/me/test-drives/${id}/cancel`, {})).status).toBe(404);
      expect((await postJson(stranger.client, `/api/v1/me/test-drives/${id}/reschedule`, { slot: later })).status).toBe(404);
      expect((await postJson(owner.client, `/api/v1/me/test-drives/${id}/reschedule`, { slot: 'soon' })).status).toBe(400);
      expect((await postJson(owner.client, '/api/v1/me/test-drives/99999999999/cancel', {})).status).toBe(404);

      const moved = await postJson(owner.client, `/api/v1/me/test-drives/${id}/reschedule`, { slot: later });
      expect(moved.status).toBe(200);
      expect(((await moved.json()) as { testDrive: { slot: string } }).testDrive.slot).toBe(later);
      expect(await remainingAt(owner.client, car, slot)).toBe(CAPACITY);
      expect(await remainingAt(owner.client, car, later)).toBe(0);

      expect((await postJson(owner.client, `/api/v1/me/test-drives/${id}/cancel`, {})).status).toBe(200);
      expect((await postJson(owner.client, `/api/v1/me/test-drives/${id}/cancel`, {})).status).toBe(409);
      expect(await remainingAt(owner.client, car, later)).toBe(CAPACITY);
      expect((await postJson(stranger.client, '/api/v1/test-drives', { vehicleId: car, slot: later, mode: 'hub' })).status).toBe(201);
    });
  });

  describe('the database keeps the rules under concurrency', () => {
    it('ten bookings of one car in one slot at once: exactly one succeeds, the others are told 409', async () => {
      const people = await Promise.all(Array.from({ length: 10 }, () => verifiedPerson('rush')));
      const car = freshCar();
      const slot = freshSlot();
      const answers = await Promise.all(people.map((person) => postJson(person.client, '/api/v1/test-drives', { vehicleId: car, slot, mode: 'hub' })));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
      const rows = await database.db
        .selectFrom('test_drives')
        .select('id')
        .where('vehicle_id', '=', car)
        .where('slot_start_ms', '=', slotInstant(slot).getTime())
        .where('status', '<>', 'cancelled')
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('ten cars in one slot at once: never more bookings than the capacity', async () => {
      const people = await Promise.all(Array.from({ length: 10 }, () => verifiedPerson('crowd')));
      const slot = freshSlot();
      const cars = Array.from({ length: 10 }, () => freshCar());
      expect(new Set(cars).size).toBe(10);
      const answers = await Promise.all(
        people.map((person, index) => postJson(person.client, '/api/v1/test-drives', { vehicleId: cars[index], slot, mode: 'hub' })),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(CAPACITY);
      expect(statuses.filter((status) => status === 409)).toHaveLength(10 - CAPACITY);
      const rows = await database.db
        .selectFrom('test_drives')
        .select('id')
        .where('slot_start_ms', '=', slotInstant(slot).getTime())
        .where('status', '<>', 'cancelled')
        .execute();
      expect(rows).toHaveLength(CAPACITY);
      expect(await remainingAt(people[0]!.client, freshCar(), slot)).toBe(0);
    });

    it('the last seat of a slot, asked for by ten people with ten cars at once: exactly one booking takes it', async () => {
      const slot = freshSlot();
      for (let seat = 0; seat < CAPACITY - 1; seat++) {
        const early = await verifiedPerson('early');
        expect((await postJson(early.client, '/api/v1/test-drives', { vehicleId: freshCar(), slot, mode: 'hub' })).status).toBe(201);
      }
      const people = await Promise.all(Array.from({ length: 10 }, () => verifiedPerson('last-seat')));
      const cars = Array.from({ length: 10 }, () => freshCar());
      const answers = await Promise.all(
        people.map((person, index) => postJson(person.client, '/api/v1/test-drives', { vehicleId: cars[index], slot, mode: 'hub' })),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
      for (const answer of answers.filter((item) => item.status === 409)) expect(await answer.json()).toMatchObject({ detail: testDriveMessages.slotFull });
      const rows = await database.db
        .selectFrom('test_drives')
        .select('seat')
        .where('slot_start_ms', '=', slotInstant(slot).getTime())
        .where('status', '<>', 'cancelled')
        .execute();
      expect(rows.map((row) => row.seat).sort()).toEqual(Array.from({ length: CAPACITY }, (_, seat) => seat));
    });
  });

  describe('the pages', () => {
    it('sends a signed-out visitor to sign in, through phone verification, and back to the booking', async () => {
      const client = new HttpClient(server.url);
      const car = freshCar();
      const page = `/vehicle/${car}/test-drive`;
      const signedOut = await client.get(page);
      expect(signedOut.status).toBe(302);
      expect(signedOut.headers.get('location')).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);

      const email = uniqueEmail('walker');
      await signUp(client, email, PASSWORD);
      const unverified = await client.get(page);
      expect(unverified.status).toBe(200);
      const html = await unverified.text();
      expect(mainText(html)).toContain(testDriveMessages.verifyPhoneFirst);
      expect(html).toContain(`/profile-complete?redirectTo=${encodeURIComponent(page)}`);

      // Signing in again with the booking as where to go next goes through phone verification.
      const again = new HttpClient(server.url);
      const login = await again.postForm(`/login?redirectTo=${encodeURIComponent(page)}`, {
        intent: 'email',
        email,
        password: PASSWORD,
        botCheck: await again.botToken('LOGIN'),
      });
      expect(login.status).toBe(302);
      expect(login.headers.get('location')).toBe(`/profile-complete?redirectTo=${encodeURIComponent(page)}`);

      // The real OTP flow, its form posted with the booking as where to go next.
      const mobile = uniqueMobile();
      const sent = await requestOtp(client, mobile, 'Ravi Kumar');
      expect(sent.status).toBe(200);
      const sms = await waitForOutbox(client, 'sms', `+91${mobile}`);
      const verified = await client.postForm(`/profile-complete?redirectTo=${encodeURIComponent(page)}`, {
        intent: 'verify',
        name: 'Ravi Kumar',
        countryCode: '+91',
        phone: mobile,
        otp: otpFrom(sms.body),
      });
      expect(verified.status).toBe(302);
      expect(verified.headers.get('location')).toBe(page);
      // Never off to another site.
      const offsite = await client.postForm('/profile-complete?redirectTo=%2F%2Fevil.example', {
        intent: 'verify',
        name: 'Ravi Kumar',
        countryCode: '+91',
        phone: mobile,
        otp: '000000',
      });
      expect(offsite.headers.get('location') ?? '').not.toContain('evil');
      const ready = await client.get(page);
      expect(ready.status).toBe(200);
      expect(mainText(await ready.text())).toMatch(/1\. Where[\s\S]*2\. Day[\s\S]*3\. Time/);
    });

    it('walks the steps without JavaScript: where, day, hour, confirm; then the profile lists it and cancels it', async () => {
      const person = await verifiedPerson('steps');
      const car = freshCar();
      const slot = freshSlot();
      const date = slot.slice(0, 10);
      const step = await person.client.get(`/vehicle/${car}/test-drive?mode=home&pin=400069&date=${date}&slot=${encodeURIComponent(slot)}`);
      expect(step.status).toBe(200);
      const text = mainText(await step.text());
      expect(text).toContain('4. Confirm');
      expect(text).toContain('2 left');

      const notServed = mainText(await (await person.client.get(`/vehicle/${car}/test-drive?mode=home&pin=110001&date=${date}`)).text());
      expect(notServed).toContain("We don't visit 110001 yet.");
      expect(notServed).not.toContain('3. Time');

      const confirm = await person.client.postForm(`/vehicle/${car}/test-drive?mode=home&pin=400069&date=${date}&slot=${encodeURIComponent(slot)}`, {
        slot,
        mode: 'home',
        pinCode: '400069',
        street: 'Flat 4, Chakala Road',
      });
      expect(confirm.status).toBe(302);
      expect(confirm.headers.get('location')).toBe('/profile?testDrive=booked#test-drives');
      const profile = mainText(await (await person.client.get('/profile?testDrive=booked')).text());
      expect(profile).toContain(testDriveMessages.booked);
      expect(profile).toMatch(/My test drives[\s\S]*At your home: Flat 4, Chakala Road, 400069[\s\S]*Booked/);

      // The same car and slot for someone else from the page: refused with the reason, the page still there.
      const other = await verifiedPerson('other');
      const again = await other.client.postForm(`/vehicle/${car}/test-drive`, { slot, mode: 'hub', pinCode: '' });
      expect(again.status).toBe(409);
      expect(mainText(await again.text())).toContain(testDriveMessages.carTaken);
      // NUL bytes are cleaned away (decision 012); what is left must still be a slot, and a booking id must be one.
      expect((await person.client.postForm(`/vehicle/${car}/test-drive`, { slot: '\u0000', mode: 'hub' })).status).toBe(400);
      expect((await person.client.postForm(`/vehicle/${car}/test-drive`, { slot, mode: 'hub', reschedule: '99999999999' })).status).toBe(404);
      expect((await person.client.postForm('/vehicle/99999999999/test-drive', { slot, mode: 'hub' })).status).toBe(404);

      const mine = (await (await person.client.get('/api/v1/me/test-drives')).json()) as { items: Summary[] };
      const id = mine.items[0]!.id;
      const cancelled = await person.client.postForm(`/test-drives/${id}/cancel`, {});
      expect(cancelled.status).toBe(302);
      expect(cancelled.headers.get('location')).toBe('/profile?testDrive=cancelled#test-drives');
      const foreign = await other.client.postForm(`/test-drives/${id}/cancel`, {});
      expect(foreign.headers.get('location')).toBe('/profile?testDrive=not-found#test-drives');
    });

    it('shows "Book a test drive" on a car for sale and not on a sold one', async () => {
      const client = new HttpClient(server.url);
      expect(mainText(await (await client.get(`/vehicle/${available[0]}`)).text())).toContain('Book a test drive');
      expect(mainText(await (await client.get(`/vehicle/${soldId}`)).text())).not.toContain('Book a test drive');
    });
  });

  describe('the admin', () => {
    it('keeps the schedule behind the guard', async () => {
      const anonymous = new HttpClient(server.url);
      const signedOut = await anonymous.get('/admin/test-drives');
      expect(signedOut.status).toBe(302);
      expect(signedOut.headers.get('location')).toMatch(/^\/admin-login/);
      const buyer = await verifiedPerson('nosy');
      expect((await buyer.client.get('/admin/test-drives')).status).toBe(403);
      expect((await buyer.client.postForm('/admin/test-drives', { intent: 'confirm', id: '1' })).status).toBe(403);
    });

    it('sees the day’s test drives, confirms, moves, marks done and no-show, each in the audit log; statistics count them and the sale', async () => {
      const person = await verifiedPerson('schedule');
      const car = freshCar();
      const slot = freshSlot();
      const created = (await (await postJson(person.client, '/api/v1/test-drives', { vehicleId: car, slot, mode: 'hub' })).json()) as { testDrive: Summary };
      const id = created.testDrive.id;
      const date = slot.slice(0, 10);
      const day = await admin.get(`/admin/test-drives?date=${date}`);
      expect(day.status).toBe(200);
      const dayText = mainText(await day.text());
      expect(dayText).toContain('Asha Rao');
      expect(dayText).toContain(person.phone);
      expect(dayText).toMatch(/Booked/);

      const post = (fields: Record<string, string>) => admin.postForm(`/admin/test-drives?date=${date}`, fields);
      const confirmed = await post({ intent: 'confirm', id: String(id) });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('location')).toBe(`/admin/test-drives?date=${date}`);
      expect((await database.db.selectFrom('test_drives').select('status').where('id', '=', id).executeTakeFirst())?.status).toBe('confirmed');
      // Confirming twice is refused with a message, not a failure.
      await post({ intent: 'confirm', id: String(id) });
      expect((await database.db.selectFrom('test_drives').select('status').where('id', '=', id).executeTakeFirst())?.status).toBe('confirmed');

      const later = freshSlot();
      await post({ intent: 'reschedule', id: String(id), slot: later });
      expect((await database.db.selectFrom('test_drives').select('slot_start_ms').where('id', '=', id).executeTakeFirst())?.slot_start_ms).toBe(
        slotInstant(later).getTime(),
      );
      // A wrong slot is told beside the field of that test drive, with what was typed (decision 109).
      const wrongSlot = await post({ intent: 'reschedule', id: String(id), slot: 'whenever' });
      expect(wrongSlot.status).toBe(400);
      const wrongHtml = await wrongSlot.text();
      expect(wrongHtml).toContain(`id="slot-${id}-error"`);
      expect(mainText(wrongHtml)).toContain('Please choose the new day and hour (on the hour).');
      expect(wrongHtml).toContain('value="whenever"');
      await post({ intent: 'no_show', id: String(id) });
      await post({ intent: 'done', id: String(id) });
      for (const hostile of [
        { intent: 'done', id: '99999999999' },
        { intent: 'explode', id: String(id) },
        { intent: 'done', id: '\u0000' },
      ]) {
        const answer = await post(hostile);
        expect(answer.status, JSON.stringify(hostile)).toBeLessThan(500);
      }
      expect((await database.db.selectFrom('test_drives').select('status').where('id', '=', id).executeTakeFirst())?.status).toBe('done');

      const audit = await database.db
        .selectFrom('audit_log')
        .select(['action', 'actor_email', 'summary'])
        .where('entity', '=', 'test_drive')
        .where('entity_id', '=', String(id))
        .orderBy('id')
        .execute();
      expect(audit.map((entry) => entry.action)).toEqual(['confirm', 'reschedule', 'no_show', 'done']);
      expect(audit.every((entry) => entry.actor_email === ADMIN)).toBe(true);

      await database.db
        .updateTable('vehicles')
        .set({ status: 'sold', sold_at: new Date(Date.parse(SERVER_CLOCK_START)).toISOString(), sold_price: 500000 })
        .where('id', '=', car)
        .execute();
      const statistics = mainText(await (await admin.get('/admin/statistics')).text());
      expect(statistics).toMatch(/Test Drives That Became Sales\s*1/);
      expect(statistics).toMatch(/Test Drives\s*\d+/);
    });

    it('saves the test-drive settings, refusing a bad PIN code, and the slots follow them', async () => {
      const settings = (serviceAreas: string) => ({
        intent: 'test-drives',
        testDriveOpeningHour: '11',
        testDriveClosingHour: '13',
        testDriveCapacity: '3',
        testDriveLeadHours: '2',
        testDriveDaysAhead: '6',
        serviceAreas,
      });
      const refused = await admin.postForm('/admin/settings', settings('Andheri East — 400069\nNowhere — 0123'));
      expect(refused.status).toBe(400);
      expect(mainText(await refused.text())).toContain('“Nowhere — 0123” needs a PIN code at the end.');
      const saved = await admin.postForm('/admin/settings', settings('Andheri East — 400069\nMarol, 400070'));
      expect(saved.status).toBe(302);
      const date = addDays(today, 5);
      const client = new HttpClient(server.url);
      expect(await slotsOf(client, freshCar(), date)).toEqual([
        { start: `${date}T11:00`, remaining: 3 },
        { start: `${date}T12:00`, remaining: 3 },
      ]);
      expect(
        (await database.db.selectFrom('audit_log').select('summary').where('entity', '=', 'settings').orderBy('id', 'desc').executeTakeFirst())?.summary,
      ).toMatch(/test-drive settings/);
      // Back to the defaults for the other tests.
      const reset = await admin.postForm('/admin/settings', { intent: 'reset' });
      expect(reset.status).toBe(302);
    });
  });

  describe('the reminder', () => {
    it('goes out once, an hour before, however often the job runs', async () => {
      const person = await verifiedPerson('remind');
      const slot = freshSlot();
      const booked = (await (await postJson(person.client, '/api/v1/test-drives', { vehicleId: freshCar(), slot, mode: 'hub' })).json()) as {
        testDrive: Summary;
      };
      const logger = createLogger('warn', 'json');
      const config = {
        siteName: 'Gaadi Bazaar',
        siteOrigin: server.url,
        contactAddress: 'Andheri East, Mumbai',
        outboxEnabled: true,
        mode: 'test' as const,
        mail: { smtpUrl: undefined, from: 'test@example.in' },
        sms: { provider: 'outbox' as const },
      };
      const deps = {
        database,
        logger,
        config: config as never,
        mailer: createMailer({ config: config as never, database, logger, clock: systemClock }),
        clock: systemClock,
        jobs: createJobSignal(),
      };
      const start = slotInstant(slot).getTime();
      // Two hours before: not yet.
      expect(await sendDueReminders(deps, start - 2 * 3600_000)).toBe(0);
      // 50 minutes before, twice, and by two runs at once: one reminder.
      const runs = await Promise.all([sendDueReminders(deps, start - 50 * 60_000), sendDueReminders(deps, start - 50 * 60_000)]);
      expect(runs.reduce((sum, sent) => sum + sent, 0)).toBe(1);
      expect(await sendDueReminders(deps, start - 10 * 60_000)).toBe(0);
      const row = await database.db.selectFrom('test_drives').select('reminded_at').where('id', '=', booked.testDrive.id).executeTakeFirst();
      expect(row?.reminded_at).toBe(new Date(start - 50 * 60_000).toISOString());
      const reminders = (await readOutbox(admin)).filter(
        (entry) => entry.channel === 'sms' && entry.recipient === person.phone && entry.body.includes('Reminder'),
      );
      expect(reminders).toHaveLength(1);
    });
  });
});
