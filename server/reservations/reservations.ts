import { sql, type Transaction } from 'kysely';
import { formatRupees } from '../../app/lib/format.ts';
import { RESERVATION_PAY_WINDOW_MS, reservationMessages as messages } from '../../app/features/reservations/reservations.ts';
import { reservationText as t } from '../../app/features/reservations/reservation-texts.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { recordAudit } from '../audit/audit.ts';
import { settingsFor, type Settings } from '../admin/settings.ts';
import { bookingContact, getProfile, hasVerifiedPhone } from '../accounts/profiles.ts';
import type { CarReservationStatus, DB } from '../db/schema.ts';
import { brokenUniqueRule } from '../db/unique-rules.ts';
import { CannotBookYetError, ConflictError, InvalidInputError, NotFoundError, RateLimitedError, UpstreamError } from '../errors.ts';
import { confirmCheckout } from '../payments/checkout.ts';
import { PaymentError } from '../payments/gateway.ts';
import { acceptedPaise, recordCharge, settleOnce, settlementOf, type ProvenPayment } from '../payments/ledger.ts';
import { attemptOwedRefund, writeOwedRefund } from '../payments/refunds.ts';
import { formatPaise, rupeesToPaise } from '../../app/lib/money.ts';
import { consumeRateLimit, rateLimits } from '../security/rate-limit.ts';
import type { AppServices } from '../services.ts';
import { queueBuyerMessages, queueDealerMessages, type ReservationMessageKind } from './notify.ts';
import { issueTokenReceipt } from './token-receipt.ts';
import { bulkMove, transition, type Actor } from '../transitions.ts';
import { RESERVATION_TRANSITIONS, type ReservationEvent } from './reservation-transitions.ts';
import type { ReservationStatus } from '../../app/features/reservations/reservations.ts';
import { findOwnReservation, findReservation, reservationQuery, toDeskReservation, toReservation, type DeskReservation, type Reservation } from './store.ts';

/**
 * Reserving a car for sale with a refundable token (docs/decisions/080). The database keeps one
 * live reservation per car (migration 024's partial unique index): starting one inserts a
 * `pending` row and creates its Razorpay order; the payment, proven by Checkout's signature or
 * the signed webhook and exactly the token in rupees, makes it `active` and the car `reserved`
 * for the hold. Cancel, expiry and the desk's cancel give the token back through the payments'
 * one refund path (server/payments/refunds.ts, decisions 050 and 106). A payment that cannot reserve (someone else holds the car,
 * the car was sold meanwhile) is refunded at once and the buyer told.
 */

export type ReservationServices = Pick<
  AppServices,
  'database' | 'clock' | 'config' | 'settingsCache' | 'mailer' | 'logger' | 'jobs' | 'payments' | 'pageCache' | 'listingTotals' | 'changeNotices'
>;

const HOUR_MS = 60 * 60 * 1000;

/** A reservation as the payments ledger names it (server/payments/ledger.ts). */
const reservationOwner = (id: number) => ({ kind: 'reservation', id }) as const;

/** What the browser needs to open Checkout for a reservation. */
export type ReservationCheckout = { provider: 'razorpay'; keyId: string; orderId: string; amount: number; currency: 'INR'; reservationId: number };

/** Whether an insert or update failed on "one live reservation per car". */
export function isLiveReservationClash(error: unknown): boolean {
  return brokenUniqueRule(error, 'car_reservations', { live: { constraint: 'car_reservations_live_uq', column: 'vehicle_id' } }) !== null;
}

/** The car's status changed: public pages and listing counts, here and on the other instances, show it at once. */
async function carChanged(services: ReservationServices): Promise<void> {
  services.pageCache.clear();
  services.listingTotals.clear();
  await services.changeNotices.announce().catch((error: unknown) => services.logger.warn({ err: error }, 'change notices: could not tell the other instances'));
}

