import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectionAnswerSchema, serviceAreasSchema, testDriveAnswerSchema } from '../../server/http/api-answers.ts';
import { homeAddressMessages } from '../../app/features/appointments/home-address.ts';
import { defaultSettings, getSettings } from '../../server/admin/settings.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase, openTestDatabase } from '../support/database.ts';
import { decodeEntities, HttpClient, mainText, waitForOutbox } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import { verifiedPerson as verifiedPersonOn } from '../support/people.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * Home visits have an address (decision 097), on SQLite and PostgreSQL: a home test drive or
 * inspection without its street is refused with the message beside the field (page and API);
 * with it, the street and landmark are stored and the desk, its lead and the customer's mail
 * show the full place; a PIN code outside the areas names the nearest area we visit and the
 * hub (test drive, inspection and rental delivery alike); the areas are public in /api/v1;
 * the admin edits them a line each; and migration 033 turns a saved list of PIN codes into areas.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
const HUB = 'Plot 14, Andheri-Kurla Road, Andheri East, Mumbai 400069';
const today = addDays(indiaDay(Date.now()), 1);
const SERVER_CLOCK_START = `${today}T11:30:00+05:30`;
const sellersCar = { make: 'Honda', model: 'City', year: 2021, fuel: 'Petrol', transmission: 'Manual', km: 40_000, owners: 1, registrationState: 'MH' };
const JUHU = { pinCode: '400049', street: '12 Sea View, Juhu Tara Rd', landmark: 'Juhu Circle' };
const JUHU_LINE = '12 Sea View, Juhu Tara Rd (near Juhu Circle), 400049';
const NEAREST = `We don't visit 400071 yet. Nearest area we visit: Saki Naka — 400072, or come to our hub at ${HUB}.`;

let server: TestServer;
let database: Database;
let admin: HttpClient;
let cars: number[] = [];

let slotsTaken = 0;
/** Hours no other test uses, from the day after tomorrow (inspections run 10 am to 6 pm). */
function freshSlot(): string {
  const index = slotsTaken++;
  return `${addDays(today, 1 + Math.floor(index / 8))}T${String(10 + (index % 8)).padStart(2, '0')}:00`;
}

function verifiedPerson(label = 'visit') {
  return verifiedPersonOn(server.url, database, { label, name: 'Meera Iyer', password: PASSWORD });
}

async function postJson(client: HttpClient, path: string, body: unknown) {
  const response = await client.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return {
    status: response.status,
    body: (await response.json().catch(() => null)) as Record<string, unknown> & { fields?: Record<string, string>; detail?: string },
  };
}

