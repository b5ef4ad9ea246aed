import { sql, type Kysely, type Selectable } from 'kysely';
import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import { HOLDING_STATUSES, type BookingStatus, type PaymentMethod, type PickupKind } from '../../app/features/rentals/rentals.ts';
import { quoteInLanguage } from '../../app/features/rentals/rental-price.ts';
import type { RentalQuote, ReturnCharges } from '../../app/features/rentals/rental-price.ts';
import { paiseToWholeRupees, type MoneyMethod } from '../../app/lib/money.ts';
import type { HandoverMoney, SettlementMoney } from '../../app/features/rentals/rental-money.ts';
import type { Database } from '../db/connection.ts';
import type { DB, RentalBookingTable } from '../db/schema.ts';
import { ConflictError } from '../errors.ts';
import type { RentalTerms } from './fleet.ts';
import type { RentalPolicy } from '../../app/features/rentals/rental-facts.ts';
import type { Settings, SettingsServices } from '../admin/settings.ts';
import { settingsFor } from '../admin/settings.ts';
import type { Clock } from '../clock.ts';
import { indiaIso } from '../../app/lib/india-time.ts';
import { bulkMove } from '../transitions.ts';
import { BOOKING_TRANSITIONS } from './booking-transitions.ts';
import type { RentalInvoice } from './rental-invoice.ts';

/**
 * What the rental services share: the services they need, the booking's shape, the row
 * conversion and the one write lock under which a car's holds are checked and changed.
 */

/** The services a rental service needs (a subset of AppServices). */
/** The hub's address is named when a delivery PIN code is refused (decision 097). */
export type RentalServices = SettingsServices & { clock: Clock; config: { contactAddress: string } };

export function rentalSettings(services: RentalServices): Promise<Settings> {
  return settingsFor(services);
}

/** The settings' rental terms as the quote and the facts read them (app/features/rentals/rental-facts.ts). */
export function rentalPolicyOf(settings: Settings): RentalPolicy {
  return {
    graceHours: settings.rentalGraceHours,
    lateFeePerHour: settings.rentalLateFeePerHour,
    freeCancelHours: settings.rentalFreeCancelHours,
    lateCancelKeepDays: settings.rentalLateCancelKeepDays,
    deliveryFee: settings.rentalDeliveryFee,
    gstPercent: settings.rentalGstPercent,
    protectionPerDay: settings.rentalProtectionPerDay,
    protectionCap: settings.rentalProtectionCap,
    refundWorkingDays: settings.rentalRefundWorkingDays,
  };
}

/** The rules a renter reads beside a quote (GST, protection, delivery, grace, late fee, cancellation, refunds), as set now. */
export async function rentalPolicy(services: RentalServices): Promise<RentalPolicy> {
  return rentalPolicyOf(await rentalSettings(services));
}

/** Rows in these statuses hold their car ('blocked' is the desk's block). */
export const HOLDING_ROW_STATUSES = [...HOLDING_STATUSES, 'blocked'] as const;

export function notFreeMessage(): string {
  return t('notFree');
}

export type Booking = {
  id: number;
  vehicleId: number;
  carName: string;
  userId: string;
  status: BookingStatus;
  /** Pickup and return, ISO 8601 with +05:30. */
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
  /** The end of the hold: return plus the turnaround buffer. */
  heldUntilMs: number;
  pickup: PickupKind;
  pinCode: string;
  /** Where the car is delivered (pickup 'delivery'); '' for hub pickup. */
  deliveryAddress: string;
  /** The damage-protection plan was chosen (its fee is a line of the quote). */
  protection: boolean;
  quote: RentalQuote;
  /** The terms as booked. */
  terms: RentalTerms;
  paymentMethod: PaymentMethod;
  amountPaid: number;
  amountRefunded: number;
  /** Refunds through the provider not yet done (paise; docs/decisions/050): the desk sees and retries them. */
  refundOwedPaise: number;
  /** Refunds of what was paid that the provider completed (paise): back on the renter's card or UPI. */
  refundedOnlinePaise: number;
  /** A payment this booking did not accept (wrong amount, currency or order, a second payment), for the desk. */
  paymentProblem: string | null;
  paymentOrderId: string | null;
  /** When an unconfirmed or unpaid hold lapses; null once confirmed or paid. */
  holdExpiresAt: string | null;
  odometerOut: number | null;
  fuelOut: number | null;
  odometerIn: number | null;
  fuelIn: number | null;
  /** When the car actually went out and came back (the desk's times, India time with +05:30), not when the photos were saved. */
  handedOverAt: string | null;
  handedOverMs: number | null;
  returnedAt: string | null;
  returnedMs: number | null;
  /** What the desk collected at the handover and how (docs/decisions/099); null before it, and on bookings handed over before this was kept. */
  handoverMoney: HandoverMoney | null;
  /** What moved at the settlement and how; null before it. */
  settlement: SettlementMoney | null;
  charges: ReturnCharges | null;
  depositRefund: number | null;
  /** The tax invoice issued at the settlement (decision 119), or null: before it, or withheld (`invoiceWithheld` says why). */
  invoice: RentalInvoice | null;
  invoiceWithheld: 'dealer-gstin-missing' | null;
  note: string;
  createdAt: string;
};

