import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { systemClock } from '../../server/clock.ts';
import { dayLabel } from '../../app/features/appointments/test-drives.ts';
import { addFleetCar, addRenter, rentalServices } from '../support/rentals.ts';
import { openServerDatabase } from '../support/database.ts';
import { decodeEntities, HttpClient, mainText, visibleText } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { indiaDay, indiaDayStart } from '../../app/lib/india-time.ts';

/**
 * The admin dashboard opens with today's work: new leads since the admin's last visit, test
 * drives today, rental pickups and returns today, licences waiting, each a link to its list,
 * then the cards. A visit is a run of loads less than 30 minutes apart; the test moves a visit
 * into the past in the database rather than waiting. "Today" is India's day; the fixtures sit
 * around the middle of it, yesterday and tomorrow, so a server clock in UTC would miscount them.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TestServer;
let database: Database;
let admin: HttpClient;

async function addLead(kind: 'request' | 'sell', createdAt: Date, status: 'new' | 'contacted' = 'new') {
  const at = createdAt.toISOString();
  if (kind === 'request') {
    await database.db
      .insertInto('vehicle_requests')
      .values({
        name: 'Ravi Kumar',
        phone: '98765 43210',
        model: 'Swift',
        year: '',
        budget: '5 lakh',
        description: '',
        status,
        notes: '',
        created_at: at,
        updated_at: at,
      })
      .execute();
  } else {
    await database.db
      .insertInto('sell_submissions')
      .values({
        name: 'Asha Rao',
        phone: '98765 43211',
        vehicle: 'Honda City',
        year: '2018',
        price: '450000',
        description: '',
        status,
        notes: '',
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
}

/** The count on the dashboard tile labelled `label`, and where it links. */
function tile(html: string, label: string): { count: number; href: string } {
  const match = new RegExp(`<a\\b[^>]*href="([^"]*)"[^>]*>\\s*<span[^>]*>(\\d+)</span>\\s*<span[^>]*>${label}</span>`).exec(html);
  if (!match) throw new Error(`no tile "${label}" on the dashboard`);
  return { count: Number(match[2]), href: decodeEntities(match[1]!) };
}

async function dashboard(): Promise<string> {
  const response = await admin.get('/admin-panel');
  expect(response.status).toBe(200);
  return response.text();
}

