import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  bookableDays,
  daySlots,
  outsideHours,
  slotInstant,
  slotProblem,
  UPCOMING_STATUSES,
  type SlotRules,
  type TestDriveStatus,
} from '../../app/features/appointments/test-drives.ts';
import { addDays } from '../../app/lib/india-time.ts';
import { ConflictError } from '../errors.ts';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import { brokenUniqueRule } from '../db/unique-rules.ts';
import type { AppointmentKind, AppointmentTable } from './kinds.ts';

/**
 * The appointment engine (decision 107): slots and their seats, the free slots of a day, what is
 * upcoming, booking, moving and cancelling, for every kind in kinds.ts. The features keep what is
 * theirs (the car of a test drive, the seller's car and estimate of an inspection, the messages)
 * and call this for the rest. Slots are stored as epoch milliseconds (`slot_start_ms`, migration
 * 037); the pages and the API read and write India time ('YYYY-MM-DDTHH:MM', app/features/appointments/test-drives.ts).
 *
 * What must hold when requests come at once is held by the database: a slot's capacity by the
 * unique index on (slot, seat) over the bookings not cancelled, and each kind's other unique
 * rules (a car, a person per slot) by theirs; a move or a cancel is an update conditional on the
 * row as it was read.
 */

/** The columns every appointment table has (VisitBookingColumns in schema.ts). */
export type AppointmentRow = Selectable<DB['test_drives']> | Selectable<DB['inspections']>;
type RowOf<Table extends AppointmentTable> = Selectable<DB[Table]>;
/** What the engine reads of any appointment row. */
type Held = { id: number; status: TestDriveStatus; slot_start_ms: number };

/**
 * Both tables share the columns the engine reads and writes; Kysely cannot see that through a
 * table chosen at run time, so the engine speaks to one of them by type.
 */
function shared(db: Kysely<DB>): Kysely<Pick<DB, 'test_drives'>> {
  return db as unknown as Kysely<Pick<DB, 'test_drives'>>;
}

/** The instant a slot written in India time ('YYYY-MM-DDTHH:MM') begins, as stored. */
export function slotStartMs(slot: string): number {
  return slotInstant(slot).getTime();
}

/** An India day's first instant and the next day's, as stored. */
export function dayRange(date: string): { fromMs: number; toMs: number } {
  return { fromMs: slotStartMs(`${date}T00:00`), toMs: slotStartMs(`${addDays(date, 1)}T00:00`) };
}

/** A booking still to come: booked or confirmed, and its slot not begun. */
export function isUpcoming(row: { status: string; slot_start_ms: number }, nowMs: number): boolean {
  return (UPCOMING_STATUSES as readonly string[]).includes(row.status) && row.slot_start_ms > nowMs;
}

/** A person's bookings read newest slot first, put as the upcoming ones (soonest first) and then the rest (newest first). */
export function upcomingFirst<Booking extends { changeable: boolean }>(newestFirst: Booking[]): Booking[] {
  return [...newestFirst.filter((booking) => booking.changeable).reverse(), ...newestFirst.filter((booking) => !booking.changeable)];
}

/** Why `slot` cannot be booked at `nowMs` under the kind's rules (in the kind's words), or null when it can. */
export function slotRefusal(kind: AppointmentKind, rules: SlotRules, slot: string, nowMs: number): string | null {
  const problem = slotProblem(slot, nowMs, rules);
  if (problem === null || !kind.outsideHours) return problem;
  return bookableDays(nowMs, rules).includes(slot.slice(0, 10)) && outsideHours(slot, rules) ? kind.outsideHours(rules) : problem;
}

export type FreeSlot = { start: string; remaining: number };

/**
 * The slots of one India day still bookable at `nowMs`, each with the seats left; a slot in
 * `blocked` (a test drive's car already out then) has none.
 */