export type Block = { id: number; vehicleId: number; fromMs: number; toMs: number; from: string; to: string; note: string; createdBy: string | null };

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A quote that does not parse (never written so by the app): nothing owed, nothing shown. */
const EMPTY_QUOTE: RentalQuote = {
  hours: 0,
  rent: 0,
  protection: 0,
  deliveryFee: 0,
  gstPercent: 0,
  gst: 0,
  lines: [],
  total: 0,
  deposit: 0,
  depositAt: 'pickup',
  kmIncluded: null,
  extraKmRate: 0,
  payableNow: 0,
  dueAtPickup: 0,
};

export type BookingRow = Selectable<RentalBookingTable> & {
  car_name: string;
  refund_owed_paise: number | string | null;
  refunded_online_paise: number | string | null;
};

export function toBooking(row: BookingRow): Booking {
  const fromMs = Number(row.starts_ms);
  const toMs = Number(row.ends_ms);
  return {
    id: Number(row.id),
    vehicleId: Number(row.vehicle_id),
    carName: row.car_name,
    userId: row.user_id ?? '',
    status: row.status as BookingStatus,
    from: indiaIso(fromMs),
    to: indiaIso(toMs),
    fromMs,
    toMs,
    heldUntilMs: Number(row.held_until_ms),
    pickup: row.pickup as PickupKind,
    pinCode: row.pin_code,
    deliveryAddress: row.delivery_address,
    protection: Boolean(row.protection),
    // Migration 018 gave every stored quote its lines.
    // Its line labels were written in the language it was booked in: read in the current one.
    quote: quoteInLanguage(parseJson<RentalQuote>(row.quote, EMPTY_QUOTE)),
    terms: parseJson<RentalTerms>(row.terms, {} as RentalTerms),
    paymentMethod: row.payment_method as PaymentMethod,
    // Stored in paise (migration 036); the booking's answers keep whole rupees, as the pages and the app read them.
    amountPaid: paiseToWholeRupees(Number(row.amount_paid_paise)),
    amountRefunded: paiseToWholeRupees(Number(row.amount_refunded_paise)),
    refundOwedPaise: Number(row.refund_owed_paise ?? 0),
    refundedOnlinePaise: Number(row.refunded_online_paise ?? 0),
    paymentProblem: row.payment_problem,
    paymentOrderId: row.payment_order_id,
    holdExpiresAt: row.hold_expires_ms === null ? null : indiaIso(Number(row.hold_expires_ms)),
    odometerOut: row.odometer_out,
    fuelOut: row.fuel_out,
    odometerIn: row.odometer_in,
    fuelIn: row.fuel_in,
    handedOverAt: row.handed_over_ms === null ? null : indiaIso(Number(row.handed_over_ms)),
    handedOverMs: row.handed_over_ms === null ? null : Number(row.handed_over_ms),
    returnedAt: row.returned_ms === null ? null : indiaIso(Number(row.returned_ms)),
    returnedMs: row.returned_ms === null ? null : Number(row.returned_ms),
    handoverMoney:
      row.handover_method === null
        ? null
        : { paise: Number(row.handover_paise ?? 0), method: row.handover_method as MoneyMethod, reference: row.handover_reference },
    settlement:
      row.settle_direction === null
        ? null
        : {
            direction: row.settle_direction as SettlementMoney['direction'],
            paise: Number(row.settle_paise ?? 0),
            method: row.settle_method as MoneyMethod | null,
            reference: row.settle_reference,
          },
    charges: parseJson<ReturnCharges | null>(row.charges, null),
    depositRefund: row.deposit_refund_paise === null ? null : paiseToWholeRupees(Number(row.deposit_refund_paise)),
    invoice: parseJson<RentalInvoice | null>(row.invoice, null),
    invoiceWithheld: row.invoice_withheld === 'dealer-gstin-missing' ? 'dealer-gstin-missing' : null,
    note: row.note,
    createdAt: row.created_at,
  };
}

export function toBlock(row: Pick<Selectable<RentalBookingTable>, 'id' | 'vehicle_id' | 'starts_ms' | 'ends_ms' | 'note' | 'created_by'>): Block {
  const fromMs = Number(row.starts_ms);
  const toMs = Number(row.ends_ms);
  return {
    id: Number(row.id),
    vehicleId: Number(row.vehicle_id),
    fromMs,
    toMs,
    from: indiaIso(fromMs),
    to: indiaIso(toMs),
    note: row.note,
    createdBy: row.created_by,
  };
}

