import { sql } from 'kysely';
import { CHART_DAYS } from '../../app/features/admin/admin-pages.ts';
import type { RentalQuote, ReturnCharges } from '../../app/features/rentals/rental-price.ts';
import { paiseToWholeRupees } from '../../app/lib/money.ts';
import type { Database } from '../db/connection.ts';
import { countUsers } from '../auth/admins.ts';

/**
 * The admin Statistics screen's figures, computed from the database (the spec's screen showed
 * zeros; design.md asks for real figures).
 *
 * Days and months are India's (IST, UTC+05:30): a car sold at 11 pm in Pune on the 31st counts
 * for the 31st, not for the next day as a UTC date would. Timestamps are stored as ISO-8601 UTC
 * text ('2026-05-01T18:45:12.345Z', from Date.toISOString()), which compares correctly as text
 * on both SQLite and PostgreSQL, so ranges are plain text comparisons against the UTC instants
 * where IST days begin.
 *
 * Per-day counts are grouped in SQL by ten-minute slice, substr(ts, 1, 15) =
 * 'YYYY-MM-DDTHH:M', and the slices are then added up per IST day here. IST midnight is 18:30
 * UTC, always on a ten-minute boundary, so every slice lies wholly inside one IST day. Grouping
 * by substr(ts, 1, 10) would count UTC days, off by 5.5 hours; shifting the time in SQL would
 * need a different expression per dialect. At most 144 slices a day are read back, however many
 * sales or leads there are.
 */

export const IST_OFFSET_MINUTES = 330;
/** 'YYYY-MM-DDTHH:M': a ten-minute slice of an ISO-8601 UTC timestamp. */
export const SLICE_LENGTH = 15;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const OFFSET_MS = IST_OFFSET_MINUTES * MINUTE_MS;

/** India's calendar date ('YYYY-MM-DD') at an instant. */
export function istDate(instant: Date | number): string {
  return new Date(Number(instant) + OFFSET_MS).toISOString().slice(0, 10);
}

