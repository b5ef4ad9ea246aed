import {
  cancellationRefund,
  HOUR_MS,
  returnCharges,
  type CancellationRefund,
  type DamageCharge,
  type ReturnCharges,
} from '../../app/features/rentals/rental-price.ts';
import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import type { ChecklistStage } from '../../app/features/rentals/rental-checklist.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Storage } from '../media/storage.ts';
import {
  checkChecklist,
  checkReading,
  deleteStoredPhotos,
  insertChecklist,
  storeChecklistPhotos,
  type ChecklistInput,
  type StoredPhoto,
} from './checklists.ts';
import { EARLY_HANDOVER_HOURS, formatIndiaDateTime, FUEL_EIGHTHS_MAX, type BookingStatus } from '../../app/features/rentals/rentals.ts';
import { formatPaise, isInPersonMethod, MAX_REFERENCE_LENGTH, rupeesToPaise, type InPersonMethod } from '../../app/lib/money.ts';
import type { HandoverMoney, SettlementMoney } from '../../app/features/rentals/rental-money.ts';
import { recordAudit } from '../audit/audit.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import { createBooking, getBooking, getOwnBooking, type NewBooking } from './bookings.ts';
import { licenceStatusFor } from './licences.ts';
import { notifyAdminOfBooking, notifyRenter, tellTeamOfRental, type RentalNotifyServices } from './notify.ts';
import { recordRefund, sendRefund, type RecordedRefund, type RefundReason } from './refunds.ts';
import { changeAndQueue } from '../notify/outgoing.ts';
import type { Database } from '../db/connection.ts';
import { notFreeMessage, overlappingHolds, releaseLapsedHolds, rentalSettings, withHoldLock, type Booking, type RentalServices } from './store.ts';
import { transition, type Actor } from '../transitions.ts';
import { BOOKING_TRANSITIONS, type BookingEvent } from './booking-transitions.ts';
import { invoiceContext, issueRentalInvoiceIn, queueRentalDocuments } from './rental-documents.ts';

/**
 * A booking's life after it is requested: the desk confirms or refuses it, hands the car over,
 * takes it back (the charges are computed), settles the deposit and closes it; the renter may
 * cancel (refund by the policy); holds nobody confirmed or paid lapse; a renter who never came
 * is a no-show. Each desk step is audit-logged and moves the status by a conditional update,
 * so two admins pressing the same button change it once.
 */

/**
 * What the lifecycle needs: the rental services, mail and SMS, the payment adapter (null: pay at
 * pickup only) and the private storage the handover and return photos go to.
 */
export type RentalDeskServices = RentalServices & RentalNotifyServices & { payments: PaymentGateway | null; privateStorage: Storage };

/** Money the desk took or gave in person, as it typed it: the amount in paise (null: left empty), how, and the reference. */
export type DeskMoneyInput = { amountPaise: number | null; method: string; reference: string };

/**
 * What the pages and the API call to book: createBooking (server/rentals/bookings.ts, same
 * input and errors), with the admin's new-booking mail (when notifications are on) queued in the
 * booking's own transaction (decision 069). An online booking (`paymentMethod: 'razorpay'`) is
 * then paid with startOnlinePayment.
 */
export async function requestBooking(services: RentalDeskServices, input: NewBooking): Promise<Booking> {
  if (input.paymentMethod === 'razorpay' && !services.payments)
    throw new InvalidInputError(t('onlineNotAvailableChoose'), { payment: t('onlineNotAvailable') });
  const settings = await rentalSettings(services);
  const booking = await createBooking(services, input, (db, saved) => notifyAdminOfBooking(db, services, settings, saved));
  services.jobs.wake();
  return booking;
}

/** The database as seen from inside a transaction (`db`), for the helpers that take a Database. */
function within(services: Pick<RentalServices, 'database'>, db: Kysely<DB>): Database {
  return { ...services.database, db };
}

async function mustGet(services: Pick<RentalServices, 'database'>, bookingId: number, db: Kysely<DB> = services.database.db): Promise<Booking> {
  const booking = await getBooking(within(services, db), bookingId);
  if (!booking) throw new NotFoundError(t('bookingNotFound'));
  return booking;
}

type StatusAction = 'confirmed' | 'refused' | 'handedOver' | 'returned' | 'settled' | 'cancelled' | 'noShow';