export async function freeSlots(
  database: Database,
  kind: AppointmentKind,
  rules: SlotRules,
  date: string,
  nowMs: number,
  blocked: ReadonlySet<number> = new Set(),
): Promise<FreeSlot[]> {
  const slots = daySlots(date, nowMs, rules);
  if (slots.length === 0) return [];
  const taken = await seatsTaken(database, kind.table, dayRange(date));
  return slots.map((start) => {
    const ms = slotStartMs(start);
    return { start, remaining: blocked.has(ms) ? 0 : Math.max(0, rules.capacity - (taken.get(ms) ?? 0)) };
  });
}

/** The seats held in each slot of a range (bookings not cancelled), by slot start. */
async function seatsTaken(database: Database, table: AppointmentTable, range: { fromMs: number; toMs: number }): Promise<Map<number, number>> {
  const rows = await shared(database.db)
    .selectFrom(table as 'test_drives')
    .select('slot_start_ms')
    .where('slot_start_ms', '>=', range.fromMs)
    .where('slot_start_ms', '<', range.toMs)
    .where('status', '<>', 'cancelled')
    .execute();
  const perSlot = new Map<number, number>();
  for (const row of rows) perSlot.set(Number(row.slot_start_ms), (perSlot.get(Number(row.slot_start_ms)) ?? 0) + 1);
  return perSlot;
}

