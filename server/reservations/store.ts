import type { Kysely } from 'kysely';
import type { Selectable } from 'kysely';
import type { DeskReservation, Reservation } from '../../app/features/reservations/reservations.ts';
import type { CarReservationTable, DB } from '../db/schema.ts';
import type { Database } from '../db/connection.ts';
import { NotFoundError } from '../errors.ts';
import { reservationMessages } from '../../app/features/reservations/reservations.ts';
import { indiaIso } from '../../app/lib/india-time.ts';
import { paiseToWholeRupees } from '../../app/lib/money.ts';

/** Declared beside the reservation rules, where the admin's desk reads them too (decision 110). */
export type { DeskReservation, Reservation };

type Row = Selectable<CarReservationTable> & { owed_paise: number | string | null };

export function reservationQuery(db: Kysely<DB>) {
  return db
    .selectFrom('car_reservations')
    .selectAll('car_reservations')
    .select((eb) =>
      eb
        .selectFrom('payment_ledger')
        .select((inner) => inner.fn.coalesce(inner.fn.sum<number | string>('payment_ledger.amount_paise'), inner.lit(0)).as('owed'))
        .where('payment_ledger.entry', '=', 'refund')
        .where('payment_ledger.owner_kind', '=', 'reservation')
        .whereRef('payment_ledger.owner_id', '=', 'car_reservations.id')
        .where('payment_ledger.status', '=', 'owed')
        .as('owed_paise'),
    );
}

/** India time, as every time the API answers (docs/api.md). */
const iso = (ms: number | string | null) => (ms === null ? null : indiaIso(Number(ms)));

export function toDeskReservation(row: Row): DeskReservation {
  return {
    id: Number(row.id),
    vehicleId: row.vehicle_id === null ? null : Number(row.vehicle_id),
    vehicleTitle: row.vehicle_title,
    status: row.status,
    amount: paiseToWholeRupees(Number(row.amount_paise)),
    holdHours: Number(row.hold_hours),
    paymentOrderId: row.status === 'pending' ? row.payment_order_id : null,
    payBy: iso(row.pay_by_ms)!,
    heldUntil: iso(row.held_until_ms),
    amountRefunded: paiseToWholeRupees(Number(row.amount_refunded_paise)),
    refundOwed: paiseToWholeRupees(Number(row.owed_paise ?? 0)),
    paymentProblem: row.payment_problem,
    salePrice: row.sale_price === null ? null : Number(row.sale_price),
    createdAt: indiaIso(Date.parse(row.created_at)),
    paidAt: row.paid_at === null ? null : indiaIso(Date.parse(row.paid_at)),
    endedAt: row.ended_at === null ? null : indiaIso(Date.parse(row.ended_at)),
    name: row.name,
    phone: row.phone,
    email: row.email,
    userId: row.user_id,
  };
}

/** What the buyer sees of their own reservation (no contact details: they are theirs anyway). */
export function toReservation(row: Row): Reservation {
  const { name: _name, phone: _phone, email: _email, userId: _userId, ...own } = toDeskReservation(row);
  return own;
}

export async function findReservation(database: Database, id: number): Promise<DeskReservation | null> {
  const row = await reservationQuery(database.db).where('car_reservations.id', '=', id).executeTakeFirst();
  return row ? toDeskReservation(row) : null;
}

/** The person's own reservation; anyone else's is "not found". */
export async function findOwnReservation(database: Database, userId: string, id: number): Promise<DeskReservation> {
  const row = await reservationQuery(database.db).where('car_reservations.id', '=', id).where('car_reservations.user_id', '=', userId).executeTakeFirst();
  if (!row) throw new NotFoundError(reservationMessages.notYours);
  return toDeskReservation(row);
}

/** Whether the person holds the car's active reservation: they may still book its test drive while others see it Reserved. */
export async function holdsReservation(database: Database, userId: string, vehicleId: number): Promise<boolean> {
  const row = await database.db
    .selectFrom('car_reservations')
    .select('id')
    .where('vehicle_id', '=', vehicleId)
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}