function wrongStatus(booking: Booking, action: StatusAction): ConflictError {
  return new ConflictError(t('wrongStatus', { id: booking.id, status: t(`statusWord_${booking.status}`), action: t(`statusAction_${action}`) }));
}

/** The status `event` by `by` takes the booking to (server/rentals/booking-transitions.ts); wrongStatus of `action` when the rules refuse it. */
function nextStatus(booking: Booking, event: BookingEvent, by: Actor, action: StatusAction): BookingStatus {
  const to = transition(BOOKING_TRANSITIONS, booking.status, event, by);
  if (to === null) throw wrongStatus(booking, action);
  return to;
}

/**
 * Moves a booking from `from` with `set`, only if it is still in `from` (another admin may have
 * moved it meanwhile): false when it was not.
 */
async function moveStatus(
  services: RentalServices,
  bookingId: number,
  from: BookingStatus,
  set: Record<string, unknown> & { status: BookingStatus },
  db: Kysely<DB> = services.database.db,
): Promise<boolean> {
  const result = await db
    .updateTable('rental_bookings')
    .set({ ...set, updated_at: new Date(services.clock.now()).toISOString() })
    .where('id', '=', bookingId)
    .where('kind', '=', 'booking')
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Writes down giving back `amount` rupees of what the booking was paid (server/rentals/refunds.ts),
 * in `db`, the transaction of the change: paid online, owed to the renter until the provider says
 * yes (`sendRefund` asks after the commit); paid at pickup, by the desk, recorded at once.
 * The deposit goes back the way it came: at the desk, unless an online payment included it
 * (bookings before decision 066).
 */
async function refundPaid(services: RentalDeskServices, db: Kysely<DB>, booking: Booking, amount: number, reason: RefundReason): Promise<RecordedRefund> {
  if (amount <= 0) return { outcome: 'none', owedId: null };
  const online = booking.paymentMethod === 'razorpay' && (reason !== 'deposit' || booking.quote.depositAt === 'online');
  const row = online ? await db.selectFrom('rental_bookings').select('payment_id').where('id', '=', booking.id).executeTakeFirst() : undefined;
  return recordRefund(db, services, { bookingId: booking.id, paymentId: row?.payment_id ?? null, amountPaise: rupeesToPaise(amount), reason, ofPaid: true });
}

/** The audit entry written in `db`, with the change it records. */
function auditIn(services: RentalDeskServices, db: Kysely<DB>, entry: Parameters<typeof recordAudit>[1]): Promise<void> {
  return recordAudit({ database: within(services, db), clock: services.clock }, entry);
}

/**
 * The desk confirms a requested booking: the renter's licence must be approved, an online
 * booking must be paid, and the car must still be free (checked again under the hold lock).
 * The renter's messages are queued with the change. Input: booking id, actor email. Errors:
 * NotFoundError, ConflictError (wrong status, licence not approved, unpaid, overlap).
 */
export async function confirmBooking(services: RentalDeskServices, input: { bookingId: number; actorEmail: string }): Promise<Booking> {
  const booking = await mustGet(services, input.bookingId);
  const to = nextStatus(booking, 'confirm', 'desk', 'confirmed');
  const licence = await licenceStatusFor(services.database, booking.userId);
  if (licence?.status !== 'approved') throw new ConflictError(t('licenceNotApprovedYet'));
  if (booking.paymentMethod === 'razorpay' && booking.amountPaid <= 0) throw new ConflictError(t('onlineNotPaid'));
  const settings = await rentalSettings(services);
  const nowMs = services.clock.now();
  const confirmed = await withHoldLock(services.database, async (db) => {
    await releaseLapsedHolds(db, nowMs, booking.vehicleId);
    const clashes = await overlappingHolds(db, {
      vehicleId: booking.vehicleId,
      fromMs: booking.fromMs,
      untilMs: booking.heldUntilMs,
      exceptId: booking.id,
      nowMs,
    });
    if (clashes.length > 0) throw new ConflictError(notFreeMessage());
    const moved = await db
      .updateTable('rental_bookings')
      .set({ status: to, hold_expires_ms: null, updated_at: new Date(nowMs).toISOString() })
      .where('id', '=', booking.id)
      .where('status', '=', booking.status)
      .executeTakeFirst();
    // Lapsed meanwhile (released above) or moved by another admin.
    if (Number(moved.numUpdatedRows) === 0) throw new ConflictError(t('noLongerWaiting'));
    const after = await mustGet(services, booking.id, db);
    await auditIn(services, db, {
      actorEmail: input.actorEmail,
      action: 'confirm',
      entity: 'rental-booking',
      entityId: booking.id,
      summary: `Confirmed booking #${booking.id} (${booking.carName})`,
      before: { status: booking.status },
      after: { status: after.status },
    });
    await notifyRenter(db, services, settings, 'confirmed', after);
    // The rental agreement is made once the confirmation is committed (decision 119).
    await queueRentalDocuments(db, booking.id, nowMs);
    return after;
  });
  services.jobs.wake();
  return confirmed;
}

/**
 * The desk refuses a requested booking with a reason the renter is told; anything paid online
 * is refunded in full (owed, and retried, while the provider fails: the refusal stands).
 * Input: booking id, reason, actor email. Errors: NotFoundError, ConflictError (not requested),
 * InvalidInputError (reason too long).
 */
export async function refuseBooking(services: RentalDeskServices, input: { bookingId: number; reason: string; actorEmail: string }): Promise<Booking> {
  const reason = input.reason.trim();
  if (reason.length > 300) throw new InvalidInputError(t('reasonTooLong', { max: 300 }), { reason: t('reasonTooLong', { max: 300 }) });
  const booking = await mustGet(services, input.bookingId);
  const to = nextStatus(booking, 'refuse', 'desk', 'refused');
  const settings = await rentalSettings(services);
  const refund = await changeAndQueue(services, async (trx) => {
    if (!(await moveStatus(services, booking.id, booking.status, { status: to, hold_expires_ms: null, note: reason }, trx)))
      throw wrongStatus(booking, 'refused');
    const recorded = await refundPaid(services, trx, booking, booking.amountPaid, 'refused');
    await auditIn(services, trx, {
      actorEmail: input.actorEmail,
      action: 'refuse',
      entity: 'rental-booking',
      entityId: booking.id,
      summary: `Refused booking #${booking.id} (${booking.carName})${reason ? `: ${reason}` : ''}`,
      before: { status: booking.status },
      after: { status: to, reason },
    });
    await notifyRenter(trx, services, settings, 'refused', await mustGet(services, booking.id, trx), { refund: booking.amountPaid });
    return recorded;
  });
  await sendRefund(services, refund);
  return mustGet(services, booking.id);
}

/**
 * Moves the booking with `set` and records the checklist (its photos already stored) in one
 * transaction; when the move fails (another admin was quicker) the photos are deleted again.
 */
async function moveWithChecklist(
  services: RentalDeskServices,
  booking: Booking,
  stage: ChecklistStage,
  reading: { odometer: number; fuel: number; photos: StoredPhoto[]; actorEmail: string },
  move: { set: Record<string, unknown> & { status: BookingStatus }; action: StatusAction },
): Promise<void> {
  const { photos } = reading;
  try {
    await services.database.db.transaction().execute(async (trx) => {
      if (!(await moveStatus(services, booking.id, booking.status, move.set, trx))) throw wrongStatus(booking, move.action);
      await insertChecklist(trx, {
        bookingId: booking.id,
        stage,
        odometer: reading.odometer,
        fuel: reading.fuel,
        photos,
        recordedBy: reading.actorEmail,
        nowIso: new Date(services.clock.now()).toISOString(),
      });
    });
  } catch (error) {
    await deleteStoredPhotos(services.privateStorage, photos);
    throw error;
  }
}

/**
 * How the desk says money moved in person: cash, UPI or card (chosen, with `chooseKey`'s words
 * when not), and the reference a UPI or card payment must carry (optional for cash).
 * `fields` names the form's fields for the messages beside them.
 */
function checkInPerson(
  money: DeskMoneyInput,
  fields: { method: string; reference: string },
  chooseKey: 'chooseHowPaid' | 'chooseHowReturned',
): { method: InPersonMethod; reference: string | null } {
  if (!isInPersonMethod(money.method)) throw new InvalidInputError(t(chooseKey), { [fields.method]: t(chooseKey) });
  const reference = money.reference.trim();
  if (reference.length > MAX_REFERENCE_LENGTH)
    throw new InvalidInputError(t('referenceTooLong', { max: MAX_REFERENCE_LENGTH }), {
      [fields.reference]: t('referenceTooLong', { max: MAX_REFERENCE_LENGTH }),
    });
  if (money.method !== 'cash' && !reference) {
    const message = t(money.method === 'upi' ? 'upiReferenceNeeded' : 'cardReferenceNeeded');
    throw new InvalidInputError(message, { [fields.reference]: message });
  }
  return { method: money.method, reference: reference || null };
}

/** A time the desk entered: not in the future, not before `earliestMs` (`tooEarly` says why, beside `field`). */
function checkDeskTime(
  services: RentalServices,
  timeMs: number | undefined,
  field: string,
  rule: { earliestMs: number; tooEarly: string; inFuture: string },
): number {
  const nowMs = services.clock.now();
  const value = timeMs ?? nowMs;
  if (!Number.isSafeInteger(value)) throw new InvalidInputError(rule.inFuture, { [field]: rule.inFuture });
  if (value > nowMs) throw new InvalidInputError(rule.inFuture, { [field]: rule.inFuture });
  if (value < rule.earliestMs) throw new InvalidInputError(rule.tooEarly, { [field]: rule.tooEarly });
  return value;
}

/**
 * What the desk collected at the handover: nothing due (everything paid online before) is
 * 'online'; otherwise what is due at pickup, in person, by the method the desk chose.
 */
function checkCollected(booking: Booking, collected: DeskMoneyInput | undefined): HandoverMoney {
  const duePaise = rupeesToPaise(booking.quote.dueAtPickup);
  if (duePaise === 0) return { paise: 0, method: 'online', reference: null };
  const money = collected ?? { amountPaise: null, method: '', reference: '' };
  if (money.amountPaise !== duePaise) {
    const message = money.amountPaise === null ? t('amountUnreadable') : t('collectedNotDue', { due: formatPaise(duePaise) });
    throw new InvalidInputError(message, { collectedAmount: message });
  }
  return { paise: duePaise, ...checkInPerson(money, { method: 'collectedMethod', reference: 'collectedReference' }, 'chooseHowPaid') };
}

/**
 * The desk hands the car over: confirmed → active, with the checklist (odometer, fuel level in
 * eighths, a photo of each side and of the dashboard, any damage noted with its photo), the time
 * it actually went out (now unless given; not in the future, not more than EARLY_HANDOVER_HOURS
 * before the booked pickup) and what was collected (the amount due at pickup, cash, UPI or card,
 * the UPI/card reference); nothing moves until every required item is there.
 * Input: booking id, odometerOut (km), fuelOut (0–8), checklist, handedOverMs, collected, actor
 * email. Errors: NotFoundError, InvalidInputError (per field), ConflictError (not confirmed).
 */
export async function handOver(
  services: RentalDeskServices,
  input: {
    bookingId: number;
    odometerOut: number;
    fuelOut: number;
    checklist: ChecklistInput;
    handedOverMs?: number | undefined;
    collected?: DeskMoneyInput;
    actorEmail: string;
  },
): Promise<Booking> {
  checkReading({ odometer: input.odometerOut, fuel: input.fuelOut }, { odometer: 'odometerOut', fuel: 'fuelOut' });
  checkChecklist('handover', input.checklist);
  const booking = await mustGet(services, input.bookingId);
  const to = nextStatus(booking, 'hand_over', 'desk', 'handedOver');
  const handedOverMs = checkDeskTime(services, input.handedOverMs, 'handedOverAt', {
    earliestMs: booking.fromMs - EARLY_HANDOVER_HOURS * HOUR_MS,
    tooEarly: t('handoverTooEarly', { hours: EARLY_HANDOVER_HOURS, pickup: formatIndiaDateTime(booking.fromMs) }),
    inFuture: t('handoverInFuture'),
  });
  const money = checkCollected(booking, input.collected);
  // What is due at pickup: the deposit, and the charges too when paying at pickup (decision 066).
  const collected = booking.amountPaid + booking.quote.dueAtPickup;
  const photos = await storeChecklistPhotos(services.privateStorage, 'handover', input.checklist);
  await moveWithChecklist(
    services,
    booking,
    'handover',
    { odometer: input.odometerOut, fuel: input.fuelOut, photos, actorEmail: input.actorEmail },
    {
      set: {
        status: to,
        odometer_out: input.odometerOut,
        fuel_out: input.fuelOut,
        amount_paid_paise: rupeesToPaise(collected),
        handed_over_ms: handedOverMs,
        handover_paise: money.paise,
        handover_method: money.method,
        handover_reference: money.reference,
      },
      action: 'handedOver',
    },
  );
  const active = await mustGet(services, booking.id);
  const damage = input.checklist.damage.length;
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'handover',
    entity: 'rental-booking',
    entityId: booking.id,
    summary: `Handed over ${booking.carName} for booking #${booking.id} at ${input.odometerOut} km, fuel ${input.fuelOut}/8, ${photos.length} photos${damage > 0 ? ` (${damage} damage noted)` : ''}; collected ${formatPaise(money.paise)} (${money.method})`,
    before: { status: booking.status },
    after: {
      status: to,
      odometerOut: input.odometerOut,
      fuelOut: input.fuelOut,
      handedOverAt: active.handedOverAt,
      collectedAtHandover: formatPaise(money.paise),
      collectedMethod: money.method,
      ...(money.reference ? { collectedReference: money.reference } : {}),
    },
  });
  return active;
}

