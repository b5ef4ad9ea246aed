import { HOUR_MS, quoteRental, type QuoteChoices, type RentalQuote } from '../../app/features/rentals/rental-price.ts';
import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import { ONLINE_HOLD_MS, PICKUP_HOLD_MS, type BookingStatus, type PaymentMethod, type PickupKind } from '../../app/features/rentals/rentals.ts';
import type { Settings } from '../admin/settings.ts';
import { recordAudit } from '../audit/audit.ts';
import { InvalidInputError, NotFoundError, ConflictError } from '../errors.ts';
import { getFleetCar, listFleet, type FleetCar } from './fleet.ts';
import { typedPinCode } from '../../app/lib/pin-code.ts';
import { servedAreaProblem } from '../../app/lib/service-areas.ts';
import { checkRenter } from './readiness.ts';
import {
  bookingQuery,
  HOLDING_ROW_STATUSES,
  notFreeMessage,
  overlappingHolds,
  releaseLapsedHolds,
  rentalPolicyOf,
  rentalSettings,
  toBlock,
  toBooking,
  withHoldLock,
  type Block,
  type Booking,
  type RentalServices,
} from './store.ts';
import type { Database } from '../db/connection.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { indiaIso } from '../../app/lib/india-time.ts';

/**
 * Availability, quotes and new bookings, and the desk's blocks. Every write that adds a hold
 * runs under withHoldLock (server/rentals/store.ts): the database itself keeps two holds of one
 * car from overlapping (docs/decisions/020).
 */

export type { Block, Booking, RentalServices } from './store.ts';

const DAY_MS = 24 * HOUR_MS;
/** The longest single booking (a month and a bit); longer hires are arranged with the dealer. */
export const MAX_BOOKING_DAYS = 45;

export type TimeRange = { fromMs: number; toMs: number };

/**
 * Checks a requested range against the rules in force: return after pickup, pickup at least the
 * minimum notice ahead and within the booking horizon, at most MAX_BOOKING_DAYS long.
 * Input: the range, the settings, now. Errors: InvalidInputError (message says what to change).
 */
export function checkBookingRange(range: TimeRange, settings: Settings, nowMs: number): void {
  if (!(range.toMs > range.fromMs)) throw new InvalidInputError(t('returnAfterPickup'), { to: t('returnAfterPickup') });
  if (range.fromMs < nowMs) {
    const message = t('pickupPassed', { hours: settings.rentalMinNoticeHours });
    throw new InvalidInputError(message, { from: message });
  }
  if (range.fromMs < nowMs + settings.rentalMinNoticeHours * HOUR_MS) {
    const message = t('pickupNotice', { hours: settings.rentalMinNoticeHours });
    throw new InvalidInputError(message, { from: message });
  }
  if (range.fromMs > nowMs + settings.rentalHorizonDays * DAY_MS) {
    const message = t('horizon', { days: settings.rentalHorizonDays });
    throw new InvalidInputError(message, { from: message });
  }
  if (range.toMs - range.fromMs > MAX_BOOKING_DAYS * DAY_MS) {
    const message = t('tooLong', { days: MAX_BOOKING_DAYS });
    throw new InvalidInputError(message, { to: message });
  }
}

/** One taken range of a car as the public sees it (no booking details). */
export type TakenRange = { kind: 'booking' | 'block'; from: string; to: string; fromMs: number; toMs: number };

/**
 * The ranges a car is held in that touch [fromMs, toMs): bookings (including the turnaround
 * buffer after each) and blocks. Input: vehicle id, range. Errors: none (an unknown car has none).
 */
export async function takenRanges(services: Pick<RentalServices, 'database' | 'clock'>, vehicleId: number, range: TimeRange): Promise<TakenRange[]> {
  const rows = await overlappingHolds(services.database.db, { vehicleId, fromMs: range.fromMs, untilMs: range.toMs, nowMs: services.clock.now() });
  return rows
    .map((row) => {
      const fromMs = Number(row.starts_ms);
      const toMs = Number(row.held_until_ms);
      return { kind: row.kind, from: indiaIso(fromMs), to: indiaIso(toMs), fromMs, toMs };
    })
    .sort((a, b) => a.fromMs - b.fromMs);
}

/**
 * The earliest pickup at or after `range.fromMs` for a booking as long as `range` (plus the
 * buffer) that no hold overlaps; `range.fromMs` itself when the car is free then.
 */
