import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities, HttpClient, mainText, signUp, uniqueEmail } from '../support/http-client.ts';
import { openServerDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { Database } from '../../server/db/connection.ts';

/**
 * The admin side of self-drive rental: a vehicle's purpose and rental terms in the vehicle
 * form (checked, saved, audit-logged, back to sale stock), the rental settings on the
 * settings page, and that only an admin reaches any of it. On SQLite and PostgreSQL.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';

const TERMS = {
  purpose: 'rental',
  hourlyRate: '250',
  dailyRate: '2,200',
  weeklyRate: '13000',
  kmPerDay: '240',
  extraKmRate: '12',
  deposit: '5000',
  fuelPolicy: 'full-to-full',
  minAge: '21',
  minHours: '4',
  seats: '5',
  commercialRegistration: 'on',
  deliveryAvailable: 'on',
};

function vehicleForm(categoryId: number, extra: Record<string, string>): FormData {
  const form = new FormData();
  const fields = {
    intent: 'save',
    name: 'Honda Amaze S',
    make: 'Honda',
    model: 'Amaze',
    categoryId: String(categoryId),
    price: '585000',
    year: '2022',
    fuelType: 'Petrol',
    transmission: 'Manual',
    ...extra,
  };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

describe.skipIf(!shared.url)(`rental terms and settings in the admin panel (${shared.dialect})`, () => {
  let server: TestServer;
  let database: Database;
  let admin: HttpClient;
  let categoryId: number;
  let categorySlug: string;
  let vehicleId: number;

  beforeAll(async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, ADMIN_EMAILS: ADMIN } });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    const signIn = await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') });
    expect(signIn.status).toBe(302);
    const categories = (await (await admin.get('/api/v1/categories')).json()) as Array<{ id: number; slug: string }>;
    categoryId = categories[0]!.id;
    categorySlug = categories[0]!.slug;
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('refuses wrong terms per field and saves nothing', async () => {
    const before = Number(
      (await database.db
        .selectFrom('vehicles')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirst())!.count,
    );
    const response = await admin.request('/admin/add-vehicle', {
      method: 'POST',
      body: vehicleForm(categoryId, { ...TERMS, dailyRate: 'abc', kmPerDay: '', deposit: '-5' }),
    });
    expect(response.status).toBe(400);
    const text = mainText(await response.text());
    expect(text).toContain('Km per day is required (or tick Unlimited km)');
    const after = Number(
      (await database.db
        .selectFrom('vehicles')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirst())!.count,
    );
    expect(after).toBe(before);

    const wrong = await admin.request('/admin/add-vehicle', {
      method: 'POST',
      body: vehicleForm(categoryId, { ...TERMS, dailyRate: 'abc', deposit: '-5', fuelPolicy: 'empty' }),
    });
    expect(wrong.status).toBe(400);
    const wrongText = mainText(await wrong.text());
    expect(wrongText).toContain('Daily rate must be a whole number');
    expect(wrongText).toContain('Security deposit must be a whole number');
  });

  it('adds a car to the rental fleet with its terms, shows them again for editing, and logs it', async () => {
    const response = await admin.request('/admin/add-vehicle', { method: 'POST', body: vehicleForm(categoryId, TERMS) });
    expect(response.status).toBe(302);
    const row = await database.db.selectFrom('vehicles').select(['id', 'purpose']).where('name', '=', 'Honda Amaze S').executeTakeFirstOrThrow();
    vehicleId = Number(row.id);
    expect(row.purpose).toBe('rental');
    const terms = await database.db.selectFrom('rental_terms').selectAll().where('vehicle_id', '=', vehicleId).executeTakeFirstOrThrow();
    expect(Number(terms.daily_rate)).toBe(2200);
    expect(Number(terms.km_per_day)).toBe(240);
    expect(Number(terms.commercial_registration)).toBe(1);

    const edit = await admin.get(`/admin-panel/vehicles/edit/${categorySlug}/${vehicleId}`);
    const html = await edit.text();
    expect(html).toMatch(/<option value="rental" selected/);
    expect(html).toContain('value="13000"');
    expect(mainText(await (await admin.get('/admin/audit-log')).text())).toContain(`Put vehicle #${vehicleId} in the rental fleet`);
  });

  it('changes the terms to unlimited km, then moves the car back to sale stock', async () => {
    const path = `/admin-panel/vehicles/edit/${categorySlug}/${vehicleId}`;
    const unlimited = await admin.request(path, {
      method: 'POST',
      body: vehicleForm(categoryId, { ...TERMS, kmPerDay: '', unlimitedKm: 'on', dailyRate: '2400' }),
    });
    expect(unlimited.status).toBe(302);
    const terms = await database.db.selectFrom('rental_terms').selectAll().where('vehicle_id', '=', vehicleId).executeTakeFirstOrThrow();
    expect(terms.km_per_day).toBeNull();
    expect(Number(terms.daily_rate)).toBe(2400);

    const sale = await admin.request(path, { method: 'POST', body: vehicleForm(categoryId, { purpose: 'sale' }) });
    expect(sale.status).toBe(302);
    expect((await database.db.selectFrom('vehicles').select('purpose').where('id', '=', vehicleId).executeTakeFirstOrThrow()).purpose).toBe('sale');
    const audit = mainText(await (await admin.get('/admin/audit-log')).text());
    expect(audit).toContain(`Changed the rental terms of vehicle #${vehicleId}`);
    expect(audit).toContain(`Moved vehicle #${vehicleId} from the rental fleet to sale stock`);
  });

  it("saves the rental settings and refuses a wrong value with its message (the PIN codes are the test drives section's)", async () => {
    const page = await admin.get('/admin/settings');
    const html = await page.text();
    expect(mainText(html)).toContain('Self-drive rental');
    expect(html).toContain('400069');

    const base = { intent: 'save', siteName: 'Gaadi Bazaar', adminEmail: ADMIN, itemsPerPage: '10', emailNotifications: 'on' };
    const rental = {
      rentalBufferHours: '3',
      rentalMinNoticeHours: '2',
      rentalHorizonDays: '60',
      rentalGraceHours: '1',
      rentalLateFeePerHour: '₹250',
      rentalFreeCancelHours: '48',
      rentalLateCancelKeepDays: '1',
      rentalDeliveryFee: '600',
      rentalGstPercent: '12',
      rentalProtectionPerDay: '300',
      rentalProtectionCap: '₹4,000',
      rentalRefundWorkingDays: '5',
    };
    const wrong = await admin.postForm('/admin/settings', { ...base, ...rental, rentalBufferHours: '99' });
    expect(wrong.status).toBe(200);
    const wrongText = mainText(await wrong.text());
    expect(wrongText).toContain('The turnaround buffer can be at most 48 hours');

    const saved = await admin.postForm('/admin/settings', { ...base, ...rental });
    expect(saved.status).toBe(302);
    const rows = await database.db.selectFrom('settings').select(['key', 'value']).execute();
    const values = Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
    expect(values).toMatchObject({
      rentalBufferHours: 3,
      rentalLateFeePerHour: 250,
      rentalFreeCancelHours: 48,
      rentalGstPercent: 12,
      rentalProtectionCap: 4000,
    });
    // The terms page, the car pages and the API read the facts from these settings (decision 066).
    const terms = decodeEntities(mainText(await (await fetch(`${server.url}/rent/terms`)).text()));
    expect(terms).toContain('12% GST is added to the rent, protection and delivery; not to the deposit.');
    expect(terms).toContain('Optional, ₹300 a day: what you pay for damage in one booking is capped at ₹4,000.');
    expect(terms).toContain('within 5 working days');
    expect(terms).toContain('then ₹250 for each started late hour');
    const api = (await (await fetch(`${server.url}/api/v1/rentals/terms`)).json()) as { policy: { gstPercent: number; refundWorkingDays: number } };
    expect(api.policy).toMatchObject({ gstPercent: 12, refundWorkingDays: 5 });
    const wrongGst = await admin.postForm('/admin/settings', { ...base, ...rental, rentalGstPercent: '50' });
    expect(mainText(await wrongGst.text())).toContain('GST can be at most 40%');
  });

  it('reads a block on the rental desk by its schema: each wrong field told beside it, the note kept, nothing blocked', async () => {
    const count = async () =>
      Number(
        (await database.db
          .selectFrom('rental_bookings')
          .where('kind', '=', 'block')
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirst())!.count,
      );
    const before = await count();
    for (const fields of [
      { intent: 'add-block', vehicleId: 'none', from: '', to: 'next week', note: 'Service visit' },
      { intent: 'add-block', vehicleId: '99999999999999999999', from: '2026-12-01T10:00', to: '2026-13-01T10:00', note: 'Service visit' },
    ]) {
      const response = await admin.postForm('/admin/rentals', fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const html = await response.text();
      const text = mainText(html);
      expect(text).toContain('Please choose a car.');
      expect(text).toContain('Please give the start and end of the block.');
      expect(html).toContain('value="Service visit"');
    }
    // The desk's other buttons are read by the same schema, told apart by their intent: a wrong id or intent has its sentence.
    for (const [fields, sentence] of [
      [{ intent: 'remove-block', blockId: 'x' }, 'This block was not found.'],
      [{ intent: 'refuse', bookingId: '0', reason: 'No car' }, 'This booking was not found.'],
      [{ intent: 'explode' }, 'The form could not be read.'],
    ] as const) {
      const response = await admin.postForm('/admin/rentals', fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(mainText(await response.text())).toContain(sentence);
    }
    expect(await count()).toBe(before);
  });

  it('keeps the rental desk and licence review behind the admin guard', async () => {
    const person = new HttpClient(server.url);
    await signUp(person, uniqueEmail('renter'));
    for (const path of ['/admin/rentals', '/admin/rentals/licences']) {
      const signedOut = await new HttpClient(server.url).get(path);
      expect(signedOut.status, path).toBe(302);
      expect(signedOut.headers.get('location')).toMatch(/^\/admin-login/);
      const user = await person.get(path);
      expect(user.status, path).toBe(403);
      await user.body?.cancel();
      const own = await admin.get(path);
      expect(own.status, path).toBe(200);
      await own.body?.cancel();
    }
  });
});