export type ReturnInput = {
  bookingId: number;
  odometerIn: number;
  fuelIn: number;
  /** When the car came back (epoch ms); now when not given. */
  returnedMs?: number;
  /** The fuel shortfall in rupees as the desk entered it (0 when none). */
  fuelCharge: number;
  /** New damage and its charge, for the preview (returnCar takes them from the checklist). */
  damage?: Array<{ note: string; charge: number }>;
};

/**
 * The charges a return would bring, without saving anything: what the desk shows before
 * pressing Return. Input: ReturnInput. Errors: NotFoundError, InvalidInputError, ConflictError (not active).
 */
export async function previewReturn(services: RentalDeskServices, input: ReturnInput): Promise<ReturnCharges> {
  const booking = await mustGet(services, input.bookingId);
  nextStatus(booking, 'take_back', 'desk', 'returned');
  return chargesFor(
    services,
    booking,
    input,
    (input.damage ?? []).map((item) => ({ ...item, photoId: '' })),
  );
}

/**
 * When the car came back: now unless given; not in the future, not before it went out (bookings
 * handed over before the time was kept: the booked pickup less the early allowance).
 */
function checkReturnTime(services: RentalServices, booking: Booking, returnedMs: number | undefined): number {
  const outMs = booking.handedOverMs ?? booking.fromMs - EARLY_HANDOVER_HOURS * HOUR_MS;
  return checkDeskTime(services, returnedMs, 'returnedAt', {
    earliestMs: outMs,
    tooEarly: t('returnBeforeHandover', { when: formatIndiaDateTime(outMs) }),
    inFuture: t('returnInFuture'),
  });
}

