import type { Kysely } from 'kysely';
import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import { formatPaise } from '../../app/lib/money.ts';
import { recordAudit } from '../audit/audit.ts';
import type { DB } from '../db/schema.ts';
import { NotFoundError } from '../errors.ts';
import {
  attemptOwedRefund,
  attemptRefund,
  countOwnersOwingRefunds,
  refundStatus,
  refundsOfOwner,
  writeOwedRefund,
  type OwedRefund,
  type RefundServices as PaymentRefundServices,
} from '../payments/refunds.ts';
import { bookingQuery, toBooking, type Booking, type RentalServices } from './store.ts';

/**
 * Money going back to a renter (docs/decisions/050). Every refund (a refusal, a cancellation,
 * a no-show's deposit, the deposit at settlement, a payment after the hold lapsed, a payment the
 * booking did not accept) goes through `recordRefund`: paid online, the refund is written down
 * as owed in the payments ledger and asked of the provider by the payments' one refund path
 * (server/payments/refunds.ts, decision 106), which retries it; paid at pickup, the desk hands it
 * back. The booking's own change (refused, cancelled, closed) stands either way: the renter's
 * intent is done, only the money is late.
 */

/** What refunding needs: the rentals' services, a logger, and the payment adapter (null: none configured). */
export type RefundServices = RentalServices & PaymentRefundServices;

export type RefundReason = 'refused' | 'cancelled' | 'no-show' | 'deposit' | 'hold lapsed' | 'not accepted';

export type RefundOutcome = 'none' | 'at-desk' | 'refunded' | 'owed';

export type { OwedRefund };

export type RefundInput = { bookingId: number; paymentId: string | null; amountPaise: number; currency?: string; reason: RefundReason; ofPaid: boolean };

/** A refund written down: what it is so far, and the owed refund to ask the provider for once the change has committed. */
export type RecordedRefund = { outcome: RefundOutcome; owedId: number | null };

const bookingOwner = (bookingId: number) => ({ kind: 'rental-booking', id: bookingId }) as const;

/**
 * Writes down giving back `amountPaise` of a booking, in `db`: the transaction of the change
 * that causes it, so the refund exists exactly when the refusal, cancellation or settlement
 * does. Paid at pickup (no provider payment), the desk hands it back and it is recorded as
 * refunded at once. Paid online, it is recorded as owed against `paymentId` (once per payment
 * and reason: a repeat call changes nothing); `sendRefund` asks the provider after the commit,
 * and `retryOwedRefunds` later if that never happens (a crash in between).
 */
export async function recordRefund(db: Kysely<DB>, services: Pick<RentalServices, 'clock'>, input: RefundInput): Promise<RecordedRefund> {
  if (input.amountPaise <= 0) return { outcome: 'none', owedId: null };
  const nowIso = new Date(services.clock.now()).toISOString();
  if (!input.paymentId) {
    if (input.ofPaid) {
      await db
        .updateTable('rental_bookings')
        .set((eb) => ({ amount_refunded_paise: eb('amount_refunded_paise', '+', input.amountPaise), updated_at: nowIso }))
        .where('id', '=', input.bookingId)
        .execute();
    }
    return { outcome: 'at-desk', owedId: null };
  }
  const owedId = await writeOwedRefund(
    db,
    bookingOwner(input.bookingId),
    { paymentId: input.paymentId, amountPaise: input.amountPaise, currency: input.currency, reason: input.reason, ofPaid: input.ofPaid },
    nowIso,
  );
  if (owedId === null) return { outcome: (await refundStatus(db, input.paymentId, input.reason)) === 'refunded' ? 'refunded' : 'owed', owedId: null };
  return { outcome: 'owed', owedId };
}

/**
 * Asks the provider for a refund `recordRefund` wrote down as owed (called after its
 * transaction committed); the answer says whether it went back or is still owed. Never throws
 * for the provider's failure: that is an expected outside fault, logged at warn.
 */
export async function sendRefund(services: RefundServices, recorded: RecordedRefund): Promise<RefundOutcome> {
  if (recorded.owedId === null) return recorded.outcome;
  return attemptOwedRefund(services, recorded.owedId);
}

/** Every refund of a booking through the provider, newest first, for the desk's booking page. */
export function refundsOf(services: Pick<RefundServices, 'database'>, bookingId: number): Promise<OwedRefund[]> {
  return refundsOfOwner(services.database.db, bookingOwner(bookingId));
}

/** The desk's "Retry refund": asks again now for every owed refund of the booking, whatever the wait. Errors: NotFoundError. */
export async function retryBookingRefunds(
  services: RefundServices,
  input: { bookingId: number; actorEmail: string },
): Promise<{ refunded: number; owed: number; lastError: string | null }> {
  const owed = (await refundsOf(services, input.bookingId)).filter((refund) => refund.status === 'owed').reverse();
  if (owed.length === 0) {
    const exists = await services.database.db
      .selectFrom('rental_bookings')
      .select('id')
      .where('id', '=', input.bookingId)
      .where('kind', '=', 'booking')
      .executeTakeFirst();
    if (!exists) throw new NotFoundError(t('bookingNotFound'));
    return { refunded: 0, owed: 0, lastError: null };
  }
  let refunded = 0;
  for (const refund of owed) if ((await attemptRefund(services, refund.id)) === 'refunded') refunded += 1;
  // Read again: one the job was trying at this moment may have gone back meanwhile.
  const still = await services.database.db
    .selectFrom('payment_ledger')
    .select('last_error')
    .where('entry', '=', 'refund')
    .where('owner_kind', '=', 'rental-booking')
    .where('owner_id', '=', input.bookingId)
    .where('status', '=', 'owed')
    .orderBy('updated_at', 'desc')
    .execute();
  const result = { refunded, owed: still.length, lastError: still[0]?.last_error ?? null };
  const total = owed.reduce((sum, refund) => sum + refund.amountPaise, 0);
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'retry-refund',
    entity: 'rental-booking',
    entityId: input.bookingId,
    summary: `Retried the refund of booking #${input.bookingId} (${formatPaise(total, owed[0]!.currency)}): ${result.refunded} sent, ${result.owed} still owed`,
    before: { owed: owed.length },
    after: { refunded: result.refunded, owed: result.owed },
  });
  return result;
}

/** How many bookings owe the renter a refund, for the dashboard's tile and the desk's heading. */
export function countBookingsOwingRefunds(services: Pick<RefundServices, 'database'>): Promise<number> {
  return countOwnersOwingRefunds(services.database.db, 'rental-booking');
}

/** Bookings that still owe the renter a refund, in any status, oldest refund first: the desk's "Refunds owed" list. */
export async function listBookingsOwingRefunds(services: Pick<RefundServices, 'database'>): Promise<Booking[]> {
  const rows = await bookingQuery(services.database.db)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('payment_ledger')
          .select('payment_ledger.id')
          .where('payment_ledger.entry', '=', 'refund')
          .where('payment_ledger.owner_kind', '=', 'rental-booking')
          .whereRef('payment_ledger.owner_id', '=', 'rental_bookings.id')
          .where('payment_ledger.status', '=', 'owed'),
      ),
    )
    .orderBy('rental_bookings.updated_at')
    .limit(200)
    .execute();
  return rows.map(toBooking);
}