/** How many bookings of the kind an India day holds, cancelled ones left out (the dashboard's tiles). */
export async function countOn(database: Database, table: AppointmentTable, date: string): Promise<number> {
  const { fromMs, toMs } = dayRange(date);
  const row = await shared(database.db)
    .selectFrom(table as 'test_drives')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('slot_start_ms', '>=', fromMs)
    .where('slot_start_ms', '<', toMs)
    .where('status', '<>', 'cancelled')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** How many bookings of a table are upcoming at `nowMs`, all of them or one person's; read in `db` (a transaction, or the database). */
export async function upcomingCount(db: Kysely<DB>, table: AppointmentTable, nowMs: number, userId?: string): Promise<number> {
  let query = shared(db)
    .selectFrom(table as 'test_drives')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', 'in', [...UPCOMING_STATUSES])
    .where('slot_start_ms', '>', nowMs);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const row = await query.executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Refuses (ConflictError) a person who holds the most upcoming bookings the kind allows. */
export async function checkUpcomingLimit(db: Kysely<DB>, kind: AppointmentKind, userId: string, nowMs: number): Promise<void> {
  if (kind.maxUpcoming && (await upcomingCount(db, kind.table, nowMs, userId)) >= kind.maxUpcoming.count) throw new ConflictError(kind.maxUpcoming.refusal());
}

/**
 * Runs `write` with a free seat of the slot (below the capacity). The database's unique index
 * on (slot, seat) is what holds the capacity under bookings made at once: a seat taken
 * meanwhile makes the next one be tried; another rule broken, or no seat left, is a
 * ConflictError (409). A capacity lowered after bookings were made lets them stand and no new
 * one fit.
 */
async function withFreeSeat<T>(
  database: Database,
  kind: AppointmentKind,
  slot: { startMs: number; capacity: number },
  write: (seat: number) => Promise<T>,
): Promise<T> {
  const used = await shared(database.db)
    .selectFrom(kind.table as 'test_drives')
    .select('seat')
    .where('slot_start_ms', '=', slot.startMs)
    .where('status', '<>', 'cancelled')
    .execute();
  if (used.length >= slot.capacity) throw new ConflictError(kind.slotFull());
  const taken = new Set(used.map((row) => row.seat));
  for (let seat = 0; seat < slot.capacity; seat++) {
    if (taken.has(seat)) continue;
    try {
      return await write(seat);
    } catch (error) {
      const broken = brokenUniqueRule(error, kind.table, kind.seats);
      if (broken === 'seat') continue;
      if (broken !== null) throw new ConflictError(kind.refusals[broken]!());
      throw error;
    }
  }
  throw new ConflictError(kind.slotFull());
}

/**
 * Books a seat of the slot starting at `startMs`: `insert` writes the row with the seat it is
 * given, in a transaction that also holds anything queued with it (decision 069); a seat taken
 * meanwhile rolls it back and the next seat is tried. A kind with a most-upcoming rule counts the
 * person's bookings again inside, under their lock (PostgreSQL locks their profile row; SQLite
 * runs one writing transaction at a time), so bookings sent at once cannot pass it together.
 */
export async function book<Table extends AppointmentTable>(
  database: Database,
  kind: AppointmentKind<Table>,
  slot: { userId: string; startMs: number; capacity: number; nowMs: number },
  insert: (trx: Transaction<DB>, seat: number) => Promise<RowOf<Table>>,
): Promise<RowOf<Table>> {
  return withFreeSeat(database, kind, slot, (seat) =>
    database.db.transaction().execute(async (trx) => {
      if (kind.maxUpcoming) {
        if (database.dialect === 'postgres') await trx.selectFrom('profiles').select('user_id').where('user_id', '=', slot.userId).forUpdate().execute();
        await checkUpcomingLimit(trx, kind, slot.userId, slot.nowMs);
      }
      return insert(trx, seat);
    }),
  );
}

/**
 * Moves an upcoming booking to the slot starting at `startMs` (the seat rules as for a new
 * booking), with the status `status` and its reminder to be sent again; `alsoInTransaction`
 * queues its messages with the move. Only the row as it was read moves: a cancel or another
 * move meanwhile is the kind's notChangeable (409). A move to the slot it has changes nothing.
 */
export async function reschedule<Table extends AppointmentTable>(
  database: Database,
  kind: AppointmentKind<Table>,
  booked: RowOf<Table>,
  to: { startMs: number; capacity: number; status: TestDriveStatus; nowMs: number },
  alsoInTransaction?: (trx: Transaction<DB>, moved: RowOf<Table>) => Promise<void>,
): Promise<RowOf<Table>> {
  const row = booked as unknown as Held;
  if (!isUpcoming(row, to.nowMs)) throw new ConflictError(kind.notChangeable());
  if (to.startMs === row.slot_start_ms) return booked;
  return withFreeSeat(database, kind, to, (seat) =>
    database.db.transaction().execute(async (trx) => {
      const moved = await shared(trx)
        .updateTable(kind.table as 'test_drives')
        .set({ slot_start_ms: to.startMs, seat, reminded_at: null, status: to.status, updated_at: new Date(to.nowMs).toISOString() })
        .where('id', '=', row.id)
        .where('slot_start_ms', '=', row.slot_start_ms)
        .where('status', '=', row.status)
        .returningAll()
        .executeTakeFirst();
      if (!moved) throw new ConflictError(kind.notChangeable());
      await alsoInTransaction?.(trx, moved as unknown as RowOf<Table>);
      return moved as unknown as RowOf<Table>;
    }),
  );
}

/**
 * The customer's cancel of one of their bookings (the caller has checked it is theirs): the row
 * as cancelled, or the kind's notChangeable (409) when it is not upcoming, or stopped being so
 * meanwhile (a desk's confirm is fine, a done or a cancel is not). The seat is free again.
 */
export async function cancelUpcoming<Table extends AppointmentTable>(
  database: Database,
  kind: AppointmentKind<Table>,
  booked: RowOf<Table>,
  nowMs: number,
): Promise<RowOf<Table>> {
  const row = booked as unknown as Held;
  if (!isUpcoming(row, nowMs)) throw new ConflictError(kind.notChangeable());
  const updated = await shared(database.db)
    .updateTable(kind.table as 'test_drives')
    .set({ status: 'cancelled', updated_at: new Date(nowMs).toISOString() })
    .where('id', '=', row.id)
    .where('status', 'in', [...UPCOMING_STATUSES])
    .where('slot_start_ms', '>', nowMs)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new ConflictError(kind.notChangeable());
  return updated as unknown as RowOf<Table>;
}