async function chargesFor(services: RentalDeskServices, booking: Booking, input: ReturnInput, damage: DamageCharge[]): Promise<ReturnCharges> {
  checkReading({ odometer: input.odometerIn, fuel: input.fuelIn }, { odometer: 'odometerIn', fuel: 'fuelIn' });
  if (!Number.isSafeInteger(input.fuelCharge) || input.fuelCharge < 0 || input.fuelCharge > 1_000_000) {
    throw new InvalidInputError(t('fuelChargeWhole'), { fuelCharge: t('fuelChargeWhole') });
  }
  const fuelOut = booking.fuelOut ?? FUEL_EIGHTHS_MAX;
  if (input.fuelCharge > 0 && input.fuelIn >= fuelOut) {
    const message = t('noFuelShortfall', { fuelIn: input.fuelIn, fuelOut });
    throw new InvalidInputError(message, { fuelCharge: message });
  }
  const odometerOut = booking.odometerOut ?? 0;
  if (input.odometerIn < odometerOut)
    throw new InvalidInputError(t('odometerBelowHandover', { km: odometerOut }), { odometerIn: t('odometerBelowHandover', { km: odometerOut }) });
  const returnedMs = checkReturnTime(services, booking, input.returnedMs);
  const settings = await rentalSettings(services);
  return returnCharges({
    odometerOut,
    odometerIn: input.odometerIn,
    kmIncluded: booking.quote.kmIncluded,
    extraKmRate: booking.quote.extraKmRate,
    dueMs: booking.toMs,
    returnedMs,
    fuelCharge: input.fuelCharge,
    damage,
    deposit: booking.quote.deposit,
    rule: { graceHours: settings.rentalGraceHours, lateFeePerHour: settings.rentalLateFeePerHour },
  });
}