/** `language`: the buyer's own request's; without it the buyer's messages go in their own language (notify.ts). */
async function queueAll(
  trx: Transaction<DB>,
  services: ReservationServices,
  kind: ReservationMessageKind,
  id: number,
  settings?: Settings,
  language?: Language,
): Promise<void> {
  const row = await reservationQuery(trx).where('car_reservations.id', '=', id).executeTakeFirstOrThrow();
  const reservation = toDeskReservation(row);
  await queueBuyerMessages(trx, services, kind, reservation, language);
  if (settings && kind !== 'taken') await queueDealerMessages(trx, services, settings, reservation, kind);
}

/**
 * Lets go what no longer holds a car: pending reservations whose payment window passed lapse
 * (nothing was paid), and active ones whose hold ended expire (the car is listed again, the token
 * refunded once, the buyer told). `vehicleId` limits it to one car (a start looks first).
 * Returns how many expired.
 */
export async function expireDueReservations(services: ReservationServices, options: { vehicleId?: number } = {}): Promise<number> {
  const nowMs = services.clock.now();
  const nowIso = new Date(nowMs).toISOString();
  const lapsed = bulkMove(RESERVATION_TRANSITIONS, 'lapse', 'system');
  let lapse = services.database.db
    .updateTable('car_reservations')
    .set({ status: lapsed.to, ended_at: nowIso, updated_at: nowIso })
    .where('status', 'in', lapsed.from)
    .where('pay_by_ms', '<=', nowMs);
  if (options.vehicleId !== undefined) lapse = lapse.where('vehicle_id', '=', options.vehicleId);
  await lapse.execute();
  const expire = { event: 'expire', by: 'system', ...bulkMove(RESERVATION_TRANSITIONS, 'expire', 'system') } as const;
  let due = services.database.db.selectFrom('car_reservations').select('id').where('status', 'in', expire.from).where('held_until_ms', '<=', nowMs);
  if (options.vehicleId !== undefined) due = due.where('vehicle_id', '=', options.vehicleId);
  let expired = 0;
  for (const { id } of await due.orderBy('id').limit(50).execute()) {
    if (await endReservation(services, Number(id), expire)) expired += 1;
  }
  if (expired > 0) await carChanged(services);
  return expired;
}

/**
 * Ends an active reservation (cancelled by the buyer or the desk, or expired): the car is
 * available again, the messages queued in the same transaction, then the token refunded once
 * (owed, and retried, if the provider fails). False when it was no longer active.
 */
async function endReservation(
  services: ReservationServices,
  id: number,
  end: { event: 'cancel' | 'expire'; by: Actor; from: readonly ReservationStatus[]; to: ReservationStatus },
  options: { language?: Language } = {},
): Promise<boolean> {
  const { language } = options;
  // What the buyer and the desk are told, and why the token is refunded.
  const how: 'cancelled' | 'expired' = end.event === 'expire' ? 'expired' : 'cancelled';
  // The desk hears of every hold that ends without it: a buyer's cancel, an expiry. Not of its own cancel.
  const tellDesk = end.by === 'desk' ? undefined : await settingsFor(services);
  const nowMs = services.clock.now();
  const nowIso = new Date(nowMs).toISOString();
  const ended = await services.database.db.transaction().execute(async (trx) => {
    let update = trx
      .updateTable('car_reservations')
      .set({ status: end.to, ended_at: nowIso, updated_at: nowIso })
      .where('id', '=', id)
      .where('status', 'in', [...end.from]);
    if (end.event === 'expire') update = update.where('held_until_ms', '<=', nowMs);
    const row = await update.returning(['vehicle_id', 'payment_id', 'amount_paise']).executeTakeFirst();
    if (!row) return null;
    if (row.vehicle_id !== null)
      await trx
        .updateTable('vehicles')
        .set({ status: 'available', updated_at: nowIso })
        .where('id', '=', Number(row.vehicle_id))
        .where('status', '=', 'reserved')
        .execute();
    await queueAll(trx, services, how, id, tellDesk, language);
    // Owed in the same transaction: a crash after it commits leaves the refund to the retry job.
    return {
      refundId: row.payment_id
        ? await writeOwedRefund(
            trx,
            reservationOwner(id),
            { paymentId: row.payment_id, amountPaise: Number(row.amount_paise), reason: how, ofPaid: true },
            nowIso,
          )
        : null,
    };
  });
  if (!ended) return false;
  services.jobs.wake();
  if (ended.refundId !== null) await attemptOwedRefund(services, ended.refundId);
  return true;
}

