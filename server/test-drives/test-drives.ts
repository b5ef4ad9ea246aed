import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import { cancelUpcoming, isUpcoming, upcomingFirst, withFreeSeat, type SeatedTable } from '../db/seats.ts';
import type { Selectable, Transaction } from 'kysely';
import type { DB, TestDriveTable } from '../db/schema.ts';

type Row = Selectable<TestDriveTable>;
import { CannotBookYetError, ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import { bookingContact, getProfile, hasVerifiedPhone } from '../accounts/profiles.ts';
import { homeVisitColumns, homeVisitOf } from '../db/home-visit-columns.ts';
import { holdsReservation } from '../reservations/store.ts';
import type { Settings } from '../admin/settings.ts';
import { detailTitle, offersTestDrive } from '../../app/lib/vehicle.ts';
import { homeAddressMessages } from '../../app/lib/home-address.ts';
import { daySlots, homeVisitProblem, slotInstant, slotProblem, testDriveMessages as messages, STATUS_LABELS, UPCOMING_STATUSES, type TestDriveMode, type TestDriveRules, type TestDriveStatus } from '../../app/lib/test-drives.ts';
import { testDriveText as t } from '../../app/lib/i18n/testDrive.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { addDays, indiaDateTimeParam, indiaIso } from '../../app/lib/india-time.ts';

/**
 * Test-drive bookings (decision 025). Slots come from the settings; the database's partial
 * unique indexes (migration 007) are what keep one car out of two test drives of one slot and
 * a slot within its capacity, whatever runs at the same time, on SQLite and PostgreSQL alike.
 * Services take plain input and throw the errors of server/errors.ts.
 */

export type TestDriveDeps = { database: Database; clock: Clock };

export type TestDrive = {
  id: number;
  vehicleId: number | null;
  vehicleTitle: string;
  mode: TestDriveMode;
  pinCode: string;
  /** A home test drive's house or flat, street and area, and its optional landmark (decision 097); '' at the hub. */
  street: string;
  landmark: string;
  /** India time, 'YYYY-MM-DDTHH:MM'. */
  slot: string;
  status: TestDriveStatus;
  createdAt: string;
};

/** What the admin's schedule shows of a booking: who and how to reach them. */
export type ScheduledTestDrive = TestDrive & { name: string; phone: string; email: string; remindedAt: string | null };

export type SlotAvailability = { start: string; remaining: number };

/** The rules in force, from the admin settings (a closing hour not after the opening hour offers no slot). */
export function testDriveRules(settings: Settings): TestDriveRules {
  return {
    openingHour: settings.testDriveOpeningHour,
    closingHour: Math.max(settings.testDriveOpeningHour, settings.testDriveClosingHour),
    capacity: settings.testDriveCapacity,
    leadHours: settings.testDriveLeadHours,
    daysAhead: settings.testDriveDaysAhead,
  };
}

function toTestDrive(row: Pick<Row, 'id' | 'vehicle_id' | 'vehicle_title' | 'mode' | 'pin_code' | 'street' | 'landmark' | 'slot_start' | 'status' | 'created_at'>): TestDrive {
  return {
    id: row.id,
    vehicleId: row.vehicle_id,
    vehicleTitle: row.vehicle_title,
    ...homeVisitOf(row),
    slot: indiaDateTimeParam(row.slot_start),
    status: row.status,
    // Stored in UTC; answered as every time of the product is, in India time with its offset.
    createdAt: indiaIso(Date.parse(row.created_at)),
  };
}

const toScheduled = (row: Row): ScheduledTestDrive => ({
  ...toTestDrive(row),
  name: row.name,
  phone: row.phone,
  email: row.email,
  remindedAt: row.reminded_at,
});

/** A car one can book a test drive of, with its title; NotFoundError or ConflictError otherwise. */
/** A car one may test-drive: for sale and available, or reserved by this person (decision 080). */
async function bookableVehicle(database: Database, vehicleId: number, userId?: string): Promise<{ id: number; title: string }> {
  const vehicle = await database.db.selectFrom('vehicles').select(['id', 'name', 'make', 'model', 'status', 'purpose']).where('id', '=', vehicleId).executeTakeFirst();
  if (!vehicle) throw new NotFoundError(messages.vehicleNotFound);
  const holder = vehicle.status === 'reserved' && userId !== undefined && (await holdsReservation(database, userId, vehicle.id));
  if (!offersTestDrive(vehicle) && !holder) throw new ConflictError(messages.notForSale);
  return { id: vehicle.id, title: detailTitle(vehicle) };
}

/** Test drives' seats (migration 007): one booking per car and per person at a time. */
export const TEST_DRIVE_SEATS: SeatedTable<'vehicle' | 'user'> = {
  table: 'test_drives',
  rules: {
    seat: { constraint: 'test_drives_seat_uq', column: 'seat' },
    vehicle: { constraint: 'test_drives_vehicle_slot_uq', column: 'vehicle_id' },
    user: { constraint: 'test_drives_user_slot_uq', column: 'user_id' },
  },
  refusals: { vehicle: () => messages.carTaken, user: () => messages.youAreBusy },
  slotFull: () => messages.slotFull,
};

/** The bookings holding each slot of the range and the car's own, counted per UTC start. */
async function slotUse(database: Database, from: string, to: string, vehicleId: number) {
  const rows = await database.db
    .selectFrom('test_drives')
    .select(['slot_start', 'vehicle_id'])
    .where('slot_start', '>=', from)
    .where('slot_start', '<', to)
    .where('status', '<>', 'cancelled')
    .execute();
  const perSlot = new Map<string, number>();
  const carBusy = new Set<string>();
  for (const row of rows) {
    perSlot.set(row.slot_start, (perSlot.get(row.slot_start) ?? 0) + 1);
    if (row.vehicle_id === vehicleId) carBusy.add(row.slot_start);
  }
  return { perSlot, carBusy };
}

/** The slots of one day (India time) one may still book for this car, each with the places left (0: full or the car is taken). */
export async function slotsFor(deps: TestDriveDeps, rules: TestDriveRules, input: { vehicleId: number; date: string; userId?: string }): Promise<SlotAvailability[]> {
  await bookableVehicle(deps.database, input.vehicleId, input.userId);
  const slots = daySlots(input.date, deps.clock.now(), rules);
  if (slots.length === 0) return [];
  const from = slotInstant(`${input.date}T00:00`).toISOString();
  const to = slotInstant(`${addDays(input.date, 1)}T00:00`).toISOString();
  const { perSlot, carBusy } = await slotUse(deps.database, from, to, input.vehicleId);
  return slots.map((start) => {
    const instant = slotInstant(start).toISOString();
    return { start, remaining: carBusy.has(instant) ? 0 : Math.max(0, rules.capacity - (perSlot.get(instant) ?? 0)) };
  });
}

export type BookingInput = {
  userId: string;
  vehicleId: number;
  /** India time, already parsed ('YYYY-MM-DDTHH:MM'). */
  slot: string;
  mode: TestDriveMode;
  /** Required for a home test drive: in one of the settings' `serviceAreas`. */
  pinCode: string;
  /** Required for a home test drive (the schema says so beside the field). */
  street: string;
  landmark: string;
};

/** Refuses a place or time the settings do not offer (InvalidInputError naming the field). */
function checkRequest(input: { slot: string; mode: TestDriveMode; pinCode: string; street: string }, rules: TestDriveRules, settings: Settings, hubAddress: string, nowMs: number) {
  if (input.mode === 'home' && !input.street.trim()) throw new InvalidInputError(homeAddressMessages.streetRequired, { street: homeAddressMessages.streetRequired });
  const pinProblem = homeVisitProblem(input, settings.serviceAreas, hubAddress);
  if (pinProblem) throw new InvalidInputError(pinProblem, { pinCode: pinProblem });
  const problem = slotProblem(input.slot, nowMs, rules);
  if (problem) throw new InvalidInputError(problem, { slot: problem });
}

/**
 * Books a test drive for a signed-in person with a verified phone (CannotBookYetError, 422,
 * otherwise). 409 (ConflictError) when the car is taken at that time, the slot is full or the
 * person has another test drive then.
 */
export async function bookTestDrive(
  deps: TestDriveDeps & { config: { contactAddress: string } },
  settings: Settings,
  input: BookingInput,
  /** Runs in the transaction that saves the booking: its confirmation is queued there (decision 069). */
  alsoInTransaction?: AlsoInTransaction,
): Promise<ScheduledTestDrive> {
  const rules = testDriveRules(settings);
  const { db } = deps.database;
  const profile = await getProfile(deps.database, input.userId);
  if (!profile || !hasVerifiedPhone(profile)) throw new CannotBookYetError('phone', messages.verifyPhoneFirst);
  const vehicle = await bookableVehicle(deps.database, input.vehicleId, input.userId);
  const nowMs = deps.clock.now();
  checkRequest(input, rules, settings, deps.config.contactAddress, nowMs);
  const contact = await bookingContact(deps.database, profile);
  const slotStart = slotInstant(input.slot).toISOString();
  const now = new Date(nowMs).toISOString();
  const row = await withFreeSeat(deps.database, TEST_DRIVE_SEATS, { start: slotStart, capacity: rules.capacity }, (seat) =>
    // A seat taken meanwhile rolls this transaction back, queued messages with it, and the next seat is tried.
    db.transaction().execute(async (trx) => {
      const inserted = await trx
      .insertInto('test_drives')
      .values({
        user_id: input.userId,
        vehicle_id: vehicle.id,
        vehicle_title: vehicle.title,
        ...homeVisitColumns(input),
        ...contact,
        slot_start: slotStart,
        seat,
        status: 'booked',
        reminded_at: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
      await alsoInTransaction?.(trx, toScheduled(inserted));
      return inserted;
    }),
  );
  return toScheduled(row);
}

async function findOwn(deps: TestDriveDeps, id: number, userId: string) {
  const row = await deps.database.db.selectFrom('test_drives').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw new NotFoundError(messages.notYours);
  return row;
}

/** Runs in the transaction of a test drive's change: its messages are queued there (decision 069). */
export type AlsoInTransaction = (trx: Transaction<DB>, booking: ScheduledTestDrive) => Promise<void>;

/**
 * Moves a booking to another slot (the seat rules as for a new booking). `by` says who: the
 * customer's change needs confirming again. A move to the slot it already has changes nothing
 * and runs nothing.
 */
async function moveTo(deps: TestDriveDeps, settings: Settings, row: Row, slot: string, by: 'customer' | 'admin', alsoInTransaction?: AlsoInTransaction): Promise<ScheduledTestDrive> {
  const rules = testDriveRules(settings);
  const nowMs = deps.clock.now();
  if (!isUpcoming(row, nowMs)) throw new ConflictError(messages.notChangeable);
  if (row.vehicle_id !== null) await bookableVehicle(deps.database, row.vehicle_id, row.user_id);
  const problem = slotProblem(slot, nowMs, rules);
  if (problem) throw new InvalidInputError(problem, { slot: problem });
  const slotStart = slotInstant(slot).toISOString();
  if (slotStart === row.slot_start) return toScheduled(row);
  const now = new Date(nowMs).toISOString();
  const updated = await withFreeSeat(deps.database, TEST_DRIVE_SEATS, { start: slotStart, capacity: rules.capacity }, (seat) =>
    // A seat taken meanwhile rolls this transaction back, queued messages with it, and the next seat is tried.
    deps.database.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('test_drives')
        .set({ slot_start: slotStart, seat, reminded_at: null, status: by === 'admin' ? 'confirmed' : 'booked', updated_at: now })
        .where('id', '=', row.id)
        // Only if nobody changed it meanwhile (a cancel, another move).
        .where('slot_start', '=', row.slot_start)
        .where('status', '=', row.status)
        .returningAll()
        .executeTakeFirst();
      if (!moved) throw new ConflictError(messages.notChangeable);
      await alsoInTransaction?.(trx, toScheduled(moved));
      return moved;
    }),
  );
  return toScheduled(updated);
}

export async function rescheduleOwnTestDrive(deps: TestDriveDeps, settings: Settings, input: { id: number; userId: string; slot: string }, alsoInTransaction?: AlsoInTransaction): Promise<ScheduledTestDrive> {
  return moveTo(deps, settings, await findOwn(deps, input.id, input.userId), input.slot, 'customer', alsoInTransaction);
}

/** The customer's cancel: only an upcoming booking of their own. */
export async function cancelOwnTestDrive(deps: TestDriveDeps, input: { id: number; userId: string }): Promise<TestDrive> {
  const row = await findOwn(deps, input.id, input.userId);
  if (!isUpcoming(row, deps.clock.now())) throw new ConflictError(messages.notChangeable);
  return toTestDrive(await cancelUpcoming(deps.database, 'test_drives', row.id, new Date(deps.clock.now()).toISOString(), messages.notChangeable));
}

/** A person's test drives, soonest upcoming first, then the past ones newest first. */
export async function listOwnTestDrives(deps: TestDriveDeps, userId: string): Promise<Array<TestDrive & { changeable: boolean }>> {
  const rows = await deps.database.db.selectFrom('test_drives').selectAll().where('user_id', '=', userId).orderBy('slot_start', 'desc').limit(100).execute();
  return withChangeable(rows, deps.clock.now());
}

/** Rows newest slot first, as upcoming ones (soonest first) and then the rest (newest first). */
function withChangeable(rows: Row[], nowMs: number): Array<TestDrive & { changeable: boolean }> {
  return upcomingFirst(rows.map((row) => ({ ...toTestDrive(row), changeable: isUpcoming(row, nowMs) })));
}

/**
 * A page of the person's test drives in listOwnTestDrives's order, with how many they have in
 * all. Which are upcoming depends on the clock, so every row is ordered here (a person has a
 * handful). Input: user id, page from 1, page size. Errors: none.
 */
export async function ownTestDrivesPage(deps: TestDriveDeps, userId: string, asked: { page: number; perPage: number }): Promise<{ items: Array<TestDrive & { changeable: boolean }>; total: number }> {
  const rows = await deps.database.db.selectFrom('test_drives').selectAll().where('user_id', '=', userId).orderBy('slot_start', 'desc').execute();
  const all = withChangeable(rows, deps.clock.now());
  return { items: all.slice((asked.page - 1) * asked.perPage, asked.page * asked.perPage), total: all.length };
}

// ------------------------------------------------------------------------------------ admin

export type AdminTestDriveAction = 'confirm' | 'done' | 'no_show' | 'cancel';
const ACTION_STATUS: Record<AdminTestDriveAction, TestDriveStatus> = { confirm: 'confirmed', done: 'done', no_show: 'no_show', cancel: 'cancelled' };
/** The states each admin action may start from. */
const ACTION_FROM: Record<AdminTestDriveAction, readonly TestDriveStatus[]> = {
  confirm: ['booked'],
  done: ['booked', 'confirmed', 'no_show'],
  no_show: ['booked', 'confirmed', 'done'],
  cancel: ['booked', 'confirmed'],
};

export async function getTestDrive(deps: TestDriveDeps, id: number): Promise<ScheduledTestDrive> {
  const row = await deps.database.db.selectFrom('test_drives').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError(messages.notYours);
  return toScheduled(row);
}

/** The admin's change of a booking's state; returns the booking before and after, for the audit log. */
export async function changeTestDriveStatus(deps: TestDriveDeps, input: { id: number; action: AdminTestDriveAction }): Promise<{ before: ScheduledTestDrive; after: ScheduledTestDrive }> {
  const before = await getTestDrive(deps, input.id);
  if (!ACTION_FROM[input.action].includes(before.status)) throw new ConflictError(t('deskCannotChange', { status: currentLanguage() === 'en' ? before.status.replace('_', '-') : STATUS_LABELS[before.status] }));
  const updated = await deps.database.db
    .updateTable('test_drives')
    .set({ status: ACTION_STATUS[input.action], updated_at: new Date(deps.clock.now()).toISOString() })
    .where('id', '=', input.id)
    .where('status', '=', before.status)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new ConflictError(t('deskChangedMeanwhile'));
  return { before, after: toScheduled(updated) };
}

export async function rescheduleTestDriveByAdmin(
  deps: TestDriveDeps,
  settings: Settings,
  input: { id: number; slot: string },
  alsoInTransaction?: AlsoInTransaction,
): Promise<{ before: ScheduledTestDrive; after: ScheduledTestDrive }> {
  const row = await deps.database.db.selectFrom('test_drives').selectAll().where('id', '=', input.id).executeTakeFirst();
  if (!row) throw new NotFoundError(messages.notYours);
  const before = toScheduled(row);
  return { before, after: await moveTo(deps, settings, row, input.slot, 'admin', alsoInTransaction) };
}

/** Every booking of one day (India time) that was not cancelled, by time; the cancelled ones after them. */
/** An India day's first instant and the next day's, as stored (UTC ISO text). */
function dayBounds(date: string): { from: string; to: string } {
  return { from: slotInstant(`${date}T00:00`).toISOString(), to: slotInstant(`${addDays(date, 1)}T00:00`).toISOString() };
}

export async function daySchedule(deps: TestDriveDeps, date: string): Promise<ScheduledTestDrive[]> {
  const { from, to } = dayBounds(date);
  const rows = await deps.database.db.selectFrom('test_drives').selectAll().where('slot_start', '>=', from).where('slot_start', '<', to).orderBy('slot_start').orderBy('seat').orderBy('id').execute();
  const drives = rows.map(toScheduled);
  return [...drives.filter((drive) => drive.status !== 'cancelled'), ...drives.filter((drive) => drive.status === 'cancelled')];
}

/** How many test drives an India day holds, cancelled ones left out. Input: 'YYYY-MM-DD'. Errors: none. */
export async function countTestDrivesOn(database: Database, date: string): Promise<number> {
  const { from, to } = dayBounds(date);
  const row = await database.db
    .selectFrom('test_drives')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('slot_start', '>=', from)
    .where('slot_start', '<', to)
    .where('status', '<>', 'cancelled')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export type TestDriveStatistics = { total: number; upcoming: number; done: number; noShow: number; cancelled: number; becameSales: number };

/**
 * Test drives by state (total leaves out the cancelled), and how many became sales: the cars
 * sold that had a test drive done (a car driven by three buyers and sold counts once).
 */
export async function testDriveStatistics(database: Database, nowMs: number): Promise<TestDriveStatistics> {
  const { db } = database;
  const nowIso = new Date(nowMs).toISOString();
  const [byStatus, upcoming, sales] = await Promise.all([
    db
      .selectFrom('test_drives')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('test_drives')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', 'in', [...UPCOMING_STATUSES])
      .where('slot_start', '>', nowIso)
      .executeTakeFirst(),
    db
      .selectFrom('test_drives')
      .innerJoin('vehicles', 'vehicles.id', 'test_drives.vehicle_id')
      .select((eb) => eb.fn.count<number>('vehicles.id').distinct().as('count'))
      .where('test_drives.status', '=', 'done')
      .where('vehicles.status', '=', 'sold')
      .execute(),
  ]);
  const count = (status: TestDriveStatus) => Number(byStatus.find((row) => row.status === status)?.count ?? 0);
  return {
    total: byStatus.reduce((sum, row) => sum + Number(row.count), 0) - count('cancelled'),
    upcoming: Number(upcoming?.count ?? 0),
    done: count('done'),
    noShow: count('no_show'),
    cancelled: count('cancelled'),
    becameSales: Number(sales[0]?.count ?? 0),
  };
}
