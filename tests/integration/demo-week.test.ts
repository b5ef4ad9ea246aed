import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { slotInstant } from '../../app/features/appointments/test-drives.ts';
import { openServerDatabase } from '../support/database.ts';
import { decodeEntities, HttpClient, mainText } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * `npm run demo` on an empty database loads, besides the inventory, a week of work around the
 * moment it starts (server/db/demo/week.ts): the rental desk and the admin dashboard of a fresh
 * demo show test drives, bookings in every state and leads instead of zeros. The suite's other
 * servers (test mode, or a copy of the seeded template) never get it.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

let server: TestServer;
let database: Database;
let admin: HttpClient;

function tile(html: string, label: string): number {
  const match = new RegExp(`<a\\b[^>]*href="[^"]*"[^>]*>\\s*<span[^>]*>(\\d+)</span>\\s*<span[^>]*>${label}</span>`).exec(html);
  if (!match) throw new Error(`no tile "${label}" on the dashboard`);
  return Number(match[1]);
}

describe.skipIf(!sharedUrl)(`the demo's seeded week (${dialect})`, () => {
  beforeAll(async () => {
    // A fresh database in demo mode, seeded by the server itself as `npm run demo` does.
    // Late in the evening, India time: the hour at which "later today" once fell into tomorrow
    // and the dashboard's pickups and returns today showed zeros.
    const lateTonight = `${indiaDay(Date.now())}T23:20:00+05:30`;
    server = await startTestServer({
      dialect,
      seed: false,
      env: { APP_MODE: 'demo', SEED_DEMO: 'true', DEMO_ADMIN_PASSWORD: ADMIN.password, PAGE_CACHE_SECONDS: '0', TEST_CLOCK_START: lateTonight },
    });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    const signedIn = await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') });
    expect(signedIn.status).toBe(302);
  }, 180_000);
  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('has rental bookings in every state, test drives past, today and coming, and customers who may rent', async () => {
    const bookings = await database.db.selectFrom('rental_bookings').select(['status', 'starts_ms', 'ends_ms']).where('kind', '=', 'booking').execute();
    expect(new Set(bookings.map((booking) => booking.status))).toEqual(
      new Set(['closed', 'returned', 'active', 'confirmed', 'requested', 'cancelled', 'refused']),
    );

    const drives = await database.db.selectFrom('test_drives').select(['status', 'slot_start_ms']).execute();
    expect(new Set(drives.map((drive) => drive.status))).toEqual(new Set(['done', 'no_show', 'confirmed', 'booked', 'cancelled']));
    const today = indiaDay(Date.now());
    const dayStart = slotInstant(`${today}T00:00`).getTime();
    const dayEnd = slotInstant(`${addDays(today, 1)}T00:00`).getTime();
    expect(drives.some((drive) => drive.slot_start_ms < dayStart)).toBe(true);
    expect(drives.filter((drive) => drive.slot_start_ms >= dayStart && drive.slot_start_ms < dayEnd)).toHaveLength(3);
    expect(drives.some((drive) => drive.slot_start_ms >= dayEnd)).toBe(true);

    const people = await database.db
      .selectFrom('profiles')
      .innerJoin('driving_licences', 'driving_licences.user_id', 'profiles.user_id')
      .select(['profiles.phone', 'profiles.phone_verified', 'driving_licences.status'])
      .execute();
    expect(people.length).toBeGreaterThanOrEqual(5);
    for (const person of people) {
      expect(person.phone).toMatch(/^\+91\d{10}$/);
      expect(Boolean(person.phone_verified)).toBe(true);
    }
    expect(people.filter((person) => person.status === 'pending')).toHaveLength(1);

    // Each customer joined before their bookings: the account, the profile's "member since" and its last update agree.
    const customers = await database.db
      .selectFrom('profiles')
      .innerJoin('driving_licences', 'driving_licences.user_id', 'profiles.user_id')
      .select(['profiles.user_id', 'profiles.created_at', 'profiles.updated_at'])
      .execute();
    for (const person of customers) {
      // better-auth's id is a uuid on PostgreSQL and the profile's a text: read one by the other.
      const { createdAt } = await database.db.selectFrom('user').select('createdAt').where('id', '=', person.user_id).executeTakeFirstOrThrow();
      const account = new Date(createdAt).getTime();
      expect(Date.parse(person.created_at)).toBe(account);
      expect(Date.parse(person.updated_at)).toBeGreaterThanOrEqual(account);
      expect(account).toBeLessThan(Date.now() - 7 * 24 * 60 * 60 * 1000);
    }
  });

  it('the dashboard opens with today’s work instead of zeros', async () => {
    const response = await admin.get('/admin-panel');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(tile(html, 'New vehicle requests')).toBe(2);
    expect(tile(html, 'New sell offers')).toBe(1);
    expect(tile(html, 'Test drives today')).toBe(3);
    expect(tile(html, 'Rental pickups today')).toBeGreaterThanOrEqual(1);
    expect(tile(html, 'Rental returns today')).toBeGreaterThanOrEqual(1);
    expect(tile(html, 'Licences to review')).toBe(1);
  });

  it('the rental desk shows the week: one to confirm, cars out and back', async () => {
    const response = await admin.get('/admin/rentals');
    expect(response.status).toBe(200);
    const text = decodeEntities(mainText(await response.text()));
    expect(text).toContain('Waiting for confirmation (1)');
    expect(text).toContain('Hyundai Creta S – Self Drive');
    expect(text).toMatch(/Returned/);
    expect(text).toMatch(/On trip/);
  });

  it('the test drives of today are on the day’s schedule', async () => {
    const response = await admin.get('/admin/test-drives');
    expect(response.status).toBe(200);
    expect(mainText(await response.text())).toMatch(/3 test drives/);
  });

  it('has cars sold over the last weeks, each with its tax invoice, in one consecutive series', async () => {
    const sales = await database.db.selectFrom('sales').select(['id', 'invoice_number', 'status', 'language', 'user_id']).orderBy('id').execute();
    expect(sales.length).toBe(6);
    expect(sales.every((sale) => sale.status === 'recorded')).toBe(true);
    const serials = sales.map((sale) => Number(sale.invoice_number.split('/').at(-1)));
    // Sold over the last 45 days: two financial years meet only at April, so the serials run on.
    if (new Set(sales.map((sale) => sale.invoice_number.split('/')[1])).size === 1) expect(serials).toEqual(serials.map((_, index) => serials[0]! + index));
    expect(new Set(sales.map((sale) => sale.language))).toEqual(new Set(['en', 'hi']));
    // The buyers with accounts find their invoices on their profile.
    expect(sales.filter((sale) => sale.user_id !== null).length).toBeGreaterThanOrEqual(2);
    const page = decodeEntities(mainText(await (await admin.get('/admin/sales')).text()));
    for (const sale of sales) expect(page).toContain(sale.invoice_number);
  });

  it('has a registration transfer in each state, one overdue on the panel, and every car but the newest handed over', async () => {
    const transfers = await database.db.selectFrom('rc_transfers').select('step').execute();
    expect(new Set(transfers.map((transfer) => transfer.step))).toEqual(new Set(['sold', 'forms-signed', 'submitted', 'fee-paid', 'rc-issued', 'delivered']));
    expect(await database.db.selectFrom('sale_deliveries').select('id').execute()).toHaveLength(5);
    const list = decodeEntities(mainText(await (await admin.get('/admin/sales/transfers')).text()));
    expect(list).toMatch(/overdue/i);
    const panel = decodeEntities(mainText(await (await admin.get('/admin-panel')).text()));
    expect(panel).toMatch(/Registration transfers? overdue/);
  });
});