/** A test drive of the demo's first car for sale at an instant, straight into the table. */
async function addTestDrive(slotStart: Date, status: 'booked' | 'confirmed' | 'done' | 'cancelled', seat: number) {
  const car = await database.db.selectFrom('vehicles').select(['id', 'name']).where('purpose', '=', 'sale').orderBy('id').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const renter = await addRenter(database, { licence: null });
  await database.db
    .insertInto('test_drives')
    .values({
      user_id: renter.userId,
      vehicle_id: null,
      vehicle_title: car.name,
      mode: 'hub',
      pin_code: '400001',
      name: 'Ravi Kumar',
      phone: renter.phone,
      email: renter.email,
      slot_start_ms: slotStart.getTime(),
      seat,
      status,
      reminded_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** A rental booking of its own fleet car (so no two holds overlap), straight into the table; returns its id. */
async function addBooking(fromMs: number, toMs: number, status: string): Promise<number> {
  const vehicleId = await addFleetCar(rentalServices(database, systemClock), `Desk Car ${fromMs}-${status}`);
  const renter = await addRenter(database);
  const now = new Date().toISOString();
  const row = await database.db
    .insertInto('rental_bookings')
    .values({
      kind: 'booking',
      vehicle_id: vehicleId,
      user_id: renter.userId,
      status,
      starts_ms: fromMs,
      ends_ms: toMs,
      held_until_ms: toMs + 2 * HOUR,
      payment_order_id: null,
      payment_id: null,
      hold_expires_ms: null,
      odometer_out: null,
      fuel_out: null,
      odometer_in: null,
      fuel_in: null,
      returned_ms: null,
      charges: null,
      deposit_refund_paise: null,
      reminder_sent_at: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function visitRow() {
  return database.db.selectFrom('admin_dashboard_visits').selectAll().where('admin_email', '=', ADMIN.email).executeTakeFirst();
}

describe.skipIf(!sharedUrl)(`admin dashboard: today's work (${dialect})`, () => {
  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password } });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    const signedIn = await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') });
    expect(signedIn.status).toBe(302);
  });
  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('is behind the admin guard', async () => {
    const response = await new HttpClient(server.url).get('/admin-panel');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/admin-login/);
    expect(await database.db.selectFrom('admin_dashboard_visits').selectAll().execute()).toEqual([]);
  });

  it('ten first loads at once record one visit; on a first visit every lead not yet contacted counts', async () => {
    const twoDaysAgo = new Date(Date.now() - 48 * HOUR);
    await addLead('request', twoDaysAgo);
    await addLead('request', twoDaysAgo);
    await addLead('request', twoDaysAgo, 'contacted');
    await addLead('sell', twoDaysAgo);

    const pages = await Promise.all(Array.from({ length: 10 }, () => admin.get('/admin-panel')));
    expect(pages.map((page) => page.status)).toEqual(Array(10).fill(200));
    await Promise.all(pages.map((page) => page.body?.cancel()));
    expect(await database.db.selectFrom('admin_dashboard_visits').selectAll().execute()).toHaveLength(1);

    const html = await dashboard();
    const text = mainText(html);
    expect(text).toContain("Today's work");
    expect(tile(html, 'New vehicle requests')).toEqual({ count: 2, href: '/admin/requested-vehicles?status=new' });
    expect(tile(html, 'New sell offers')).toEqual({ count: 1, href: '/admin-panel/selling-vehicles?status=new' });
    expect(text).toContain('Not yet contacted');
    // The cards follow.
    expect(text.indexOf('Add Vehicle')).toBeGreaterThan(text.indexOf("Today's work"));
  });

  it('counts the leads since the previous visit; reloading within the visit keeps them', async () => {
    // The visit above began an hour ago: this load starts a new one.
    const anHourAgo = new Date(Date.now() - HOUR).toISOString();
    await database.db.updateTable('admin_dashboard_visits').set({ seen_at: anHourAgo }).where('admin_email', '=', ADMIN.email).execute();
    await addLead('request', new Date());
    await addLead('sell', new Date());
    await addLead('sell', new Date());

    const html = await dashboard();
    expect(tile(html, 'New vehicle requests').count).toBe(1);
    expect(tile(html, 'New sell offers').count).toBe(2);
    expect(mainText(html)).toContain('Since your last visit');
    const row = await visitRow();
    expect(row?.previous_seen_at).toBe(anHourAgo);

    // A reload, and a page under /admin-panel, are part of the same visit.
    expect((await admin.get('/admin-panel/vehicles')).status).toBe(200);
    const again = await dashboard();
    expect(tile(again, 'New vehicle requests').count).toBe(1);
    expect(await visitRow()).toEqual(row);
  });

  it('shows the coming week: what is booked on each of the next six days, a test drive tomorrow included', async () => {
    /** Each day of the week section as its text, by the day's label. */
    const week = (html: string) => {
      const start = html.indexOf('id="week-heading"');
      const section = html.slice(start, html.indexOf('</section>', start));
      return section
        .split('<li')
        .slice(1)
        .map((item) => visibleText(`<${item.replaceAll('<!-- -->', '')}`));
    };
    const nowMs = Date.now();
    const tomorrow = indiaDayStart(nowMs) + DAY;
    const label = dayLabel(indiaDay(tomorrow));
    const drivesTomorrow = (days: string[]) => Number(/Test drives: (\d+)/.exec(days.find((day) => day.includes(label)) ?? '')?.[1] ?? 0);
    const before = week(await dashboard());
    expect(before).toHaveLength(6);
    expect(before[0]).toContain(label);
    expect(before[5]).toContain(dayLabel(indiaDay(tomorrow + 5 * DAY)));
    // One booked for tomorrow at 11:00 India time: today's tile stays as it was, the week says it.
    await addTestDrive(new Date(tomorrow + 11 * HOUR), 'booked', 0);
    expect(drivesTomorrow(week(await dashboard()))).toBe(drivesTomorrow(before) + 1);
  });

  it('counts test drives, rental pickups and returns of the India day and licences waiting, each a link to its list', async () => {
    const before = await dashboard();
    const count = (html: string, label: string) => tile(html, label).count;
    const baseline = {
      drives: count(before, 'Test drives today'),
      pickups: count(before, 'Rental pickups today'),
      returns: count(before, 'Rental returns today'),
      licences: count(before, 'Licences to review'),
    };
    const nowMs = Date.now();
    const today = indiaDayStart(nowMs);
    // India's day begins 5½ hours before UTC's: 01:00 IST today is still yesterday in UTC.
    const at = (dayOffset: number, hour: number) => today + dayOffset * DAY + hour * HOUR;

    await addTestDrive(new Date(at(0, 1)), 'booked', 0);
    await addTestDrive(new Date(at(0, 11)), 'confirmed', 0);
    await addTestDrive(new Date(at(0, 23)), 'done', 0);
    await addTestDrive(new Date(at(0, 11)), 'cancelled', 1);
    await addTestDrive(new Date(at(-1, 23)), 'booked', 0);
    await addTestDrive(new Date(at(1, 0)), 'booked', 0);

    const pickedUpToday = await addBooking(at(0, 1), at(2, 10), 'confirmed');
    const handedOverToday = await addBooking(at(0, 9), at(3, 9), 'active');
    const backToday = await addBooking(at(-1, 10), at(0, 18), 'active');
    const returnedToday = await addBooking(at(-3, 10), at(0, 9), 'returned');
    const sameDay = await addBooking(at(0, 8), at(0, 20), 'requested');
    const cancelled = await addBooking(at(0, 10), at(0, 22), 'cancelled');
    const lapsed = await addBooking(at(0, 12), at(1, 12), 'expired');
    const startedYesterday = await addBooking(at(-1, 23), at(1, 1), 'active');
    const tomorrow = await addBooking(at(1, 0), at(1, 23), 'confirmed');

    await addRenter(database, { licence: 'pending' });
    await addRenter(database, { licence: 'pending' });
    await addRenter(database, { licence: 'approved' });
    await addRenter(database, { licence: 'refused' });

    const html = await dashboard();
    expect(tile(html, 'Test drives today')).toEqual({ count: baseline.drives + 3, href: `/admin/test-drives?date=${indiaDay(nowMs)}` });
    expect(tile(html, 'Rental pickups today')).toEqual({ count: baseline.pickups + 3, href: '/admin/rentals#pickups-today' });
    expect(tile(html, 'Rental returns today')).toEqual({ count: baseline.returns + 3, href: '/admin/rentals#returns-today' });
    expect(tile(html, 'Licences to review')).toEqual({ count: baseline.licences + 2, href: '/admin/rentals/licences' });

    // The lists behind the tiles show the same bookings.
    const desk = await admin.get('/admin/rentals');
    expect(desk.status).toBe(200);
    // React writes `<!-- -->` between neighbouring text pieces.
    const deskHtml = (await desk.text()).replaceAll('<!-- -->', '');
    const section = (id: string) => deskHtml.slice(deskHtml.indexOf(`id="${id}"`), deskHtml.indexOf('</ul>', deskHtml.indexOf(`id="${id}"`)));
    const listed = (id: string) => [...section(id).matchAll(/#(\d+) · Desk Car/g)].map((match) => Number(match[1])).sort((a, b) => a - b);
    expect(listed('pickups-today')).toEqual([pickedUpToday, handedOverToday, sameDay].sort((a, b) => a - b));
    expect(listed('returns-today')).toEqual([backToday, returnedToday, sameDay].sort((a, b) => a - b));
    for (const id of [cancelled, lapsed, startedYesterday, tomorrow])
      expect(`${section('pickups-today')}${section('returns-today')}`).not.toContain(`#${id} · `);

    const drives = await admin.get(tile(html, 'Test drives today').href);
    expect(drives.status).toBe(200);
    const licences = await admin.get('/admin/rentals/licences');
    expect(licences.status).toBe(200);
  });
});