export function nextFreeFrom(holds: Array<{ fromMs: number; toMs: number }>, range: TimeRange, bufferMs: number): number {
  const length = range.toMs - range.fromMs + bufferMs;
  let candidate = range.fromMs;
  for (const hold of [...holds].sort((a, b) => a.fromMs - b.fromMs)) {
    if (hold.fromMs < candidate + length && hold.toMs > candidate) candidate = hold.toMs;
  }
  return candidate;
}

/** A fleet car with whether it is free for the asked range, and its quote for it. */
export type CarAvailability = FleetCar & {
  available: boolean;
  /** When the car is next free for a booking as long as the asked one (ISO +05:30); null when free now or unknown. */
  nextFree: string | null;
  quote: RentalQuote | null;
};

/**
 * The bookable fleet for a range: each car with `available` and its quote (pay at pickup, hub
 * pickup). Without a range, every car with `available: true` and no quote.
 * Input: optional range (validated with checkBookingRange when given). Errors: InvalidInputError.
 */
export async function fleetAvailability(services: RentalServices, range: TimeRange | null): Promise<CarAvailability[]> {
  const cars = await listFleet(services.database, { rentableOnly: true });
  if (!range) return cars.map((car) => ({ ...car, available: true, nextFree: null, quote: null }));
  const settings = await rentalSettings(services);
  const policy = rentalPolicyOf(settings);
  const nowMs = services.clock.now();
  checkBookingRange(range, settings, nowMs);
  const bufferMs = settings.rentalBufferHours * HOUR_MS;
  // One query for the whole fleet: holds from the range's start until far enough for a next free time.
  const rows = await services.database.db
    .selectFrom('rental_bookings')
    .select(['vehicle_id', 'status', 'starts_ms', 'held_until_ms', 'hold_expires_ms'])
    .where('status', 'in', [...HOLDING_ROW_STATUSES])
    .where('held_until_ms', '>', range.fromMs)
    .where('starts_ms', '<', range.toMs + bufferMs + (settings.rentalHorizonDays + MAX_BOOKING_DAYS) * DAY_MS)
    .execute();
  const holdsByCar = new Map<number, Array<{ fromMs: number; toMs: number }>>();
  for (const row of rows) {
    if (row.status === 'requested' && row.hold_expires_ms !== null && Number(row.hold_expires_ms) <= nowMs) continue;
    const list = holdsByCar.get(row.vehicle_id) ?? [];
    list.push({ fromMs: Number(row.starts_ms), toMs: Number(row.held_until_ms) });
    holdsByCar.set(row.vehicle_id, list);
  }
  return cars.map((car) => {
    const nextMs = nextFreeFrom(holdsByCar.get(car.id) ?? [], range, bufferMs);
    const available = nextMs === range.fromMs;
    return { ...car, available, nextFree: available ? null : indiaIso(nextMs), quote: quoteRental(car.terms!, range, policy) };
  });
}

/**
 * Why this car cannot be delivered to `pinCode` (not delivered at all, no PIN code, one outside
 * the areas we visit: the nearest one and the hub named, as for home visits); null when it can.
 */
function deliveryProblem(
  terms: { deliveryAvailable: boolean },
  settings: Settings,
  hubAddress: string,
  pinCode: string,
): { field: string; message: string } | null {
  if (!terms.deliveryAvailable) return { field: 'pickup', message: t('notDelivered') };
  const problem = servedAreaProblem(pinCode, settings.serviceAreas, hubAddress);
  return problem ? { field: 'pinCode', message: problem } : null;
}

/**
 * One fleet car's availability and quote for a range, with the renter's choices (hub pickup
 * unless `delivery`, which needs a PIN code we serve; `protection`; paying online).
 * Input: vehicle id, range, options. Errors: NotFoundError (not a fleet car), InvalidInputError (range, delivery).
 */
export async function carAvailability(
  services: RentalServices,
  vehicleId: number,
  range: TimeRange,
  options: QuoteChoices & { pinCode?: string } = {},
): Promise<CarAvailability> {
  const car = await getFleetCar(services.database, vehicleId);
  if (!car || !car.rentable || !car.terms) throw new NotFoundError(t('carNotFound'));
  const settings = await rentalSettings(services);
  checkBookingRange(range, settings, services.clock.now());
  if (options.delivery) {
    const problem = deliveryProblem(car.terms, settings, services.config.contactAddress, typedPinCode(options.pinCode));
    if (problem) throw new InvalidInputError(problem.message, { [problem.field]: problem.message });
  }
  const bufferMs = settings.rentalBufferHours * HOUR_MS;
  const holds = await takenRanges(services, vehicleId, {
    fromMs: range.fromMs,
    toMs: range.toMs + bufferMs + (settings.rentalHorizonDays + MAX_BOOKING_DAYS) * DAY_MS,
  });
  const nextMs = nextFreeFrom(holds, range, bufferMs);
  const available = nextMs === range.fromMs;
  const quote = quoteRental(car.terms, range, rentalPolicyOf(settings), {
    delivery: options.delivery,
    protection: options.protection,
    payOnline: options.payOnline,
  });
  return { ...car, available, nextFree: available ? null : indiaIso(nextMs), quote };
}

