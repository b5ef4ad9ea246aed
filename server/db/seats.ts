import type { Selectable } from 'kysely';
import { UPCOMING_STATUSES } from '../../app/lib/test-drives.ts';
import { ConflictError } from '../errors.ts';
import type { Database } from './connection.ts';
import type { DB } from './schema.ts';
import { brokenUniqueRule, type UniqueRule } from './unique-rules.ts';

/** A booked slot's table: the seats it has and the refusal for each other unique rule it holds. */
export type SeatedTable<Rule extends string> = {
  table: 'test_drives' | 'inspections';
  /** The rules of the table's unique indexes; `seat` is the slot's seat. */
  rules: Record<Rule | 'seat', UniqueRule>;
  /** What to say when a rule other than the seat's is broken (the car or the person already booked then), read when said: in the asker's language. */
  refusals: Record<Rule, () => string>;
  slotFull: () => string;
};

/**
 * Runs `write` with a free seat of the slot (below the capacity). The database's unique index
 * on (slot, seat) is what holds the capacity under bookings made at once: a seat taken
 * meanwhile makes the next one be tried; another rule broken, or no seat left, is a
 * ConflictError (409). A capacity lowered after bookings were made lets them stand and no new
 * one fit.
 */
export async function withFreeSeat<T, Rule extends string>(
  database: Database,
  seated: SeatedTable<Rule>,
  slot: { start: string; capacity: number },
  write: (seat: number) => Promise<T>,
): Promise<T> {
  const used = await database.db.selectFrom(seated.table).select('seat').where('slot_start', '=', slot.start).where('status', '<>', 'cancelled').execute();
  if (used.length >= slot.capacity) throw new ConflictError(seated.slotFull());
  const taken = new Set(used.map((row) => row.seat));
  for (let seat = 0; seat < slot.capacity; seat++) {
    if (taken.has(seat)) continue;
    try {
      return await write(seat);
    } catch (error) {
      const broken = brokenUniqueRule(error, seated.table, seated.rules);
      if (broken === 'seat') continue;
      if (broken !== null) throw new ConflictError(seated.refusals[broken as Rule]());
      throw error;
    }
  }
  throw new ConflictError(seated.slotFull());
}

/** A booking still to come: booked or confirmed, and its slot not begun. */
export function isUpcoming(row: { status: string; slot_start: string }, nowMs: number): boolean {
  return (UPCOMING_STATUSES as readonly string[]).includes(row.status) && Date.parse(row.slot_start) > nowMs;
}

/**
 * The customer's cancel of one of their bookings (the caller has checked it is theirs and
 * upcoming): the row as cancelled, or a ConflictError saying `notChangeable` when it stopped
 * being upcoming meanwhile (a desk's confirm is fine, a done or a cancel is not).
 */
export async function cancelUpcoming<Table extends SeatedTable<string>['table']>(
  database: Database,
  table: Table,
  id: number,
  now: string,
  notChangeable: string,
): Promise<Selectable<DB[Table]>> {
  const updated = await database.db
    .updateTable(table as SeatedTable<string>['table'])
    .set({ status: 'cancelled', updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', [...UPCOMING_STATUSES])
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new ConflictError(notChangeable);
  return updated as Selectable<DB[Table]>;
}

/** A person's bookings read newest slot first, put as the upcoming ones (soonest first) and then the rest (newest first). */
export function upcomingFirst<Booking extends { changeable: boolean }>(newestFirst: Booking[]): Booking[] {
  return [...newestFirst.filter((booking) => booking.changeable).reverse(), ...newestFirst.filter((booking) => !booking.changeable)];
}