/**
 * The desk takes the car back: active → returned, with the return checklist (as at handover;
 * each damage marked new or already there, new damage priced by the desk) and the time in. The
 * charges (extra km, late hours past the grace, fuel, new damage) and the deposit refund are
 * computed and stored. The car is free again from the return (plus the buffer).
 * Input: ReturnInput + checklist + actor email. Errors: NotFoundError, InvalidInputError
 * (readings, missing or refused photos), ConflictError (not active).
 */
export async function returnCar(services: RentalDeskServices, input: ReturnInput & { checklist: ChecklistInput; actorEmail: string }): Promise<Booking> {
  checkChecklist('return', input.checklist);
  const booking = await mustGet(services, input.bookingId);
  const to = nextStatus(booking, 'take_back', 'desk', 'returned');
  // The charges are checked before any photo is stored; the damage's photo ids are known only once stored.
  await chargesFor(services, booking, input, []);
  const photos = await storeChecklistPhotos(services.privateStorage, 'return', input.checklist);
  const damage = photos
    .filter((photo) => photo.item === 'damage' && photo.isNew)
    .map((photo) => ({ note: photo.note, charge: photo.charge, photoId: photo.id }));
  const charges = await chargesFor(services, booking, input, damage).catch(async (error: unknown) => {
    await deleteStoredPhotos(services.privateStorage, photos);
    throw error;
  });
  const returnedMs = checkReturnTime(services, booking, input.returnedMs);
  await moveWithChecklist(
    services,
    booking,
    'return',
    { odometer: input.odometerIn, fuel: input.fuelIn, photos, actorEmail: input.actorEmail },
    {
      set: {
        status: to,
        odometer_in: input.odometerIn,
        fuel_in: input.fuelIn,
        returned_ms: returnedMs,
        charges: JSON.stringify(charges),
        deposit_refund_paise: rupeesToPaise(charges.depositRefund),
      },
      action: 'returned',
    },
  );
  const returned = await mustGet(services, booking.id);
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'return',
    entity: 'rental-booking',
    entityId: booking.id,
    summary: `Took back ${booking.carName} (booking #${booking.id}) at ${input.odometerIn} km; charges ₹${charges.total}`,
    before: { status: booking.status },
    after: { status: to, returnedAt: returned.returnedAt, charges },
  });
  return returned;
}

