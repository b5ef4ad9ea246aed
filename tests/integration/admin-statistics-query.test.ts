import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rupeesToPaise } from '../../app/lib/money.ts';
import { computeStatistics, existingLeadTables } from '../../server/admin/statistics.ts';
import type { Database } from '../../server/db/connection.ts';
import { openTestDatabase, vehicleRow, type TestDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * The admin statistics: India-time (IST, UTC+05:30) day and month bucketing, and the query on
 * SQLite and PostgreSQL, with and without the leads tables.
 */

// ------------------------------------------------------------------ the query, on both dialects

// This project's database: SQLite in integration-sqlite, PostgreSQL in integration-postgres
// (its url is '' when PostgreSQL is unreachable outside CI; under CI that fails the run).
const shared = sharedServer();
const dialect = { name: shared.dialect, open: () => openTestDatabase(shared.dialect), skip: shared.url === '' };

// 15 May 2026, 11:30 IST.
const NOW = new Date('2026-05-15T06:00:00.000Z');

describe.skipIf(dialect.skip)(`statistics query on ${dialect.name}`, () => {
  let opened: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    opened = await dialect.open();
    database = opened.database;
    const { db } = database;
    const stamp = '2026-01-01T00:00:00.000Z';
    const categories = await db
      .insertInto('categories')
      .values(
        ['SUVs', 'Sedans', 'Hatchbacks'].map((name) => ({
          name,
          slug: name.toLowerCase(),
          image_key: null,
          image_width: null,
          image_height: null,
          image_widths: null,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .returning('id')
      .execute();
    const categoryId = categories[0]!.id;
    const vehicle = (name: string, status: 'available' | 'reserved' | 'sold', soldPrice: number | null = null, soldAt: string | null = null) =>
      vehicleRow({ category_id: categoryId, name, status, sold_price: soldPrice, sold_at: soldAt, created_at: stamp, updated_at: stamp });
    await db
      .insertInto('vehicles')
      .values([
        vehicle('Available one', 'available'),
        vehicle('Available two', 'available'),
        vehicle('Reserved', 'reserved'),
        // 30 April 23:59 IST: last month, but inside the 30-day chart.
        vehicle('Sold late April', 'sold', 400000, '2026-04-30T18:29:00.000Z'),
        // 1 May 00:00 IST: this month (a UTC date would say 30 April).
        vehicle('Sold first of May', 'sold', 550000, '2026-04-30T18:30:00.000Z'),
        vehicle('Sold today', 'sold', 1250000, '2026-05-15T05:00:00.000Z'),
        vehicle('Sold, price unknown', 'sold', null, '2026-05-14T20:00:00.000Z'),
        // Sold long ago: counted by status only.
        vehicle('Sold in March', 'sold', 300000, '2026-03-01T10:00:00.000Z'),
      ])
      .execute();
    // better-auth owns and creates this table in the app; only its row count matters here.
    await sql`create table if not exists "user" (id text primary key, email text not null)`.execute(db);
    await sql`insert into "user" (id, email) values ('u1', 'one@example.in'), ('u2', 'two@example.in')`.execute(db);
  }, 60_000);

  afterAll(async () => {
    await opened?.cleanup();
  });

  it('counts vehicles by status, categories, users and this month’s sales in IST', async () => {
    await dropLeadTables(database);
    const stats = await computeStatistics(database, { now: NOW });
    expect(stats.vehicles).toEqual({ total: 8, available: 2, reserved: 1, sold: 5 });
    expect(stats.categories).toBe(3);
    expect(stats.users).toBe(2);
    expect(stats.monthlySales).toEqual({ month: '2026-05', amount: 550000 + 1250000, count: 3 });
  });

  it('charts vehicles sold per IST day for 30 days and no leads while their tables do not exist', async () => {
    await dropLeadTables(database);
    expect(await existingLeadTables(database)).toEqual([]);
    const stats = await computeStatistics(database, { now: NOW });
    expect(stats.leadsTracked).toBe(false);
    expect(stats.daily).toHaveLength(30);
    expect(stats.daily[0]?.date).toBe('2026-04-16');
    expect(stats.daily.at(-1)?.date).toBe('2026-05-15');
    const byDate = Object.fromEntries(stats.daily.filter((point) => point.sold).map((point) => [point.date, point.sold]));
    expect(byDate).toEqual({ '2026-04-30': 1, '2026-05-01': 1, '2026-05-15': 2 });
    expect(stats.daily.every((point) => point.leads === 0)).toBe(true);
  });

  it('gives the rental figures of the IST month: bookings made, utilisation of the fleet and revenue; the sale figures leave the fleet out', async () => {
    const { db } = database;
    const before = (await computeStatistics(database, { now: NOW })).vehicles;
    const { id: _id, ...template } = await db.selectFrom('vehicles').selectAll().where('status', '=', 'available').limit(1).executeTakeFirstOrThrow();
    const fleetCar = async (name: string, joined: string) => {
      const { id } = await db
        .insertInto('vehicles')
        .values({ ...template, name, search_text: name.toLowerCase(), purpose: 'rental' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('rental_terms')
        .values({
          vehicle_id: id,
          hourly_rate: 150,
          daily_rate: 1800,
          weekly_rate: null,
          km_per_day: 240,
          extra_km_rate: 12,
          deposit: 5000,
          fuel_policy: 'full-to-full',
          min_age: 21,
          min_hours: 4,
          seats: 5,
          commercial_registration: 1,
          delivery_available: 1,
          created_at: joined,
          updated_at: joined,
        })
        .execute();
      return id;
    };
    // In the fleet all May (744 hours), and from 17 May 00:00 IST (15 days, 360 hours).
    const carA = await fleetCar('Fleet A', '2026-01-01T00:00:00.000Z');
    const carB = await fleetCar('Fleet B', '2026-05-16T18:30:00.000Z');
    const ist = (text: string) => Date.parse(`${text}:00+05:30`);
    const row = (
      vehicleId: number,
      kind: 'booking' | 'block',
      status: string,
      from: string,
      to: string,
      createdAt: string,
      money: { rent?: number; deliveryFee?: number; charges?: number; paid?: number; refunded?: number } = {},
    ) => ({
      kind,
      vehicle_id: vehicleId,
      user_id: kind === 'booking' ? 'u1' : null,
      status,
      starts_ms: ist(from),
      ends_ms: ist(to),
      held_until_ms: ist(to) + 2 * 3_600_000,
      quote: JSON.stringify({
        hours: 0,
        rent: money.rent ?? 0,
        deliveryFee: money.deliveryFee ?? 0,
        deposit: 5000,
        kmIncluded: 240,
        extraKmRate: 12,
        total: 0,
        payableNow: 0,
      }),
      charges: money.charges === undefined ? null : JSON.stringify({ total: money.charges }),
      amount_paid_paise: rupeesToPaise(money.paid ?? 0),
      amount_refunded_paise: rupeesToPaise(money.refunded ?? 0),
      created_at: createdAt,
      updated_at: createdAt,
    });
    await db
      .insertInto('rental_bookings')
      .values([
        // Began in April (made 30 April 23:55 IST): 34 of its hours are May's; its revenue is April's.
        row(carA, 'booking', 'closed', '2026-04-30T10:00', '2026-05-02T10:00', '2026-04-30T18:25:00.000Z', { rent: 3600 }),
        // Confirmed for later this month: booked hours, no revenue yet.
        row(carA, 'booking', 'confirmed', '2026-05-25T10:00', '2026-05-27T10:00', '2026-05-10T04:00:00.000Z', { rent: 3600 }),
        // Returned: 27 hours; rent, delivery and return charges are revenue.
        row(carB, 'booking', 'returned', '2026-05-18T09:00', '2026-05-19T12:00', '2026-05-12T04:00:00.000Z', { rent: 3000, deliveryFee: 500, charges: 600 }),
        // Cancelled: a booking made this month, but neither hours nor revenue.
        row(carA, 'booking', 'cancelled', '2026-05-05T10:00', '2026-05-06T10:00', '2026-05-03T04:00:00.000Z', { rent: 1800 }),
        // Paid online, cancelled late: the day's rent kept (₹1,800 of ₹6,800) is revenue, no hours.
        row(carB, 'booking', 'cancelled', '2026-05-07T10:00', '2026-05-08T10:00', '2026-05-04T04:00:00.000Z', { rent: 1800, paid: 6800, refunded: 5000 }),
        // Paid online and cancelled in time: all of it went back, nothing kept.
        row(carB, 'booking', 'cancelled', '2026-05-09T10:00', '2026-05-10T10:00', '2026-05-04T05:00:00.000Z', { rent: 1800, paid: 6800, refunded: 6800 }),
        // Requested (made 1 May 00:05 IST): counted as made, not as booked hours.
        row(carB, 'booking', 'requested', '2026-05-28T10:00', '2026-05-29T10:00', '2026-04-30T18:35:00.000Z', { rent: 1800 }),
        // Runs past midnight into June: 4 of its hours are May's; picked up in May, so its rent is.
        row(carA, 'booking', 'closed', '2026-05-31T20:00', '2026-06-01T08:00', '2026-05-15T05:00:00.000Z', { rent: 1500 }),
        // A day's block on car A: not available.
        row(carA, 'block', 'blocked', '2026-05-20T10:00', '2026-05-21T10:00', '2026-05-01T04:00:00.000Z'),
      ])
      .execute();

    const stats = await computeStatistics(database, { now: NOW });
    expect(stats.rental).toEqual({
      month: '2026-05',
      bookings: 7,
      fleetCars: 2,
      bookedHours: 34 + 48 + 27 + 4,
      availableHours: 744 + 360 - 24,
      utilisation: (34 + 48 + 27 + 4) / (744 + 360 - 24),
      revenue: 3000 + 500 + 600 + 1500 + 1800,
    });
    // The fleet cars are not sale stock.
    expect(stats.vehicles).toEqual(before);

    // Another month, nothing of this one.
    const june = await computeStatistics(database, { now: new Date('2026-06-10T06:00:00.000Z') });
    expect(june.rental).toMatchObject({ month: '2026-06', bookings: 0, bookedHours: 8, revenue: 0, availableHours: 2 * 720 });
  });

  it('counts leads from vehicle_requests and sell_submissions once those tables exist', async () => {
    await dropLeadTables(database);
    await sql`create table vehicle_requests (id integer primary key, created_at text not null)`.execute(database.db);
    const insert = (table: string, id: number, createdAt: string) =>
      sql`insert into ${sql.table(table)} (id, created_at) values (${id}, ${createdAt})`.execute(database.db);
    await insert('vehicle_requests', 1, '2026-05-14T18:29:00.000Z'); // 14 May IST
    await insert('vehicle_requests', 2, '2026-05-14T18:30:00.000Z'); // 15 May IST
    await insert('vehicle_requests', 3, '2026-04-15T18:29:59.000Z'); // 15 April IST: before the chart
    expect(await existingLeadTables(database)).toEqual(['vehicle_requests']);
    let stats = await computeStatistics(database, { now: NOW });
    expect(stats.leadsTracked).toBe(true);
    expect(stats.daily.filter((point) => point.leads).map((point) => [point.date, point.leads])).toEqual([
      ['2026-05-14', 1],
      ['2026-05-15', 1],
    ]);

    await sql`create table sell_submissions (id integer primary key, created_at text not null)`.execute(database.db);
    await insert('sell_submissions', 1, '2026-04-15T18:30:00.000Z'); // 16 April IST: first chart day
    await insert('sell_submissions', 2, '2026-05-15T01:00:00.000Z');
    await insert('sell_submissions', 3, '2026-05-15T01:05:00.000Z');
    expect(await existingLeadTables(database)).toEqual(['vehicle_requests', 'sell_submissions']);
    stats = await computeStatistics(database, { now: NOW });
    expect(stats.daily.filter((point) => point.leads).map((point) => [point.date, point.leads])).toEqual([
      ['2026-04-16', 1],
      ['2026-05-14', 1],
      ['2026-05-15', 3],
    ]);
    await dropLeadTables(database);
  });

  it('counts a car sold on a date without a time (as the edit form saves it) on that day in the cards and the chart alike', async () => {
    await dropLeadTables(database);
    const before = await computeStatistics(database, { now: NOW });
    const markSold = (name: string, soldAt: string) =>
      database.db.updateTable('vehicles').set({ status: 'sold', sold_price: 100000, sold_at: soldAt }).where('name', '=', name).execute();
    await markSold('Available one', '2026-05-15'); // today
    await markSold('Available two', '2026-04-16'); // first day of the chart, last month
    try {
      const stats = await computeStatistics(database, { now: NOW });
      expect(stats.monthlySales).toEqual({ month: '2026-05', amount: before.monthlySales.amount + 100000, count: before.monthlySales.count + 1 });
      const byDate = Object.fromEntries(stats.daily.filter((point) => point.sold).map((point) => [point.date, point.sold]));
      expect(byDate).toEqual({ '2026-04-16': 1, '2026-04-30': 1, '2026-05-01': 1, '2026-05-15': 3 });
      const soldThisMonth = stats.daily.filter((point) => point.date.startsWith('2026-05')).reduce((sum, point) => sum + point.sold, 0);
      expect(soldThisMonth).toBe(stats.monthlySales.count);
    } finally {
      await database.db
        .updateTable('vehicles')
        .set({ status: 'available', sold_price: null, sold_at: null })
        .where('name', 'in', ['Available one', 'Available two'])
        .execute();
    }
  });
});

/** The leads migration may or may not be present: start each test from a known state. */
async function dropLeadTables(database: Database) {
  for (const table of ['sell_submission_images', 'sell_submissions', 'vehicle_requests']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
  }
}