/** The text of the element with this id in a page's HTML (a field's message). */
function textOfId(html: string, id: string): string | null {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</(?:p|div)>`).exec(html);
  return match
    ? decodeEntities(match[1]!.replace(/<[^>]+>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim()
    : null;
}

describe.skipIf(!shared.url)(`home visits (${shared.dialect})`, () => {
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
    cars = (await database.db.selectFrom('vehicles').select('id').where('purpose', '=', 'sale').where('status', '=', 'available').orderBy('id').execute()).map(
      (car) => car.id,
    );
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('refuses a home test drive without its street, beside the field, on the page and in the API', async () => {
    const person = await verifiedPerson();
    const slot = freshSlot();
    const page = `/vehicle/${cars[0]}/test-drive?mode=home&pin=400049&date=${slot.slice(0, 10)}&slot=${encodeURIComponent(slot)}`;
    const refused = await person.client.postForm(page, { slot, mode: 'home', pinCode: '400049', street: '   ', landmark: 'Juhu Circle' });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(textOfId(html, 'street-error')).toBe(homeAddressMessages.streetRequired);
    // What was typed stays.
    expect(html).toMatch(/id="landmark"[^>]*value="Juhu Circle"/);
    const nul = await person.client.postForm(page, { slot, mode: 'home', pinCode: '400049', street: '12 Sea\u0000View' });
    expect(nul.status).toBe(400);
    // Refused at the edge, as any control character is (decision 061), and said beside the field.
    expect(textOfId(await nul.text(), 'street-error')).toMatch(/invisible control characters/);
    const nulInApi = await postJson(person.client, '/api/v1/test-drives', {
      vehicleId: cars[0],
      slot,
      mode: 'home',
      pinCode: '400049',
      street: '12 Sea\u0000View',
    });
    expect(nulInApi).toMatchObject({ status: 400, body: { fields: { street: expect.stringMatching(/invisible control characters/) } } });

    const api = await postJson(person.client, '/api/v1/test-drives', { vehicleId: cars[0], slot, mode: 'home', pinCode: '400049', landmark: 'x'.repeat(101) });
    expect(api.status).toBe(400);
    expect(api.body.fields).toEqual({ street: homeAddressMessages.streetRequired, landmark: homeAddressMessages.landmarkTooLong });
    expect(await database.db.selectFrom('test_drives').select('id').where('user_id', '=', person.userId).execute()).toEqual([]);
  });

  it('stores a home test drive’s street and landmark; the desk and the customer’s mail show the full place', async () => {
    const person = await verifiedPerson();
    const slot = freshSlot();
    const page = `/vehicle/${cars[1]}/test-drive?mode=home&pin=400049&date=${slot.slice(0, 10)}&slot=${encodeURIComponent(slot)}`;
    const confirmStep = mainText(await (await person.client.get(page)).text());
    expect(confirmStep).toContain('House or flat, street and area');
    const booked = await person.client.postForm(page, { slot, mode: 'home', ...JUHU });
    expect(booked.status).toBe(302);
    const row = await database.db
      .selectFrom('test_drives')
      .select(['street', 'landmark', 'pin_code'])
      .where('user_id', '=', person.userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ street: JUHU.street, landmark: JUHU.landmark, pin_code: '400049' });

    const desk = mainText(await (await admin.get(`/admin/test-drives?date=${slot.slice(0, 10)}`)).text());
    expect(desk).toContain(`At the customer's home: ${JUHU_LINE}`);
    expect(mainText(await (await person.client.get('/profile')).text())).toContain(`At your home: ${JUHU_LINE}`);
    const mail = await waitForOutbox(person.client, 'email', person.email, (entry) => entry.subject.startsWith('Your test drive is booked'));
    expect(mail.body).toContain(`Where: at your home, ${JUHU_LINE}`);

    // The app books the same way and gets the address back; a hub booking keeps none.
    const other = await verifiedPerson();
    const fromApp = await postJson(other.client, '/api/v1/test-drives', { vehicleId: cars[2], slot: freshSlot(), mode: 'home', ...JUHU });
    expect(fromApp.status).toBe(201);
    expect(testDriveAnswerSchema.parse(fromApp.body).testDrive).toMatchObject(JUHU);
    const hub = await postJson(other.client, '/api/v1/test-drives', { vehicleId: cars[3], slot: freshSlot(), mode: 'hub', ...JUHU });
    expect(testDriveAnswerSchema.parse(hub.body).testDrive).toMatchObject({ pinCode: '', street: '', landmark: '' });
  });

  it('stores a home inspection’s address; the desk’s list, its page, the lead and the seller’s mail show it', async () => {
    const person = await verifiedPerson('seller');
    const missing = await postJson(person.client, '/api/v1/inspections', { car: sellersCar, mode: 'home', pinCode: '400049', slot: freshSlot() });
    expect(missing).toMatchObject({ status: 400, body: { fields: { street: homeAddressMessages.streetRequired } } });

    const slot = freshSlot();
    const answer = await postJson(person.client, '/api/v1/inspections', { car: sellersCar, mode: 'home', slot, ...JUHU });
    expect(answer.status).toBe(201);
    const { inspection } = inspectionAnswerSchema.parse(answer.body);
    expect(inspection).toMatchObject(JUHU);
    const list = mainText(await (await admin.get(`/admin/inspections?date=${slot.slice(0, 10)}`)).text());
    expect(list).toContain(`At the seller's home: ${JUHU_LINE}`);
    const detail = mainText(await (await admin.get(`/admin/inspections/${inspection.id}`)).text());
    expect(detail).toContain(`At the seller's home: ${JUHU_LINE}`);
    const lead = await database.db.selectFrom('sell_submissions').select('description').where('inspection_id', '=', inspection.id).executeTakeFirstOrThrow();
    expect(lead.description).toContain(`at the seller's home: ${JUHU_LINE}.`);
    const mail = await waitForOutbox(person.client, 'email', person.email, (entry) => entry.subject.includes('inspection is booked'));
    expect(mail.body).toContain(JUHU_LINE);

    // The page asks for the address too, and says what is missing beside the field.
    const query = new URLSearchParams({
      ...Object.fromEntries(Object.entries(sellersCar).map(([key, value]) => [key, String(value)])),
      mode: 'home',
      pin: '400049',
      date: freshSlot().slice(0, 10),
    });
    const pageSlot = `${query.get('date')}T15:00`;
    const fromPage = await person.client.postForm(`/sell-vehicle/inspection?${query}`, {
      ...Object.fromEntries(query),
      pinCode: '400049',
      slot: pageSlot,
      street: '',
    });
    expect(fromPage.status).toBe(400);
    expect(textOfId(await fromPage.text(), 'street-error')).toBe(homeAddressMessages.streetRequired);
  });

  it('names the nearest area we visit and the hub for a PIN code we do not visit: test drive, inspection and rental delivery alike', async () => {
    const person = await verifiedPerson();
    const slot = freshSlot();
    const testDrive = await postJson(person.client, '/api/v1/test-drives', {
      vehicleId: cars[4],
      slot,
      mode: 'home',
      pinCode: '400071',
      street: '3 Sion-Trombay Rd',
    });
    expect(testDrive).toMatchObject({ status: 400, body: { fields: { pinCode: NEAREST } } });
    const inspection = await postJson(person.client, '/api/v1/inspections', {
      car: sellersCar,
      slot,
      mode: 'home',
      pinCode: '400071',
      street: '3 Sion-Trombay Rd',
    });
    expect(inspection).toMatchObject({ status: 400, body: { fields: { pinCode: NEAREST } } });
    // Outside the sorting district, no area is "nearest": only the hub.
    const far = await postJson(person.client, '/api/v1/test-drives', { vehicleId: cars[4], slot, mode: 'home', pinCode: '110001', street: '4 Janpath' });
    expect(far.body.fields?.pinCode).toBe(`We don't visit 110001 yet. Please come to our hub at ${HUB}.`);

    const fleet = await database.db
      .selectFrom('vehicles')
      .innerJoin('rental_terms', 'rental_terms.vehicle_id', 'vehicles.id')
      .select('vehicles.id')
      .where('rental_terms.delivery_available', '=', 1)
      .executeTakeFirstOrThrow();
    const range = { from: `${addDays(today, 10)}T10:00`, to: `${addDays(today, 12)}T10:00` };
    const delivery = await person.client.get(`/api/v1/rentals/cars/${fleet.id}?${new URLSearchParams({ ...range, pickup: 'delivery', pinCode: '400071' })}`);
    expect(delivery.status).toBe(400);
    expect(((await delivery.json()) as { fields: Record<string, string> }).fields.pinCode).toBe(NEAREST);

    // The page: the areas are listed before one types; a refused PIN names the nearest and offers the hub in one tap.
    const ask = await person.client.get(`/vehicle/${cars[4]}/test-drive?mode=home`);
    const asking = await ask.text();
    expect(mainText(asking)).toMatch(/Areas we visit \(14\)[\s\S]*Andheri East\s*400069/);
    const refused = await (await person.client.get(`/vehicle/${cars[4]}/test-drive?mode=home&pin=400071`)).text();
    expect(textOfId(refused, 'pin-error')).toContain(NEAREST);
    expect(decodeEntities(refused)).toContain(`href="/vehicle/${cars[4]}/test-drive?mode=hub"`);
    expect(mainText(refused)).toContain('Come to the hub instead');
  });

  it('lists the areas we visit in the API, to anyone, cached', async () => {
    const response = await new HttpClient(server.url).get('/api/v1/service-areas');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const answer = serviceAreasSchema.parse(await response.json());
    expect(answer.hubAddress).toBe(HUB);
    expect(answer.areas).toContainEqual({ locality: 'Andheri West', pinCode: '400053' });
    expect(answer.areas.map((area) => area.locality)).toEqual([...answer.areas.map((area) => area.locality)].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('lets the admin edit the areas a line each, with a refused line named beside the field', async () => {
    const form = (serviceAreas: string) => ({
      intent: 'test-drives',
      testDriveOpeningHour: '10',
      testDriveClosingHour: '19',
      testDriveCapacity: '2',
      testDriveLeadHours: '2',
      testDriveDaysAhead: '6',
      serviceAreas,
    });
    const page = mainText(await (await admin.get('/admin/settings')).text());
    expect(page).toContain('Andheri West — 400053');
    const refused = await admin.postForm('/admin/settings', form('Juhu — 400049\nChembur'));
    expect(refused.status).toBe(400);
    expect(textOfId(await refused.text(), 'serviceAreas-error')).toContain('“Chembur” needs a PIN code at the end.');
    const saved = await admin.postForm('/admin/settings', form('Juhu — 400049\nChembur, 400074\n400053'));
    expect(saved.status).toBe(302);
    const answer = serviceAreasSchema.parse(await (await new HttpClient(server.url).get('/api/v1/service-areas')).json());
    expect(answer.areas).toEqual([
      { locality: 'Andheri West', pinCode: '400053' },
      { locality: 'Chembur', pinCode: '400074' },
      { locality: 'Juhu', pinCode: '400049' },
    ]);
    // Now 400071 is nearest Chembur.
    const person = await verifiedPerson();
    const refusedPin = await postJson(person.client, '/api/v1/test-drives', {
      vehicleId: cars[5],
      slot: freshSlot(),
      mode: 'home',
      pinCode: '400071',
      street: '3 Sion-Trombay Rd',
    });
    expect(refusedPin.body.fields?.pinCode).toBe(`We don't visit 400071 yet. Nearest area we visit: Chembur — 400074, or come to our hub at ${HUB}.`);
    await admin.postForm('/admin/settings', { intent: 'reset' });
  });
});

describe.skipIf(!shared.url)(`migration 033 on saved settings and rows (${shared.dialect})`, () => {
  it('turns saved PIN codes into areas named from the shipped list, or by the code; old rows keep an empty address; the columns hold their limits', async () => {
    const opened = await openTestDatabase(shared.dialect, { upTo: '032-installation' });
    try {
      const { db } = opened.database;
      await db
        .insertInto('settings')
        .values({ key: 'servicePinCodes', value: JSON.stringify(['400053', '560001', '400069']), updated_by: ADMIN, updated_at: new Date().toISOString() })
        .execute();
      await migrateToLatest(opened.database);
      const settings = await getSettings(opened.database, defaultSettings({ siteName: 'Gaadi Bazaar', adminEmail: ADMIN }));
      expect(settings.serviceAreas).toEqual([
        { locality: 'Andheri West', pinCode: '400053' },
        { locality: '560001', pinCode: '560001' },
        { locality: 'Andheri East', pinCode: '400069' },
      ]);
      expect(await db.selectFrom('settings').select('key').where('key', '=', 'servicePinCodes').execute()).toEqual([]);

      const now = new Date().toISOString();
      const row = {
        user_id: 'someone',
        vehicle_id: null,
        vehicle_title: 'Old car',
        mode: 'home' as const,
        pin_code: '400049',
        name: 'A',
        phone: '+919800000000',
        email: 'a@example.in',
        slot_start_ms: Date.parse('2030-01-01T04:30:00.000Z'),
        seat: 0,
        status: 'booked' as const,
        reminded_at: null,
        created_at: now,
        updated_at: now,
      };
      const old = await db.insertInto('test_drives').values(row).returning(['street', 'landmark']).executeTakeFirstOrThrow();
      expect(old).toEqual({ street: '', landmark: '' });
      await expect(
        db
          .insertInto('test_drives')
          .values({ ...row, slot_start_ms: Date.parse('2030-01-02T04:30:00.000Z'), street: 'x'.repeat(201) })
          .execute(),
      ).rejects.toThrow(/CHECK|check/);
      await expect(
        db
          .insertInto('test_drives')
          .values({ ...row, slot_start_ms: Date.parse('2030-01-03T04:30:00.000Z'), street: '12 Sea View', landmark: 'x'.repeat(101) })
          .execute(),
      ).rejects.toThrow(/CHECK|check/);
    } finally {
      await opened.cleanup();
    }
  }, 120_000);
});