/**
 * How the money moves at the settlement: the deposit refund back the way the deposit came (through
 * the gateway when it was paid online, else in person by the desk's method), or the charges
 * beyond the deposit collected in person, or nothing.
 */
function checkSettlement(booking: Booking, refund: number, money: DeskMoneyInput | undefined): SettlementMoney {
  const owedPaise = rupeesToPaise(booking.charges?.amountDue ?? 0);
  if (owedPaise > 0 && refund > 0) throw new InvalidInputError(t('refundWithChargesDue'), { depositRefund: t('refundWithChargesDue') });
  const typed = money ?? { amountPaise: null, method: '', reference: '' };
  const fields = { method: 'settleMethod', reference: 'settleReference' };
  if (refund > 0) {
    if (booking.paymentMethod === 'razorpay' && booking.quote.depositAt === 'online')
      return { direction: 'returned', paise: rupeesToPaise(refund), method: 'online', reference: null };
    return { direction: 'returned', paise: rupeesToPaise(refund), ...checkInPerson(typed, fields, 'chooseHowReturned') };
  }
  if (owedPaise > 0) {
    if (typed.amountPaise !== owedPaise) {
      const message = typed.amountPaise === null ? t('amountUnreadable') : t('collectedNotOwed', { due: formatPaise(owedPaise) });
      throw new InvalidInputError(message, { settleAmount: message });
    }
    return { direction: 'collected', paise: owedPaise, ...checkInPerson(typed, fields, 'chooseHowPaid') };
  }
  return { direction: 'none', paise: 0, method: null, reference: null };
}

/**
 * The desk settles the deposit: returned → closed. The refund is the computed one unless the
 * desk enters another (no more than the deposit, and none when the charges exceed it); paid
 * online, it goes back through the adapter (owed, and retried, while it fails: the booking closes
 * either way); paid in person, the desk gives it back by cash, UPI or card (`money`: how, and the
 * reference). Charges beyond the deposit are collected the same way (`money`: the amount too).
 * The renter gets the closing statement, worded by how the money moved.
 * Input: booking id, optional depositRefund (rupees), money, actor email. Errors: NotFoundError,
 * InvalidInputError (per field), ConflictError (not returned).
 */