const deliveryAddressRequired = () => t('deliveryAddressRequired');

export type NewBooking = {
  userId: string;
  vehicleId: number;
  fromMs: number;
  toMs: number;
  pickup: PickupKind;
  /** Required for delivery: a serviceable six-digit PIN code. */
  pinCode?: string;
  /** Required for delivery: the address the car is brought to. */
  deliveryAddress?: string;
  /** The damage-protection plan (a line of the quote). */
  protection?: boolean;
  /** 'pay-at-pickup' by default; 'razorpay' only when the payment adapter has keys. */
  paymentMethod?: PaymentMethod;
};

/**
 * Books a car: checks the range, the car, the renter and the delivery PIN code, then checks
 * for overlap and inserts under the hold lock (the database refuses an overlap too). The
 * booking starts `requested` and holds the car until confirmed (pay at pickup: 24 h) or paid
 * (online: 30 min). Input: NewBooking. Errors: InvalidInputError (range, pickup, PIN code),
 * NotFoundError (not a bookable fleet car), CannotBookYetError (422), ConflictError (409, not free).
 */
export async function createBooking(
  services: RentalServices,
  input: NewBooking,
  /** Runs in the transaction that saves the booking: what it causes is queued there (decision 069). */
  alsoInTransaction?: (db: Kysely<DB>, booking: Booking) => Promise<void>,
): Promise<Booking> {
  const settings = await rentalSettings(services);
  const nowMs = services.clock.now();
  const range = { fromMs: input.fromMs, toMs: input.toMs };
  checkBookingRange(range, settings, nowMs);
  const car = await getFleetCar(services.database, input.vehicleId);
  if (!car || !car.rentable || !car.terms) throw new NotFoundError(t('carNotFound'));
  const terms = car.terms;
  const pinCode = typedPinCode(input.pinCode);
  const delivery = input.pickup === 'delivery';
  const deliveryAddress = delivery ? (input.deliveryAddress ?? '').trim() : '';
  if (delivery) {
    const problem = deliveryProblem(terms, settings, services.config.contactAddress, pinCode);
    if (problem) throw new InvalidInputError(problem.message, { [problem.field]: problem.message });
    if (!deliveryAddress) throw new InvalidInputError(deliveryAddressRequired(), { deliveryAddress: deliveryAddressRequired() });
  }
  await checkRenter(services.database, input.userId, terms, input.fromMs);
  const paymentMethod = input.paymentMethod ?? 'pay-at-pickup';
  const protection = input.protection ?? false;
  const quote = quoteRental(terms, range, rentalPolicyOf(settings), { delivery, protection, payOnline: paymentMethod === 'razorpay' });
  const heldUntilMs = input.toMs + settings.rentalBufferHours * HOUR_MS;
  const now = new Date(nowMs).toISOString();

  const id = await withHoldLock(services.database, async (db) => {
    await releaseLapsedHolds(db, nowMs, input.vehicleId);
    const clashes = await overlappingHolds(db, { vehicleId: input.vehicleId, fromMs: input.fromMs, untilMs: heldUntilMs, nowMs });
    if (clashes.length > 0) throw new ConflictError(notFreeMessage());
    const row = await db
      .insertInto('rental_bookings')
      .values({
        kind: 'booking',
        vehicle_id: input.vehicleId,
        user_id: input.userId,
        status: 'requested',
        starts_ms: input.fromMs,
        ends_ms: input.toMs,
        held_until_ms: heldUntilMs,
        pickup: input.pickup,
        pin_code: delivery ? pinCode : '',
        delivery_address: deliveryAddress,
        protection: protection ? 1 : 0,
        quote: JSON.stringify(quote),
        terms: JSON.stringify(terms),
        payment_method: paymentMethod,
        hold_expires_ms: nowMs + (paymentMethod === 'razorpay' ? ONLINE_HOLD_MS : PICKUP_HOLD_MS),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (alsoInTransaction) await alsoInTransaction(db, (await getBooking({ ...services.database, db }, Number(row.id)))!);
    return Number(row.id);
  });
  return (await getBooking(services.database, id))!;
}

/** One booking, or null. Input: booking id. Errors: none. */
export async function getBooking(database: Database, bookingId: number): Promise<Booking | null> {
  if (!Number.isSafeInteger(bookingId) || bookingId <= 0) return null;
  const row = await bookingQuery(database.db).where('rental_bookings.id', '=', bookingId).executeTakeFirst();
  return row ? toBooking(row) : null;
}

/**
 * A booking of this person's; NotFoundError when it does not exist or is someone else's (the
 * same answer, so ids of others' bookings cannot be probed). Input: user id, booking id.
 */
export async function getOwnBooking(database: Database, userId: string, bookingId: number): Promise<Booking> {
  const booking = await getBooking(database, bookingId);
  if (!booking || booking.userId !== userId) throw new NotFoundError(t('bookingNotFound'));
  return booking;
}

/** The person's bookings, newest pickup first. Input: user id. Errors: none. */
export async function listOwnBookings(database: Database, userId: string, options: { all?: boolean } = {}): Promise<Booking[]> {
  const query = bookingQuery(database.db)
    .where('rental_bookings.user_id', '=', userId)
    .orderBy('rental_bookings.starts_ms', 'desc')
    .orderBy('rental_bookings.id', 'desc');
  // The profile shows the latest 200; the data download (options.all) has every one.
  const rows = await (options.all ? query : query.limit(200)).execute();
  return rows.map(toBooking);
}

/**
 * A page of the person's bookings in the same order as listOwnBookings, with how many they have
 * in all (the API's paged list). Input: user id, page from 1, page size. Errors: none.
 */
export async function ownBookingsPage(
  database: Database,
  userId: string,
  asked: { page: number; perPage: number },
): Promise<{ items: Booking[]; total: number }> {
  const [rows, count] = await Promise.all([
    bookingQuery(database.db)
      .where('rental_bookings.user_id', '=', userId)
      .orderBy('rental_bookings.starts_ms', 'desc')
      .orderBy('rental_bookings.id', 'desc')
      .limit(asked.perPage)
      .offset((asked.page - 1) * asked.perPage)
      .execute(),
    database.db
      .selectFrom('rental_bookings')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('total'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'booking')
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toBooking), total: Number(count.total) };
}

/**
 * Bookings whose time touches [fromMs, toMs), in any status, optionally of one car or in some
 * statuses; for the desk's timeline and lists. Input: range, filters. Errors: none.
 */
export async function listBookings(
  database: Database,
  options: { fromMs: number; toMs: number; vehicleId?: number; statuses?: readonly string[] },
): Promise<Booking[]> {
  let query = bookingQuery(database.db).where('rental_bookings.starts_ms', '<', options.toMs).where('rental_bookings.held_until_ms', '>', options.fromMs);
  if (options.vehicleId !== undefined) query = query.where('rental_bookings.vehicle_id', '=', options.vehicleId);
  if (options.statuses) query = query.where('rental_bookings.status', 'in', [...options.statuses]);
  const rows = await query.orderBy('rental_bookings.starts_ms').orderBy('rental_bookings.id').limit(2000).execute();
  return rows.map(toBooking);
}

/** Statuses of a booking that stands: still to happen, under way or done (not cancelled, refused, lapsed or a no-show). */
const STANDING_STATUSES = ['requested', 'confirmed', 'active', 'returned', 'closed'] as const satisfies readonly BookingStatus[];

export type DayHandovers = { pickups: Booking[]; returns: Booking[] };

/**
 * One India day's handovers at the desk: the bookings picked up that day and those due back that
 * day (by their booked times), cancelled, refused, lapsed and no-show bookings left out.
 * Input: the day's first moment (indiaDayStart). Errors: none.
 */
export async function handoversOn(database: Database, dayStartMs: number): Promise<DayHandovers> {
  const dayEndMs = dayStartMs + DAY_MS;
  const on = (column: 'rental_bookings.starts_ms' | 'rental_bookings.ends_ms') =>
    bookingQuery(database.db)
      .where(column, '>=', dayStartMs)
      .where(column, '<', dayEndMs)
      .where('rental_bookings.status', 'in', [...STANDING_STATUSES])
      .orderBy(column)
      .orderBy('rental_bookings.id')
      .limit(500)
      .execute();
  const [pickups, returns] = await Promise.all([on('rental_bookings.starts_ms'), on('rental_bookings.ends_ms')]);
  return { pickups: pickups.map(toBooking), returns: returns.map(toBooking) };
}

/** Bookings waiting for the desk (requested), oldest first. Errors: none. */
export async function listRequestedBookings(database: Database): Promise<Booking[]> {
  const rows = await bookingQuery(database.db).where('rental_bookings.status', '=', 'requested').orderBy('rental_bookings.created_at').limit(500).execute();
  return rows.map(toBooking);
}

/** Blocks touching [fromMs, toMs), optionally of one car. Errors: none. */
export async function listBlocks(database: Database, options: { fromMs: number; toMs: number; vehicleId?: number }): Promise<Block[]> {
  let query = database.db
    .selectFrom('rental_bookings')
    .select(['id', 'vehicle_id', 'starts_ms', 'ends_ms', 'note', 'created_by'])
    .where('kind', '=', 'block')
    .where('starts_ms', '<', options.toMs)
    .where('ends_ms', '>', options.fromMs);
  if (options.vehicleId !== undefined) query = query.where('vehicle_id', '=', options.vehicleId);
  const rows = await query.orderBy('starts_ms').limit(2000).execute();
  return rows.map(toBlock);
}

/**
 * The desk blocks a car for a range (servicing, personal use). Refused when a booking (with
 * its turnaround buffer) or another block overlaps. Audit-logged.
 * Input: vehicle id, range, note (reason), actor email. Errors: InvalidInputError (range,
 * note too long), NotFoundError (not a fleet car), ConflictError (overlap).
 */
export async function addBlock(
  services: RentalServices,
  input: { vehicleId: number; fromMs: number; toMs: number; note: string; actorEmail: string },
): Promise<Block> {
  if (!(input.toMs > input.fromMs)) throw new InvalidInputError(t('blockEndAfterStart'), { to: t('blockEndAfterStart') });
  if (input.toMs - input.fromMs > 366 * DAY_MS) throw new InvalidInputError(t('blockMaxYear'), { to: t('blockMaxYear') });
  const note = input.note.trim();
  if (note.length > 200) throw new InvalidInputError(t('reasonTooLong', { max: 200 }), { note: t('reasonTooLong', { max: 200 }) });
  const car = await getFleetCar(services.database, input.vehicleId);
  if (!car) throw new NotFoundError(t('carNotFound'));
  const nowMs = services.clock.now();
  const now = new Date(nowMs).toISOString();
  const id = await withHoldLock(services.database, async (db) => {
    await releaseLapsedHolds(db, nowMs, input.vehicleId);
    const clashes = await overlappingHolds(db, { vehicleId: input.vehicleId, fromMs: input.fromMs, untilMs: input.toMs, nowMs });
    if (clashes.length > 0) throw new ConflictError(t('blockClash'));
    const row = await db
      .insertInto('rental_bookings')
      .values({
        kind: 'block',
        vehicle_id: input.vehicleId,
        user_id: null,
        status: 'blocked',
        starts_ms: input.fromMs,
        ends_ms: input.toMs,
        held_until_ms: input.toMs,
        note,
        created_by: input.actorEmail,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  });
  const block: Block = toBlock({ id, vehicle_id: input.vehicleId, starts_ms: input.fromMs, ends_ms: input.toMs, note, created_by: input.actorEmail });
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'create',
    entity: 'rental-block',
    entityId: id,
    summary: `Blocked ${car.name} from ${block.from} to ${block.to}${note ? ` (${note})` : ''}`,
    after: block,
  });
  return block;
}

/**
 * Removes a block (the car is free again then). Audit-logged.
 * Input: block id, actor email. Errors: NotFoundError.
 */
export async function removeBlock(services: RentalServices, input: { blockId: number; actorEmail: string }): Promise<void> {
  const row = await services.database.db
    .selectFrom('rental_bookings')
    .select(['id', 'vehicle_id', 'starts_ms', 'ends_ms', 'note', 'created_by'])
    .where('id', '=', input.blockId)
    .where('kind', '=', 'block')
    .executeTakeFirst();
  if (!row) throw new NotFoundError(t('blockNotFound'));
  await services.database.db.deleteFrom('rental_bookings').where('id', '=', input.blockId).where('kind', '=', 'block').execute();
  const block = toBlock(row);
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'delete',
    entity: 'rental-block',
    entityId: input.blockId,
    summary: `Removed the block from ${block.from} to ${block.to}`,
    before: block,
  });
}