/**
 * Starts reserving a car for the signed-in buyer: a for-sale car that is available, a verified
 * phone, online payment configured. Inserts the pending reservation (the database refuses a
 * second live one for the car: 409 before anyone pays) and creates its Razorpay order. The same
 * buyer starting again while their own is pending gets the same order back.
 * Errors: NotFoundError, ConflictError (`reason` reserved), CannotBookYetError (phone),
 * InvalidInputError (no online payment), RateLimitedError, UpstreamError (Razorpay).
 */
export async function startReservation(services: ReservationServices, input: { userId: string; vehicleId: number }): Promise<ReservationCheckout> {
  const payments = services.payments;
  const profile = await getProfile(services.database, input.userId);
  if (!profile || !hasVerifiedPhone(profile)) throw new CannotBookYetError('phone', messages.verifyPhoneFirst);
  const limit = await consumeRateLimit(services.database, { key: `reservation:${input.userId}`, ...rateLimits.testDriveChange, now: services.clock.now() });
  if (!limit.allowed) throw new RateLimitedError(messages.tooMany, limit.retryAfterSeconds);
  const vehicle = await services.database.db
    .selectFrom('vehicles')
    .select(['id', 'name', 'status', 'purpose'])
    .where('id', '=', input.vehicleId)
    .executeTakeFirst();
  if (!vehicle || vehicle.purpose !== 'sale') throw new NotFoundError(messages.notForSale);
  await expireDueReservations(services, { vehicleId: vehicle.id });
  const own = await reservationQuery(services.database.db)
    .where('car_reservations.vehicle_id', '=', vehicle.id)
    .where('car_reservations.user_id', '=', input.userId)
    .where('car_reservations.status', '=', 'pending')
    .executeTakeFirst();
  if (own?.payment_order_id && payments)
    return {
      provider: 'razorpay',
      keyId: payments.keyId,
      orderId: own.payment_order_id,
      amount: Number(own.amount_paise),
      currency: 'INR',
      reservationId: Number(own.id),
    };
  const current = await services.database.db.selectFrom('vehicles').select('status').where('id', '=', vehicle.id).executeTakeFirst();
  // A draft (decision 084) is not public: not found, as a sold car is.
  if (current?.status === 'sold' || current?.status === 'draft') throw new NotFoundError(messages.notForSale);
  if (current?.status !== 'available') throw new ConflictError(messages.taken).because('reserved');
  if (!payments) throw new InvalidInputError(messages.noOnlinePayment);
  const settings = await settingsFor(services);
  const contact = await bookingContact(services.database, profile);
  const nowMs = services.clock.now();
  const nowIso = new Date(nowMs).toISOString();
  const amountPaise = rupeesToPaise(settings.reservationAmount);
  let id: number;
  try {
    const inserted = await services.database.db
      .insertInto('car_reservations')
      .values({
        user_id: input.userId,
        vehicle_id: vehicle.id,
        vehicle_title: vehicle.name,
        ...contact,
        amount_paise: amountPaise,
        hold_hours: settings.reservationHoldHours,
        status: 'pending',
        payment_order_id: null,
        payment_id: null,
        payment_problem: null,
        pay_by_ms: nowMs + RESERVATION_PAY_WINDOW_MS,
        held_until_ms: null,
        sale_price: null,
        paid_at: null,
        ended_at: null,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = Number(inserted.id);
  } catch (error) {
    if (isLiveReservationClash(error)) throw new ConflictError(messages.taken).because('reserved');
    throw error;
  }
  let orderId: string;
  try {
    const order = await payments.createOrder({ amountPaise, receipt: `reservation-${id}`, notes: { reservation: String(id), vehicle: String(vehicle.id) } });
    if (order.amountPaise !== amountPaise) throw new PaymentError('The payment order came back with another amount.', 'amount_mismatch', undefined);
    orderId = order.orderId;
  } catch (error) {
    // No order, no payment: the car is free again at once.
    const lapse = bulkMove(RESERVATION_TRANSITIONS, 'lapse', 'system');
    await services.database.db
      .updateTable('car_reservations')
      .set({ status: lapse.to, ended_at: nowIso, updated_at: nowIso })
      .where('id', '=', id)
      .where('status', 'in', lapse.from)
      .execute();
    if (!(error instanceof PaymentError)) throw error;
    services.logger.warn({ err: error, reservation: id }, 'reservations: Razorpay did not create the order');
    throw new UpstreamError(t('orderFailed'));
  }
  // The reservation's charge in the ledger is how the webhook finds it.
  await services.database.db.transaction().execute(async (trx) => {
    await trx.updateTable('car_reservations').set({ payment_order_id: orderId, updated_at: nowIso }).where('id', '=', id).execute();
    await recordCharge(trx, reservationOwner(id), { orderId, amountPaise }, nowIso);
  });
  return { provider: 'razorpay', keyId: payments.keyId, orderId, amount: amountPaise, currency: 'INR', reservationId: id };
}

export type ReservationPaymentOutcome = 'reserved' | 'repeat' | 'taken' | 'not-accepted';

/** A payment that cannot reserve the car (it failed to make the reservation active) */
class NotReserving extends Error {}

/** A settlement the ledger refused: the payment was settled before, by another call (its transaction is rolled back). */
class SettledBefore extends Error {}

/**
 * Records a verified payment of a reservation's order, with what the provider says was paid.
 * Exactly the token in rupees, for a reservation still waiting (or lapsed while the car stayed
 * free): the reservation is active, the car reserved, the buyer and the dealer told, in one
 * transaction. Another amount or currency, or a second payment: noted and refunded, nothing
 * reserved. The car taken meanwhile (another live reservation, or no longer available): the
 * buyer is told and refunded at once. A repeat changes nothing. Null: no reservation has this order.
 */
export async function recordReservationPayment(
  services: ReservationServices,
  input: ProvenPayment,
  language?: Language,
): Promise<{ reservation: Reservation; outcome: ReservationPaymentOutcome } | null> {
  const db = services.database.db;
  const row = await db
    .selectFrom('car_reservations')
    .select(['id', 'payment_id', 'amount_paise', 'hold_hours', 'vehicle_id', 'status'])
    .where('payment_order_id', '=', input.orderId)
    .executeTakeFirst();
  if (!row) return null;
  const id = Number(row.id);
  const current = async () => toReservation(await reservationQuery(db).where('car_reservations.id', '=', id).executeTakeFirstOrThrow());
  const owner = reservationOwner(id);
  if ((await settlementOf(db, input.paymentId)) !== null) return { reservation: await current(), outcome: 'repeat' };
  const nowMs = services.clock.now();
  const nowIso = new Date(nowMs).toISOString();
  const owedPaise = Number(row.amount_paise);
  const received = `Payment ${input.paymentId} of ${formatPaise(input.amountPaise, input.currency)}`;
  const problem = row.payment_id
    ? `${received} came after the reservation was already paid (${row.payment_id}); not accepted, it is refunded.`
    : input.currency !== 'INR' || input.amountPaise !== owedPaise
      ? `${received} is not the ${formatPaise(owedPaise)} token; not accepted, it is refunded.`
      : null;
  if (problem) {
    let refundId: number | null;
    try {
      refundId = await db.transaction().execute(async (trx) => {
        if (!(await settleOnce(trx, owner, input, 'not accepted', nowIso))) throw new SettledBefore();
        await trx.updateTable('car_reservations').set({ payment_problem: problem, updated_at: nowIso }).where('id', '=', id).execute();
        return writeOwedRefund(
          trx,
          owner,
          { paymentId: input.paymentId, amountPaise: input.amountPaise, currency: input.currency, reason: 'not accepted', ofPaid: false },
          nowIso,
        );
      });
    } catch (error) {
      if (error instanceof SettledBefore) return { reservation: await current(), outcome: 'repeat' };
      throw error;
    }
    services.logger.warn(
      { reservation: id, payment: input.paymentId, amountPaise: input.amountPaise, currency: input.currency },
      'reservations: a payment did not match its reservation; not accepted, refunded',
    );
    if (refundId !== null) await attemptOwedRefund(services, refundId);
    return { reservation: await current(), outcome: 'not-accepted' };
  }
  const settings = await settingsFor(services);
  const pay = bulkMove(RESERVATION_TRANSITIONS, 'pay', 'gateway');
  try {
    await db.transaction().execute(async (trx) => {
      const made = await trx
        .updateTable('car_reservations')
        .set({
          status: pay.to,
          payment_id: input.paymentId,
          paid_at: nowIso,
          held_until_ms: nowMs + Number(row.hold_hours) * HOUR_MS,
          ended_at: null,
          updated_at: nowIso,
        })
        .where('id', '=', id)
        .where('payment_id', 'is', null)
        .where('status', 'in', pay.from)
        .returning('vehicle_id')
        .executeTakeFirst();
      if (!made) throw new NotReserving();
      const car =
        made.vehicle_id === null
          ? undefined
          : await trx
              .updateTable('vehicles')
              .set({ status: 'reserved', updated_at: nowIso })
              .where('id', '=', Number(made.vehicle_id))
              .where('status', '=', 'available')
              .where('purpose', '=', 'sale')
              .executeTakeFirst();
      if (!car || Number(car.numUpdatedRows) === 0) throw new NotReserving();
      if (!(await settleOnce(trx, owner, input, 'accepted', nowIso))) throw new SettledBefore();
      // The token is an advance on the sale: its receipt voucher is numbered with the payment (decision 122).
      await issueTokenReceipt(trx, { reservationId: id, nowMs });
      await queueAll(trx, services, 'reserved', id, settings, language);
    });
    services.jobs.wake();
    await carChanged(services);
    return { reservation: await current(), outcome: 'reserved' };
  } catch (error) {
    if (error instanceof SettledBefore) return { reservation: await current(), outcome: 'repeat' };
    if (!(error instanceof NotReserving) && !isLiveReservationClash(error)) throw error;
  }
  // The car is someone else's now (or sold), or the reservation ended before the money came.
  const lose = bulkMove(RESERVATION_TRANSITIONS, 'taken', 'gateway');
  const settle = async () =>
    db.transaction().execute(async (trx) => {
      const noted = await trx
        .updateTable('car_reservations')
        .set(() => ({
          payment_id: input.paymentId,
          // Decided by the row as it is now, not as read above: a lapse or cancel may have come between.
          status: sql<CarReservationStatus>`CASE WHEN status IN (${sql.join(lose.from.map((from) => sql.lit(from)))}) THEN ${sql.lit(lose.to)} ELSE status END`,
          payment_problem: `${received} arrived when the car could no longer be reserved; refunded.`,
          ended_at: nowIso,
          updated_at: nowIso,
        }))
        .where('id', '=', id)
        .where('payment_id', 'is', null)
        .executeTakeFirst();
      if (Number(noted.numUpdatedRows) === 0) return null;
      if (!(await settleOnce(trx, owner, input, 'taken', nowIso))) throw new SettledBefore();
      await queueAll(trx, services, 'taken', id, undefined, language);
      return {
        refundId: await writeOwedRefund(
          trx,
          owner,
          { paymentId: input.paymentId, amountPaise: input.amountPaise, currency: input.currency, reason: 'taken', ofPaid: true },
          nowIso,
        ),
      };
    });
  let taken: Awaited<ReturnType<typeof settle>>;
  try {
    taken = await settle();
  } catch (error) {
    if (error instanceof SettledBefore) return { reservation: await current(), outcome: 'repeat' };
    throw error;
  }
  if (!taken) {
    // Another call recorded a payment meanwhile: this one again, or a second payment.
    const latest = await db.selectFrom('car_reservations').select('payment_id').where('id', '=', id).executeTakeFirst();
    if (latest?.payment_id !== input.paymentId) return recordReservationPayment(services, input, language);
    return { reservation: await current(), outcome: 'repeat' };
  }
  services.jobs.wake();
  if (taken.refundId !== null) await attemptOwedRefund(services, taken.refundId);
  services.logger.info({ reservation: id }, 'reservations: a payment for a car reserved by someone else is refunded');
  return { reservation: await current(), outcome: 'taken' };
}

/**
 * Checkout's callback: the signature must be Razorpay's for this person's reservation's order;
 * what was paid is asked of Razorpay, never taken from the browser (decision 051). A replay of
 * the same proven payment returns the reservation as it is.
 * Errors: NotFoundError, ForbiddenError (forged or another order), InvalidInputError, ConflictError
 * (not the token, the car taken first, not captured yet), UpstreamError.
 */
export async function confirmReservationPayment(
  services: ReservationServices,
  input: { userId: string; reservationId: number; orderId: string; paymentId: string; signature: string },
): Promise<Reservation> {
  const reservation = await findOwnReservation(services.database, input.userId, input.reservationId);
  const row = await services.database.db.selectFrom('car_reservations').select('payment_order_id').where('id', '=', reservation.id).executeTakeFirstOrThrow();
  const texts = {
    notConfigured: messages.noOnlinePayment,
    fieldsRequired: 'razorpay_order_id, razorpay_payment_id and razorpay_signature are required.',
    notThisOrder: t('notThisReservation'),
    notVerified: t('notVerified'),
    checkFailed: t('checkFailed'),
    notCaptured: t('notCaptured'),
  };
  const recorded = await confirmCheckout(
    services,
    {
      owner: reservationOwner(reservation.id),
      ownOrderId: row.payment_order_id,
      answer: { orderId: input.orderId, paymentId: input.paymentId, signature: input.signature },
      texts,
    },
    async (payment) => (await recordReservationPayment(services, payment, currentLanguage()))!,
  );
  const settled = await settlementOf(services.database.db, input.paymentId);
  if (recorded.outcome === 'not-accepted' || settled === 'not accepted') throw new ConflictError(messages.paymentNotAccepted).because('payment-not-accepted');
  if (recorded.outcome === 'taken' || settled === 'taken') throw new ConflictError(messages.takenAfterPayment).because('reserved');
  return recorded.reservation;
}

/** A page of the buyer's reservations, newest first (unpaid attempts left out), and how many there are. */
export async function listOwnReservations(
  services: Pick<ReservationServices, 'database'>,
  userId: string,
  options: { page?: number; perPage?: number } = {},
): Promise<{ items: Reservation[]; total: number }> {
  const perPage = Math.min(options.perPage ?? 20, 50);
  const page = Math.max(1, options.page ?? 1);
  const mine = (query: ReturnType<typeof reservationQuery>) =>
    query.where('car_reservations.user_id', '=', userId).where('car_reservations.status', '<>', 'lapsed');
  const rows = await mine(reservationQuery(services.database.db))
    .orderBy('car_reservations.id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  const count = await services.database.db
    .selectFrom('car_reservations')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('user_id', '=', userId)
    .where('status', '<>', 'lapsed')
    .executeTakeFirst();
  return { items: rows.map(toReservation), total: Number(count?.count ?? 0) };
}

/**
 * The buyer cancels their active reservation: the car is listed again and the token refunded in
 * full, once. A pending one (not paid) simply lapses. Errors: NotFoundError, ConflictError.
 */
export async function cancelOwnReservation(
  services: ReservationServices,
  input: { userId: string; reservationId: number },
): Promise<{ reservation: Reservation; refund: number }> {
  const reservation = await findOwnReservation(services.database, input.userId, input.reservationId);
  const to = transition(RESERVATION_TRANSITIONS, reservation.status, 'cancel', 'customer');
  if (to === 'lapsed') {
    // Nothing paid yet: it simply lapses, unless the payment came in meanwhile.
    const nowIso = new Date(services.clock.now()).toISOString();
    await services.database.db
      .updateTable('car_reservations')
      .set({ status: to, ended_at: nowIso, updated_at: nowIso })
      .where('id', '=', reservation.id)
      .where('status', '=', reservation.status)
      .where('payment_id', 'is', null)
      .execute();
  } else if (
    to === null ||
    !(await endReservation(services, reservation.id, { event: 'cancel', by: 'customer', from: [reservation.status], to }, { language: currentLanguage() }))
  ) {
    throw new ConflictError(messages.notCancellable);
  } else {
    await carChanged(services);
  }
  const after = (await findReservation(services.database, reservation.id))!;
  const { name: _n, phone: _p, email: _e, userId: _u, ...own } = after;
  return { reservation: own, refund: reservation.status === 'active' ? reservation.amount : 0 };
}

// --- The desk

/** Live (active) reservations, the soonest hold end first: the dashboard's today view. */
export async function listActiveReservations(services: Pick<ReservationServices, 'database'>): Promise<DeskReservation[]> {
  const rows = await reservationQuery(services.database.db)
    .where('car_reservations.status', '=', 'active')
    .orderBy('car_reservations.held_until_ms')
    .limit(100)
    .execute();
  return rows.map(toDeskReservation);
}

/** A car's reservations, newest first, for its admin page (unpaid attempts left out). */
export async function listCarReservations(services: Pick<ReservationServices, 'database'>, vehicleId: number): Promise<DeskReservation[]> {
  const rows = await reservationQuery(services.database.db)
    .where('car_reservations.vehicle_id', '=', vehicleId)
    .where('car_reservations.status', '<>', 'lapsed')
    .orderBy('car_reservations.id', 'desc')
    .limit(20)
    .execute();
  return rows.map(toDeskReservation);
}

/** The reservation the desk's `event` applies to, and the status it moves to; refused (no longer active) when the rules say no. */
async function forDesk(services: ReservationServices, id: number, event: ReservationEvent): Promise<{ before: DeskReservation; to: ReservationStatus }> {
  const reservation = await findReservation(services.database, id);
  if (!reservation) throw new NotFoundError(messages.notYours);
  const to = transition(RESERVATION_TRANSITIONS, reservation.status, event, 'desk');
  if (to === null) throw new ConflictError(t('noLongerActive'));
  return { before: reservation, to };
}

/** The desk holds the car longer (1 to 336 hours more). Errors: NotFoundError, ConflictError, InvalidInputError. */
export async function extendReservation(
  services: ReservationServices,
  input: { reservationId: number; hours: number; actorEmail: string },
): Promise<DeskReservation> {
  if (!Number.isInteger(input.hours) || input.hours < 1 || input.hours > 336) throw new InvalidInputError(t('extendRange'), { hours: t('extendRange') });
  const { before, to } = await forDesk(services, input.reservationId, 'extend');
  const nowIso = new Date(services.clock.now()).toISOString();
  const updated = await services.database.db
    .updateTable('car_reservations')
    .set((eb) => ({ status: to, held_until_ms: eb('held_until_ms', '+', input.hours * HOUR_MS), updated_at: nowIso }))
    .where('id', '=', before.id)
    .where('status', '=', before.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new ConflictError(t('noLongerActive'));
  const after = (await findReservation(services.database, before.id))!;
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'extend',
    entity: 'reservation',
    entityId: before.id,
    summary: `Extended reservation #${before.id} of ${before.vehicleTitle} by ${input.hours} hours`,
    before: { heldUntil: before.heldUntil },
    after: { heldUntil: after.heldUntil },
  });
  return after;
}

/** What the sale takes from the reservation it converts: the car, the buyer, the token paid. */
export type ConvertedReservation = {
  id: number;
  vehicleId: number | null;
  vehicleTitle: string;
  userId: string;
  name: string;
  phone: string;
  email: string;
  /** The token's accepted payments in the ledger, in paise. */
  tokenPaise: number;
};

/** Whether the desk may make a reservation in `status` a sale (the reservation's transition table). */
export function canConvert(status: ReservationStatus): boolean {
  return transition(RESERVATION_TRANSITIONS, status, 'convert', 'desk') !== null;
}

/**
 * The buyer is buying (decision 114): in the sale's transaction (server/sales), the active
 * reservation becomes `converted` at `salePrice` (whole rupees) and the car stays out of the
 * listing; the sale marks it sold. The token's accepted payments in the ledger are counted
 * towards the price. Null when the reservation is not active (any more): the sale is refused
 * and its transaction rolled back. The sale is the one way a reservation converts.
 */
export async function convertForSale(
  trx: Transaction<DB>,
  input: { reservationId: number; salePrice: number; nowIso: string },
): Promise<ConvertedReservation | null> {
  const before = await trx.selectFrom('car_reservations').select('status').where('id', '=', input.reservationId).executeTakeFirst();
  if (!before || !canConvert(before.status)) return null;
  const to = transition(RESERVATION_TRANSITIONS, before.status, 'convert', 'desk')!;
  const row = await trx
    .updateTable('car_reservations')
    .set({ status: to, sale_price: input.salePrice, ended_at: input.nowIso, updated_at: input.nowIso })
    .where('id', '=', input.reservationId)
    .where('status', '=', before.status)
    .returning(['id', 'vehicle_id', 'vehicle_title', 'user_id', 'name', 'phone', 'email'])
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.id),
    vehicleId: row.vehicle_id === null ? null : Number(row.vehicle_id),
    vehicleTitle: row.vehicle_title,
    userId: row.user_id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    tokenPaise: await acceptedPaise(trx, reservationOwner(Number(row.id))),
  };
}