/** Bookings with their car's name and the refunds they still owe, for toBooking. */
export function bookingQuery(db: Kysely<DB>) {
  return db
    .selectFrom('rental_bookings')
    .innerJoin('vehicles', 'vehicles.id', 'rental_bookings.vehicle_id')
    .selectAll('rental_bookings')
    .select('vehicles.name as car_name')
    .select((eb) =>
      eb
        .selectFrom('payment_ledger')
        .select((inner) => inner.fn.sum<number | string>('payment_ledger.amount_paise').as('owed'))
        .where('payment_ledger.entry', '=', 'refund')
        .where('payment_ledger.owner_kind', '=', 'rental-booking')
        .whereRef('payment_ledger.owner_id', '=', 'rental_bookings.id')
        .where('payment_ledger.status', '=', 'owed')
        .as('refund_owed_paise'),
    )
    .select((eb) =>
      eb
        .selectFrom('payment_ledger')
        .select((inner) => inner.fn.sum<number | string>('payment_ledger.amount_paise').as('refunded'))
        .where('payment_ledger.entry', '=', 'refund')
        .where('payment_ledger.owner_kind', '=', 'rental-booking')
        .whereRef('payment_ledger.owner_id', '=', 'rental_bookings.id')
        .where('payment_ledger.status', '=', 'refunded')
        .where('payment_ledger.of_paid', '=', 1)
        .as('refunded_online_paise'),
    )
    .where('rental_bookings.kind', '=', 'booking');
}

/** The database refused an overlapping hold: PostgreSQL's exclusion_violation, or SQLite's trigger. */
function isOverlapViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as { code?: unknown }).code === '23P01') return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && message.includes('rental_bookings_no_overlap');
}

/** PostgreSQL's deadlock_detected: it ended this transaction to break a wait cycle. */
const DEADLOCK_DETECTED = '40P01';
const TRANSACTION_ATTEMPTS = 5;

/**
 * `work` in a PostgreSQL transaction, run again when PostgreSQL ends it to break a deadlock:
 * inserts that wait on each other's exclusion-constraint check (three bookings of one car at
 * once) can form a cycle, and nothing of the ended transaction was kept.
 */
async function inPostgresTransaction<T>(database: Database, work: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(work);
    } catch (error) {
      if ((error as { code?: unknown }).code !== DEADLOCK_DETECTED || attempt >= TRANSACTION_ATTEMPTS) throw error;
    }
  }
}

/**
 * Runs `work` as the one writer of rental holds: on SQLite in a `BEGIN IMMEDIATE` transaction
 * (the write lock is taken before the check reads, so no other connection or process can slip
 * a booking in between check and insert); on PostgreSQL in a transaction whose inserts and
 * updates the exclusion constraint guards. Either database's own refusal (the constraint, the
 * SQLite triggers) becomes a ConflictError.
 */
export async function withHoldLock<T>(database: Database, work: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  try {
    if (database.dialect === 'postgres') return await inPostgresTransaction(database, work);
    return await database.db.connection().execute(async (connection) => {
      await sql`BEGIN IMMEDIATE`.execute(connection);
      try {
        const result = await work(connection);
        await sql`COMMIT`.execute(connection);
        return result;
      } catch (error) {
        await sql`ROLLBACK`.execute(connection).catch(() => {});
        throw error;
      }
    });
  } catch (error) {
    if (isOverlapViolation(error)) throw new ConflictError(notFreeMessage());
    throw error;
  }
}

/** Lets the holds of one car (or every car) whose time ran out go: requested and unpaid/unconfirmed. */
export async function releaseLapsedHolds(db: Kysely<DB>, nowMs: number, vehicleId?: number): Promise<number> {
  const lapse = bulkMove(BOOKING_TRANSITIONS, 'lapse', 'system');
  let query = db
    .updateTable('rental_bookings')
    .set({ status: lapse.to, updated_at: new Date(nowMs).toISOString() })
    .where('kind', '=', 'booking')
    .where('status', 'in', lapse.from)
    .where('hold_expires_ms', 'is not', null)
    .where('hold_expires_ms', '<=', nowMs);
  if (vehicleId !== undefined) query = query.where('vehicle_id', '=', vehicleId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The holding rows of a car that overlap [fromMs, untilMs), leaving out `exceptId`. */
export async function overlappingHolds(db: Kysely<DB>, input: { vehicleId: number; fromMs: number; untilMs: number; exceptId?: number; nowMs: number }) {
  let query = db
    .selectFrom('rental_bookings')
    .select(['id', 'kind', 'status', 'starts_ms', 'ends_ms', 'held_until_ms', 'hold_expires_ms'])
    .where('vehicle_id', '=', input.vehicleId)
    .where('status', 'in', [...HOLDING_ROW_STATUSES])
    .where('starts_ms', '<', input.untilMs)
    .where('held_until_ms', '>', input.fromMs);
  if (input.exceptId !== undefined) query = query.where('id', '<>', input.exceptId);
  const rows = await query.execute();
  // A lapsed hold no longer holds, even before the expiry job has marked it.
  return rows.filter((row) => !(row.status === 'requested' && row.hold_expires_ms !== null && Number(row.hold_expires_ms) <= input.nowMs));
}
