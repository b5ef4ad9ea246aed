import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import {
  book,
  cancelUpcoming,
  dayRange,
  freeSlots,
  isUpcoming,
  reschedule,
  slotRefusal,
  slotStartMs,
  upcomingCount,
  upcomingFirst,
  type FreeSlot,
} from '../appointments/appointments.ts';
import { TEST_DRIVE } from '../appointments/kinds.ts';
import type { Selectable, Transaction } from 'kysely';
import type { DB, TestDriveTable } from '../db/schema.ts';
import { CannotBookYetError, ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import { bookingContact, getProfile, hasVerifiedPhone } from '../accounts/profiles.ts';
import { checkPlace, homeVisitColumns, homeVisitOf } from '../appointments/home-visit.ts';
import { holdsReservation } from '../reservations/store.ts';
import type { Settings } from '../admin/settings.ts';
import { detailTitle, offersTestDrive } from '../../app/lib/vehicle.ts';
import {
  testDriveMessages as messages,
  STATUS_LABELS,
  type SlotRules,
  type TestDrive,
  type TestDriveMode,
  type TestDriveStatus,
} from '../../app/features/appointments/test-drives.ts';
import { testDriveText as t } from '../../app/features/appointments/test-drive-texts.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { indiaDateTimeParam, indiaIso } from '../../app/lib/india-time.ts';
import { TEST_DRIVE_TRANSITIONS, type TestDriveEvent } from './test-drive-transitions.ts';
import { transition } from '../transitions.ts';

type Row = Selectable<TestDriveTable>;

/**
 * Test-drive bookings (decision 025): what is a test drive's own (the car, who may drive it, the
 * admin's actions); slots, seats, moves, cancels and the upcoming ones are the appointments
 * module's (decision 107), with the test drives' rules (server/appointments/kinds.ts). The
 * database's partial unique indexes keep one car out of two test drives of one slot and a slot
 * within its capacity, whatever runs at the same time, on SQLite and PostgreSQL alike.
 * Services take plain input and throw the errors of server/errors.ts.
 */

export type TestDriveDeps = { database: Database; clock: Clock };

export type { TestDrive } from '../../app/features/appointments/test-drives.ts';

/** What the admin's schedule shows of a booking: who and how to reach them. */
export type ScheduledTestDrive = TestDrive & { name: string; phone: string; email: string; remindedAt: string | null };

function toTestDrive(
  row: Pick<Row, 'id' | 'vehicle_id' | 'vehicle_title' | 'mode' | 'pin_code' | 'street' | 'landmark' | 'slot_start_ms' | 'status' | 'created_at'>,
): TestDrive {
  return {
    id: row.id,
    vehicleId: row.vehicle_id,
    vehicleTitle: row.vehicle_title,
    ...homeVisitOf(row),
    slot: indiaDateTimeParam(row.slot_start_ms),
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

/** A car one may test-drive: for sale and available, or reserved by this person (decision 080). */
async function bookableVehicle(database: Database, vehicleId: number, userId?: string): Promise<{ id: number; title: string }> {
  const vehicle = await database.db
    .selectFrom('vehicles')
    .select(['id', 'name', 'make', 'model', 'status', 'purpose'])
    .where('id', '=', vehicleId)
    .executeTakeFirst();
  if (!vehicle) throw new NotFoundError(messages.vehicleNotFound);
  const holder = vehicle.status === 'reserved' && userId !== undefined && (await holdsReservation(database, userId, vehicle.id));
  if (!offersTestDrive(vehicle) && !holder) throw new ConflictError(messages.notForSale);
  return { id: vehicle.id, title: detailTitle(vehicle) };
}

/** The slots of an India day in which the car is already out on another test drive. */
async function carBusy(database: Database, vehicleId: number, date: string): Promise<Set<number>> {
  const { fromMs, toMs } = dayRange(date);
  const rows = await database.db
    .selectFrom('test_drives')
    .select('slot_start_ms')
    .where('vehicle_id', '=', vehicleId)
    .where('slot_start_ms', '>=', fromMs)
    .where('slot_start_ms', '<', toMs)
    .where('status', '<>', 'cancelled')
    .execute();
  return new Set(rows.map((row) => Number(row.slot_start_ms)));
}

/** The slots of one day (India time) one may still book for this car, each with the places left (0: full or the car is taken). */
export async function slotsFor(deps: TestDriveDeps, rules: SlotRules, input: { vehicleId: number; date: string; userId?: string }): Promise<FreeSlot[]> {
  await bookableVehicle(deps.database, input.vehicleId, input.userId);
  return freeSlots(deps.database, TEST_DRIVE, rules, input.date, deps.clock.now(), await carBusy(deps.database, input.vehicleId, input.date));
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

/** Refuses a time the rules do not offer (InvalidInputError naming the field). */
function checkSlot(slot: string, rules: SlotRules, nowMs: number) {
  const problem = slotRefusal(TEST_DRIVE, rules, slot, nowMs);
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
  const rules = TEST_DRIVE.rules(settings);
  const profile = await getProfile(deps.database, input.userId);
  if (!profile || !hasVerifiedPhone(profile)) throw new CannotBookYetError('phone', messages.verifyPhoneFirst);
  const vehicle = await bookableVehicle(deps.database, input.vehicleId, input.userId);
  const nowMs = deps.clock.now();
  checkPlace(TEST_DRIVE, input, settings.serviceAreas, deps.config.contactAddress);
  checkSlot(input.slot, rules, nowMs);
  const contact = await bookingContact(deps.database, profile);
  const now = new Date(nowMs).toISOString();
  const startMs = slotStartMs(input.slot);
  // A seat taken meanwhile rolls this transaction back, queued messages with it, and the next seat is tried.
  const row = await book(deps.database, TEST_DRIVE, { userId: input.userId, startMs, capacity: rules.capacity, nowMs }, async (trx, seat) => {
    const inserted = await trx
      .insertInto('test_drives')
      .values({
        user_id: input.userId,
        vehicle_id: vehicle.id,
        vehicle_title: vehicle.title,
        ...homeVisitColumns(input),
        ...contact,
        slot_start_ms: startMs,
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
  });
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
async function moveTo(
  deps: TestDriveDeps,
  settings: Settings,
  row: Row,
  slot: string,
  by: 'customer' | 'admin',
  alsoInTransaction?: AlsoInTransaction,
): Promise<ScheduledTestDrive> {
  const rules = TEST_DRIVE.rules(settings);
  const nowMs = deps.clock.now();
  const status = transition(TEST_DRIVE_TRANSITIONS, row.status, 'reschedule', by === 'admin' ? 'desk' : 'customer');
  if (status === null || !isUpcoming(row, nowMs)) throw new ConflictError(messages.notChangeable);
  if (row.vehicle_id !== null) await bookableVehicle(deps.database, row.vehicle_id, row.user_id);
  checkSlot(slot, rules, nowMs);
  const moved = await reschedule(deps.database, TEST_DRIVE, row, { startMs: slotStartMs(slot), capacity: rules.capacity, status, nowMs }, (trx, changed) =>
    alsoInTransaction ? alsoInTransaction(trx, toScheduled(changed)) : Promise.resolve(),
  );
  return toScheduled(moved);
}

export async function rescheduleOwnTestDrive(
  deps: TestDriveDeps,
  settings: Settings,
  input: { id: number; userId: string; slot: string },
  alsoInTransaction?: AlsoInTransaction,
): Promise<ScheduledTestDrive> {
  return moveTo(deps, settings, await findOwn(deps, input.id, input.userId), input.slot, 'customer', alsoInTransaction);
}

/** The customer's cancel: only an upcoming booking of their own. */
export async function cancelOwnTestDrive(deps: TestDriveDeps, input: { id: number; userId: string }): Promise<TestDrive> {
  const row = await findOwn(deps, input.id, input.userId);
  if (transition(TEST_DRIVE_TRANSITIONS, row.status, 'cancel', 'customer') === null) throw new ConflictError(messages.notChangeable);
  return toTestDrive(await cancelUpcoming(deps.database, TEST_DRIVE, row, deps.clock.now()));
}

/** A person's test drives, soonest upcoming first, then the past ones newest first. */
export async function listOwnTestDrives(deps: TestDriveDeps, userId: string): Promise<Array<TestDrive & { changeable: boolean }>> {
  const rows = await deps.database.db.selectFrom('test_drives').selectAll().where('user_id', '=', userId).orderBy('slot_start_ms', 'desc').limit(100).execute();
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
export async function ownTestDrivesPage(
  deps: TestDriveDeps,
  userId: string,
  asked: { page: number; perPage: number },
): Promise<{ items: Array<TestDrive & { changeable: boolean }>; total: number }> {
  const rows = await deps.database.db.selectFrom('test_drives').selectAll().where('user_id', '=', userId).orderBy('slot_start_ms', 'desc').execute();
  const all = withChangeable(rows, deps.clock.now());
  return { items: all.slice((asked.page - 1) * asked.perPage, asked.page * asked.perPage), total: all.length };
}

// ------------------------------------------------------------------------------------ admin

export type AdminTestDriveAction = 'confirm' | 'done' | 'no_show' | 'cancel';
/** The desk's buttons and the events of the transition table they are. */
const ACTION_EVENT: Record<AdminTestDriveAction, TestDriveEvent> = { confirm: 'confirm', done: 'mark_done', no_show: 'mark_no_show', cancel: 'cancel' };
const ADMIN_ACTIONS = Object.keys(ACTION_EVENT) as AdminTestDriveAction[];

/** The desk's buttons a booking in `status` offers: the table's moves by the desk. */
export function deskActionsFor(status: TestDriveStatus): { actions: AdminTestDriveAction[]; movable: boolean } {
  return {
    actions: ADMIN_ACTIONS.filter((action) => transition(TEST_DRIVE_TRANSITIONS, status, ACTION_EVENT[action], 'desk') !== null),
    movable: transition(TEST_DRIVE_TRANSITIONS, status, 'reschedule', 'desk') !== null,
  };
}

export async function getTestDrive(deps: TestDriveDeps, id: number): Promise<ScheduledTestDrive> {
  const row = await deps.database.db.selectFrom('test_drives').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError(messages.notYours);
  return toScheduled(row);
}

/** The admin's change of a booking's state; returns the booking before and after, for the audit log. */
export async function changeTestDriveStatus(
  deps: TestDriveDeps,
  input: { id: number; action: AdminTestDriveAction },
): Promise<{ before: ScheduledTestDrive; after: ScheduledTestDrive }> {
  const before = await getTestDrive(deps, input.id);
  const status = transition(TEST_DRIVE_TRANSITIONS, before.status, ACTION_EVENT[input.action], 'desk');
  if (status === null)
    throw new ConflictError(t('deskCannotChange', { status: currentLanguage() === 'en' ? before.status.replace('_', '-') : STATUS_LABELS[before.status] }));
  const updated = await deps.database.db
    .updateTable('test_drives')
    .set({ status, updated_at: new Date(deps.clock.now()).toISOString() })
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
export async function daySchedule(deps: TestDriveDeps, date: string): Promise<Array<ScheduledTestDrive & { desk: ReturnType<typeof deskActionsFor> }>> {
  const { fromMs, toMs } = dayRange(date);
  const rows = await deps.database.db
    .selectFrom('test_drives')
    .selectAll()
    .where('slot_start_ms', '>=', fromMs)
    .where('slot_start_ms', '<', toMs)
    .orderBy('slot_start_ms')
    .orderBy('seat')
    .orderBy('id')
    .execute();
  const drives = rows.map((row) => ({ ...toScheduled(row), desk: deskActionsFor(row.status) }));
  return [...drives.filter((drive) => drive.status !== 'cancelled'), ...drives.filter((drive) => drive.status === 'cancelled')];
}

export type TestDriveStatistics = { total: number; upcoming: number; done: number; noShow: number; cancelled: number; becameSales: number };

/**
 * Test drives by state (total leaves out the cancelled), and how many became sales: the cars
 * sold that had a test drive done (a car driven by three buyers and sold counts once).
 */
export async function testDriveStatistics(database: Database, nowMs: number): Promise<TestDriveStatistics> {
  const { db } = database;
  const [byStatus, upcoming, sales] = await Promise.all([
    db
      .selectFrom('test_drives')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute(),
    upcomingCount(db, 'test_drives', nowMs),
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
    upcoming,
    done: count('done'),
    noShow: count('no_show'),
    cancelled: count('cancelled'),
    becameSales: Number(sales[0]?.count ?? 0),
  };
}