/** The desk cancels an active reservation with a full refund. Errors: NotFoundError, ConflictError. */
export async function cancelReservationAtDesk(services: ReservationServices, input: { reservationId: number; actorEmail: string }): Promise<DeskReservation> {
  const { before, to } = await forDesk(services, input.reservationId, 'cancel');
  if (!(await endReservation(services, before.id, { event: 'cancel', by: 'desk', from: [before.status], to }))) throw new ConflictError(t('noLongerActive'));
  await carChanged(services);
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'cancel',
    entity: 'reservation',
    entityId: before.id,
    summary: `Cancelled reservation #${before.id} of ${before.vehicleTitle}; ${formatRupees(before.amount)} refunded`,
    before: { status: before.status },
    after: { status: to },
  });
  return (await findReservation(services.database, before.id))!;
}

/** Statistics: reservations made (paid), converted to sales, and refunded. */
export async function reservationCounts(services: Pick<ReservationServices, 'database'>): Promise<{ reserved: number; converted: number; refunded: number }> {
  const rows = await services.database.db
    .selectFrom('car_reservations')
    .select(['status', (eb) => eb.fn.countAll<string | number>().as('count')])
    .where('paid_at', 'is not', null)
    .groupBy('status')
    .execute();
  const by = Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  const refunds = await services.database.db
    .selectFrom('payment_ledger')
    .select((eb) => eb.fn.count<string | number>('owner_id').distinct().as('count'))
    .where('entry', '=', 'refund')
    .where('owner_kind', '=', 'reservation')
    .where('of_paid', '=', 1)
    .executeTakeFirst();
  return { reserved: Object.values(by).reduce((sum, n) => sum + n, 0), converted: by.converted ?? 0, refunded: Number(refunds?.count ?? 0) };
}