export async function settleDeposit(
  services: RentalDeskServices,
  input: { bookingId: number; depositRefund?: number; money?: DeskMoneyInput; actorEmail: string },
): Promise<Booking> {
  const booking = await mustGet(services, input.bookingId);
  const to = nextStatus(booking, 'settle', 'desk', 'settled');
  const refund = input.depositRefund ?? booking.depositRefund ?? 0;
  if (!Number.isSafeInteger(refund) || refund < 0 || refund > booking.quote.deposit) {
    throw new InvalidInputError(t('depositRefundRange', { deposit: booking.quote.deposit }), { depositRefund: t('depositRefundRangeShort') });
  }
  const settlement = checkSettlement(booking, refund, input.money);
  const settings = await rentalSettings(services);
  const invoicing = await invoiceContext(services, booking);
  const recorded = await changeAndQueue(services, async (trx) => {
    // Closed first, so a second press cannot refund twice.
    const set = {
      status: to,
      deposit_refund_paise: rupeesToPaise(refund),
      settle_direction: settlement.direction,
      settle_paise: settlement.paise,
      settle_method: settlement.method,
      settle_reference: settlement.reference,
    };
    if (!(await moveStatus(services, booking.id, booking.status, set, trx))) throw wrongStatus(booking, 'settled');
    // The charges are final: the tax invoice takes its number with the settlement (decision 119).
    const invoice = await issueRentalInvoiceIn(trx, { booking, context: invoicing, depositReturned: refund, nowMs: services.clock.now() });
    const owed = await refundPaid(services, trx, booking, refund, 'deposit');
    const moved =
      settlement.direction === 'none'
        ? {}
        : {
            [settlement.direction === 'returned' ? 'moneyReturned' : 'moneyCollected']: formatPaise(settlement.paise),
            settleMethod: settlement.method,
            ...(settlement.reference ? { settleReference: settlement.reference } : {}),
          };
    await auditIn(services, trx, {
      actorEmail: input.actorEmail,
      action: 'settle',
      entity: 'rental-booking',
      entityId: booking.id,
      summary: `Settled booking #${booking.id}: deposit refund ₹${refund}${settlement.direction === 'collected' ? `, collected ${formatPaise(settlement.paise)}` : ''}${settlement.method ? ` (${settlement.method})` : ''}`,
      before: { status: booking.status },
      after: { status: to, depositRefund: refund, ...moved, ...(invoice ? { invoiceNumber: invoice.number } : { invoiceWithheld: 'dealer-gstin-missing' }) },
    });
    await notifyRenter(trx, services, settings, 'closed', await mustGet(services, booking.id, trx));
    return owed;
  });
  await sendRefund(services, recorded);
  return mustGet(services, booking.id);
}

/**
 * What cancelling this booking now would give back, for the Cancel button to show first.
 * Input: user id, booking id. Errors: NotFoundError (not theirs), ConflictError (cannot be cancelled).
 */
export async function cancellationPreview(services: RentalServices, input: { userId: string; bookingId: number }): Promise<CancellationRefund> {
  const booking = await getOwnBooking(services.database, input.userId, input.bookingId);
  nextStatus(booking, 'cancel', 'customer', 'cancelled');
  return refundFor(services, booking);
}

async function refundFor(services: RentalServices, booking: Booking): Promise<CancellationRefund> {
  const settings = await rentalSettings(services);
  return cancellationRefund(
    {
      rent: booking.quote.rent,
      total: booking.quote.total,
      gstPercent: booking.quote.gstPercent,
      dailyRate: booking.terms.dailyRate,
      pickupMs: booking.fromMs,
      paid: booking.amountPaid,
      pickedUp: false,
    },
    services.clock.now(),
    { freeCancelHours: settings.rentalFreeCancelHours, lateCancelKeepDays: settings.rentalLateCancelKeepDays },
  );
}

/**
 * The renter cancels a requested or confirmed booking (a car already handed over cannot be
 * cancelled): the refund follows the policy (cancellationRefund: free until the settings' hours
 * before pickup, then days of rent and their GST kept) and goes
 * back through the adapter when paid online (owed, and retried, while it fails: the booking is
 * cancelled either way). The renter is told.
 * Input: user id, booking id. Errors: NotFoundError (not theirs), ConflictError (status).
 */