function parseDate(date: string): [number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new Error(`Not a calendar date: ${date}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** The UTC instant (ISO text) at which an IST calendar day begins: '2026-05-01' -> '2026-04-30T18:30:00.000Z'. */
export function istDayStart(date: string): string {
  const [year, month, day] = parseDate(date);
  return new Date(Date.UTC(year, month - 1, day) - OFFSET_MS).toISOString();
}

/** The IST calendar month containing `now`, as UTC instants: start inclusive, end exclusive. */
export function istMonthRange(now: Date): { month: string; start: string; end: string } {
  const [year, month] = parseDate(istDate(now));
  return {
    month: `${year}-${String(month).padStart(2, '0')}`,
    start: new Date(Date.UTC(year, month - 1, 1) - OFFSET_MS).toISOString(),
    end: new Date(Date.UTC(year, month, 1) - OFFSET_MS).toISOString(),
  };
}

/** The last `count` IST days up to and including today, oldest first. */
export function lastIstDays(now: Date, count: number): string[] {
  const [year, month, day] = parseDate(istDate(now));
  const today = Date.UTC(year, month - 1, day);
  return Array.from({ length: count }, (_, index) => new Date(today - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10));
}

/**
 * The IST day of a slice ('2026-05-01T18:3') or of a whole ISO UTC timestamp; null for text
 * that is neither (it is then left out rather than counted on a wrong day).
 *
 * A date alone ('2026-05-01') is the sold date the admin typed: already India's calendar day,
 * and the month's sales total counts it so (it sorts inside the month's UTC range as text), so
 * the chart must count it on that day too.
 */
export function istDateOfSlice(slice: string): string | null {
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(slice);
  if (dateOnly) {
    const [, year, month, day] = dateOnly.map(Number) as [number, number, number, number];
    const valid = new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
    return valid === slice ? slice : null;
  }
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d)/.exec(slice);
  if (!match) return null;
  const [, year, month, day, hour, tens] = match.map(Number) as [number, number, number, number, number, number];
  const instant = Date.UTC(year, month - 1, day, hour, tens * 10);
  return Number.isNaN(instant) ? null : istDate(instant);
}

/** Adds slice counts up per IST day, in the order of `days`; slices outside them are ignored. */
export function countPerIstDay(slices: ReadonlyArray<{ slice: string; count: number | string }>, days: readonly string[]): number[] {
  const index = new Map(days.map((day, position) => [day, position]));
  const totals = days.map(() => 0);
  for (const { slice, count } of slices) {
    const position = index.get(istDateOfSlice(slice) ?? '');
    if (position !== undefined) totals[position] = (totals[position] ?? 0) + Number(count);
  }
  return totals;
}

export type DailyPoint = { date: string; sold: number; leads: number };

/**
 * The rental fleet this IST calendar month (docs/decisions/029). Hours are whole-hour figures
 * rounded down; utilisation is booked ÷ available, 0 when nothing is available.
 */
export type RentalFigures = {
  month: string;
  /** Bookings made this month, whatever became of them. */
  bookings: number;
  fleetCars: number;
  /** Hours of this month held by bookings that were confirmed or ran. */
  bookedHours: number;
  /** Hours of this month each fleet car was in the fleet, less its blocks. */
  availableHours: number;
  utilisation: number;
  /**
   * Rent, delivery fees and return charges of the bookings picked up this month and handed over,
   * and what was kept of online payments of bookings due this month that were cancelled late or
   * not collected; deposits are not revenue.
   */
  revenue: number;
};

/** Statuses whose hours count as booked: the car was promised or out. */
export const BOOKED_STATUSES = ['confirmed', 'active', 'returned', 'closed'] as const;
/** Statuses of bookings that ran (the car was handed over): their rent and charges are revenue. */
export const RAN_STATUSES = ['active', 'returned', 'closed'] as const;
/** Statuses of bookings that never ran but may have kept part of an online payment (the cancellation terms). */
const KEPT_STATUSES = ['cancelled', 'no_show'] as const;

const HOUR_MS = 3_600_000;

/** The length of [fromMs, toMs) inside [startMs, endMs), never below 0. */
function overlapMs(fromMs: number, toMs: number, startMs: number, endMs: number): number {
  return Math.max(0, Math.min(toMs, endMs) - Math.max(fromMs, startMs));
}

function parseJson<T>(text: string | null): Partial<T> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Partial<T>) : {};
  } catch {
    return {};
  }
}

/** The rental figures of the IST month holding `now`. Input: database, now. Errors: none. */
export async function computeRentalFigures(database: Database, now: Date): Promise<RentalFigures> {
  const { db } = database;
  const month = istMonthRange(now);
  const startMs = Date.parse(month.start);
  const endMs = Date.parse(month.end);
  const [created, fleet, held] = await Promise.all([
    db
      .selectFrom('rental_bookings')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('kind', '=', 'booking')
      .where('created_at', '>=', month.start)
      .where('created_at', '<', month.end)
      .executeTakeFirst(),
    db
      .selectFrom('vehicles')
      .innerJoin('rental_terms', 'rental_terms.vehicle_id', 'vehicles.id')
      .select(['vehicles.id', 'rental_terms.created_at'])
      .where('vehicles.purpose', '=', 'rental')
      .where('vehicles.status', '<>', 'sold')
      .execute(),
    // Bookings and blocks touching the month; a fleet has a few cars, so a month holds few rows.
    db
      .selectFrom('rental_bookings')
      .select(['kind', 'vehicle_id', 'status', 'starts_ms', 'ends_ms', 'quote', 'charges', 'amount_paid_paise', 'amount_refunded_paise'])
      .where('starts_ms', '<', endMs)
      .where('ends_ms', '>', startMs)
      .where((eb) => eb.or([eb.and([eb('kind', '=', 'booking'), eb('status', 'in', [...BOOKED_STATUSES, ...KEPT_STATUSES])]), eb('kind', '=', 'block')]))
      .execute(),
  ]);

  const fleetIds = new Set(fleet.map((car) => car.id));
  let availableMs = fleet.reduce((sum, car) => sum + overlapMs(Date.parse(car.created_at) || startMs, endMs, startMs, endMs), 0);
  let bookedMs = 0;
  let revenue = 0;
  for (const row of held) {
    const fromMs = Number(row.starts_ms);
    const toMs = Number(row.ends_ms);
    if (row.kind === 'block') {
      if (fleetIds.has(row.vehicle_id)) availableMs -= overlapMs(fromMs, toMs, startMs, endMs);
      continue;
    }
    if ((KEPT_STATUSES as readonly string[]).includes(row.status)) {
      // The money kept is what was paid less what went back: the rent kept by the cancellation terms.
      if (fromMs >= startMs) revenue += paiseToWholeRupees(Math.max(0, Number(row.amount_paid_paise ?? 0) - Number(row.amount_refunded_paise ?? 0)));
      continue;
    }
    bookedMs += overlapMs(fromMs, toMs, startMs, endMs);
    if ((RAN_STATUSES as readonly string[]).includes(row.status) && fromMs >= startMs) {
      const quote = parseJson<RentalQuote>(row.quote);
      const charges = parseJson<ReturnCharges>(row.charges);
      // GST is the government's, not revenue; damage protection is.
      revenue += Number(quote.rent ?? 0) + Number(quote.protection ?? 0) + Number(quote.deliveryFee ?? 0) + Number(charges.total ?? 0);
    }
  }
  const bookedHours = Math.floor(bookedMs / HOUR_MS);
  const availableHours = Math.max(0, Math.floor(availableMs / HOUR_MS));
  return {
    month: month.month,
    bookings: Number(created?.count ?? 0),
    fleetCars: fleet.length,
    bookedHours,
    availableHours,
    utilisation: availableHours > 0 ? bookedMs / HOUR_MS / availableHours : 0,
    revenue,
  };
}

export type Statistics = {
  /** Sale stock only: the rental fleet has its own figures. */
  vehicles: { total: number; available: number; reserved: number; sold: number };
  categories: number;
  users: number;
  /** Sales this IST calendar month: the sum of sold prices and how many cars. */
  monthlySales: { month: string; amount: number; count: number };
  /** The last CHART_DAYS IST days, oldest first. */
  daily: DailyPoint[];
  /** False until the leads tables exist: the chart then says leads are not counted yet. */
  leadsTracked: boolean;
  rental: RentalFigures;
};

/** The tables that hold leads; counted only once they exist (they arrive with the leads feature). */
export const LEAD_TABLES = ['vehicle_requests', 'sell_submissions'] as const;
type LeadTable = (typeof LEAD_TABLES)[number];

/** Which lead tables exist: one catalogue query per call. */
export async function existingLeadTables(database: Database): Promise<LeadTable[]> {
  const names = sql.join(LEAD_TABLES.map((name) => sql.lit(name)));
  const query =
    database.dialect === 'postgres'
      ? sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name in (${names})`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table' and name in (${names})`;
  const { rows } = await query.execute(database.db);
  const found = new Set(rows.map((row) => row.name));
  return LEAD_TABLES.filter((name) => found.has(name));
}

// The same literal expression in SELECT and GROUP BY: PostgreSQL matches them by text, and a
// bound parameter would make them differ.
const sliceOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, ${sql.lit(SLICE_LENGTH)})`;

async function leadSlices(database: Database, table: LeadTable, start: string, end: string) {
  const slice = sliceOf('created_at');
  const { rows } = await sql<{ slice: string; count: number | string }>`
    select ${slice} as slice, count(*) as count from ${sql.table(table)}
    where created_at >= ${start} and created_at < ${end}
    group by ${slice}`.execute(database.db);
  return rows;
}

export async function computeStatistics(database: Database, options: { now: Date }): Promise<Statistics> {
  const { now } = options;
  const { db } = database;
  const days = lastIstDays(now, CHART_DAYS);
  const windowStart = istDayStart(days[0]!);
  // Up to the end of today (IST), so a timestamp a little ahead of this clock still counts.
  const windowEnd = new Date(Date.parse(istDayStart(days[days.length - 1]!)) + DAY_MS).toISOString();
  const month = istMonthRange(now);
  const soldSlice = sliceOf('sold_at');

  const [byStatus, categories, users, sales, soldSlices, leadTables, rental] = await Promise.all([
    db
      .selectFrom('vehicles')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('purpose', '=', 'sale')
      .groupBy('status')
      .execute(),
    db
      .selectFrom('categories')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirst(),
    countUsers(database),
    db
      .selectFrom('vehicles')
      .select((eb) => [eb.fn.sum<number | string | null>('sold_price').as('amount'), eb.fn.countAll<number>().as('count')])
      .where('status', '=', 'sold')
      .where('sold_at', '>=', month.start)
      .where('sold_at', '<', month.end)
      .executeTakeFirst(),
    db
      .selectFrom('vehicles')
      .select([soldSlice.as('slice'), (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', '=', 'sold')
      .where('sold_at', '>=', windowStart)
      .where('sold_at', '<', windowEnd)
      .groupBy(soldSlice)
      .execute(),
    existingLeadTables(database),
    computeRentalFigures(database, now),
  ]);

  const leadCounts = await Promise.all(leadTables.map(async (table) => countPerIstDay(await leadSlices(database, table, windowStart, windowEnd), days)));
  const sold = countPerIstDay(
    soldSlices.map((row) => ({ slice: row.slice, count: row.count })),
    days,
  );

  const statusCount = (status: string) => Number(byStatus.find((row) => row.status === status)?.count ?? 0);
  return {
    vehicles: {
      total: byStatus.reduce((sum, row) => sum + Number(row.count), 0),
      available: statusCount('available'),
      reserved: statusCount('reserved'),
      sold: statusCount('sold'),
    },
    categories: Number(categories?.count ?? 0),
    users,
    monthlySales: { month: month.month, amount: Number(sales?.amount ?? 0), count: Number(sales?.count ?? 0) },
    daily: days.map((date, index) => ({
      date,
      sold: sold[index] ?? 0,
      leads: leadCounts.reduce((sum, counts) => sum + (counts[index] ?? 0), 0),
    })),
    leadsTracked: leadTables.length > 0,
    rental,
  };
}