export async function cancelBooking(
  services: RentalDeskServices,
  input: { userId: string; bookingId: number },
): Promise<{ booking: Booking; refund: CancellationRefund }> {
  const booking = await getOwnBooking(services.database, input.userId, input.bookingId);
  const to = nextStatus(booking, 'cancel', 'customer', 'cancelled');
  const refund = await refundFor(services, booking);
  const settings = await rentalSettings(services);
  const recorded = await changeAndQueue(services, async (trx) => {
    if (!(await moveStatus(services, booking.id, booking.status, { status: to, hold_expires_ms: null }, trx))) throw wrongStatus(booking, 'cancelled');
    const owed = await refundPaid(services, trx, booking, refund.refund, 'cancelled');
    const cancelled = await mustGet(services, booking.id, trx);
    await notifyRenter(trx, services, settings, 'cancelled', cancelled, { refund: refund.refund });
    await tellTeamOfRental(trx, services, settings, cancelled, 'teamRentalCancelled');
    return owed;
  });
  await sendRefund(services, recorded);
  return { booking: await mustGet(services, booking.id), refund };
}

/**
 * The desk marks a confirmed booking whose renter never came (after the pickup time): the rent
 * is kept, the deposit (if paid) comes back. Input: booking id, actor email. Errors:
 * NotFoundError, ConflictError (not confirmed, or the pickup time has not come).
 */
export async function markNoShow(services: RentalDeskServices, input: { bookingId: number; actorEmail: string }): Promise<Booking> {
  const booking = await mustGet(services, input.bookingId);
  const to = nextStatus(booking, 'mark_no_show', 'desk', 'noShow');
  if (services.clock.now() < booking.fromMs) throw new ConflictError(t('pickupNotYet'));
  // A no-show keeps what a cancel at the pickup time would keep.
  const refund = await refundFor(services, booking);
  const recorded = await services.database.db.transaction().execute(async (trx) => {
    if (!(await moveStatus(services, booking.id, booking.status, { status: to }, trx))) throw wrongStatus(booking, 'noShow');
    const owed = await refundPaid(services, trx, booking, refund.refund, 'no-show');
    await auditIn(services, trx, {
      actorEmail: input.actorEmail,
      action: 'no-show',
      entity: 'rental-booking',
      entityId: booking.id,
      summary: `Booking #${booking.id} marked a no-show; refund ₹${refund.refund}`,
      before: { status: booking.status },
      after: { status: to },
    });
    return owed;
  });
  await sendRefund(services, recorded);
  return mustGet(services, booking.id);
}

/**
 * Lets every lapsed hold go (unpaid online bookings after 30 minutes, unconfirmed
 * pay-at-pickup ones after 24 hours): they become `expired`. Safe on several instances at once.
 * Returns how many expired. Errors: none of its own.
 */
export async function expireHolds(services: Pick<RentalServices, 'database' | 'clock'>): Promise<number> {
  return releaseLapsedHolds(services.database.db, services.clock.now());
}

/**
 * Sends the day-before reminder of every confirmed booking whose pickup is within the next 24
 * hours and not yet reminded. Each booking is claimed by a conditional update, so two instances
 * never both send it, in the transaction that queues its messages: a booking is marked reminded
 * only with its reminder queued. Returns how many were sent.
 */
export async function sendDueReminders(services: RentalDeskServices): Promise<number> {
  const nowMs = services.clock.now();
  const due = await services.database.db
    .selectFrom('rental_bookings')
    .select('id')
    .where('kind', '=', 'booking')
    .where('status', '=', 'confirmed')
    .where('reminder_sent_at', 'is', null)
    .where('starts_ms', '>', nowMs)
    .where('starts_ms', '<=', nowMs + 24 * HOUR_MS)
    .limit(200)
    .execute();
  const settings = await rentalSettings(services);
  let sent = 0;
  for (const { id } of due) {
    const claimed = await services.database.db.transaction().execute(async (trx) => {
      const claim = await trx
        .updateTable('rental_bookings')
        .set({ reminder_sent_at: new Date(nowMs).toISOString() })
        .where('id', '=', id)
        .where('reminder_sent_at', 'is', null)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) === 0) return false;
      await notifyRenter(trx, services, settings, 'reminder', await mustGet(services, Number(id), trx));
      return true;
    });
    if (claimed) sent += 1;
  }
  if (sent > 0) services.jobs.wake();
  return sent;
}

/** How often the rental jobs (expiry, reminders, owed refunds) run, and how soon after start. */
export const RENTAL_JOBS_INTERVAL_MS = 60 * 1000;
