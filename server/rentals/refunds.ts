import { sql, type Kysely, type Transaction } from 'kysely';
import { rentalDeskText as t } from '../../app/lib/i18n/rentalDesk.ts';
import { formatPaise, paiseToWholeRupees } from '../../app/lib/money.ts';
import { recordAudit } from '../admin/audit.ts';
import { installationId } from '../db/installation.ts';
import type { DB, RentalRefundTable } from '../db/schema.ts';
import { NotFoundError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { PaymentError, REFUND_OF_ANOTHER_PAYMENT, type PaymentGateway } from '../payments/gateway.ts';
import { bookingQuery, toBooking, type Booking, type RentalServices } from './store.ts';

/**
 * Money going back to a renter (docs/decisions/050). Every refund (a refusal, a cancellation,
 * a no-show's deposit, the deposit at settlement, a payment after the hold lapsed, a payment the
 * booking did not accept) goes through `refundBooking`: paid online, the refund is first
 * written down as owed, then asked of the provider; a refusal or an outage leaves it owed, on
 * the desk's list, and `retryOwedRefunds` asks again later. The booking's own change (refused,
 * cancelled, closed) stands either way: the renter's intent is done, only the money is late.
 */

/** What refunding needs: the database and clock, a logger, and the payment adapter (null: none configured). */
export type RefundServices = RentalServices & { logger: Pick<Logger, 'info' | 'warn' | 'error'>; payments: PaymentGateway | null };

export type RefundReason = 'refused' | 'cancelled' | 'no-show' | 'deposit' | 'hold lapsed' | 'not accepted';

export type RefundOutcome = 'none' | 'at-desk' | 'refunded' | 'owed';

/** How long one attempt owns a refund; longer than the adapter's timeout, so two never overlap. */
const CLAIM_MS = 2 * 60 * 1000;
/** Retry waits: 1, 2, 4 … minutes after each failed attempt, at most 6 hours. */
const FIRST_WAIT_MS = 60 * 1000;
const LONGEST_WAIT_MS = 6 * 60 * 60 * 1000;

function retryWaitMs(attempts: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

export type RefundInput = { bookingId: number; paymentId: string | null; amountPaise: number; currency?: string; reason: RefundReason; ofPaid: boolean };

/** A refund written down: what it is so far, and the owed refund to ask the provider for once the change has committed. */
export type RecordedRefund = { outcome: RefundOutcome; owedId: number | null };

/**
 * Writes down giving back `amountPaise` of a booking, in `db`: the transaction of the change
 * that causes it, so the refund exists exactly when the refusal, cancellation or settlement
 * does. Paid at pickup (no provider payment), the desk hands it back and it is recorded as
 * refunded at once. Paid online, it is recorded as owed against `paymentId` (once per payment
 * and reason: a repeat call changes nothing); `sendRefund` asks the provider after the commit,
 * and `retryOwedRefunds` later if that never happens (a crash in between).
 */
export async function recordRefund(db: Kysely<DB>, services: Pick<RefundServices, 'clock'>, input: RefundInput): Promise<RecordedRefund> {
  if (input.amountPaise <= 0) return { outcome: 'none', owedId: null };
  const nowIso = new Date(services.clock.now()).toISOString();
  if (!input.paymentId) {
    if (input.ofPaid) {
      await db
        .updateTable('rental_bookings')
        .set((eb) => ({ amount_refunded: eb('amount_refunded', '+', paiseToWholeRupees(input.amountPaise)), updated_at: nowIso }))
        .where('id', '=', input.bookingId)
        .execute();
    }
    return { outcome: 'at-desk', owedId: null };
  }
  const owedId = await writeOwedRefund(db, RENTAL_REFUNDS, { ownerId: input.bookingId, paymentId: input.paymentId, amountPaise: input.amountPaise, currency: input.currency, reason: input.reason, ofPaid: input.ofPaid }, nowIso);
  if (owedId === null) {
    const existing = await db.selectFrom('rental_refunds').select('status').where('payment_id', '=', input.paymentId).where('reason', '=', input.reason).executeTakeFirst();
    return { outcome: existing?.status === 'refunded' ? 'refunded' : 'owed', owedId: null };
  }
  return { outcome: 'owed', owedId };
}

/**
 * Where refunds of one kind are written down: rental bookings' (`rental_refunds`) and car
 * reservations' tokens (`reservation_refunds`, decision 080) have the same columns but the
 * owner's, and the same rules: owed before the provider is asked, claimed by one attempt at a
 * time, retried with backoff, each with its own idempotency key.
 */
export type RefundLedger = {
  table: 'rental_refunds' | 'reservation_refunds';
  owner: 'booking_id' | 'reservation_id';
  /** Names the ledger in the provider's idempotency key and the log lines: unique per ledger. */
  name: string;
  /** In the transaction that marks paid money as refunded: the owner's refunded amount grows. */
  refunded(trx: Transaction<DB>, ownerId: number, amountPaise: number, nowIso: string): Promise<void>;
};

export const RENTAL_REFUNDS: RefundLedger = {
  table: 'rental_refunds',
  owner: 'booking_id',
  name: 'rental',
  refunded: async (trx, bookingId, amountPaise, nowIso) => {
    await trx
      .updateTable('rental_bookings')
      .set((eb) => ({ amount_refunded: eb('amount_refunded', '+', paiseToWholeRupees(amountPaise)), updated_at: nowIso }))
      .where('id', '=', bookingId)
      .execute();
  },
};

/** A refund row as both ledgers keep it; `ledger` stands for the ledger's own table name (same columns). */
type LedgerRow = Omit<RentalRefundTable, 'booking_id'>;
type LedgerDb = Kysely<{ ledger: LedgerRow }>;
/** The ledger's table through one typed view: both tables have these columns, so the queries are the same. */
function ledgerDb(db: Kysely<DB> | Transaction<DB>): LedgerDb {
  return db as unknown as LedgerDb;
}
const tableOf = (ledger: RefundLedger) => ledger.table as unknown as 'ledger';
const ownerOf = (ledger: RefundLedger) => sql<number>`${sql.ref(ledger.owner)}`.as('owner_id');

type OwedInput = { ownerId: number; paymentId: string; amountPaise: number; currency?: string | undefined; reason: string; ofPaid: boolean };

/**
 * Writes the refund down as owed in `db`, which may be the transaction of the change that causes
 * it, so a crash after that change commits cannot lose the refund: the retry job finds it.
 * Returns its id, or null when this payment's refund for this reason was written before.
 */
export async function writeOwedRefund(db: Kysely<DB> | Transaction<DB>, ledger: RefundLedger, input: OwedInput, nowIso: string): Promise<number | null> {
  if (input.amountPaise <= 0) return null;
  const values = { payment_id: input.paymentId, amount_paise: input.amountPaise, currency: input.currency ?? 'INR', reason: input.reason, of_paid: input.ofPaid ? 1 : 0, status: 'owed' as const, created_at: nowIso, updated_at: nowIso, next_try_ms: null, last_error: null, claimed_until_ms: null, provider_refund_id: null, refunded_at: null };
  const inserted = await ledgerDb(db)
    .insertInto(tableOf(ledger))
    .values({ ...values, [ledger.owner]: input.ownerId })
    .onConflict((conflict) => conflict.columns(['payment_id', 'reason']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ? Number(inserted.id) : null;
}

/**
 * The provider's idempotency key of one refund (docs/decisions/093): the ledger and the refund's
 * row id make it one refund of this site, the payment and the installation's id keep it apart
 * from every other site's refunds on the same Razorpay account (row ids start at 1 everywhere,
 * and Razorpay answers a key it has seen with that key's first refund, whatever the payment).
 * The same on every attempt of the refund, so a retry after a lost answer gets the first refund
 * back. Razorpay takes letters, digits, hyphens and underscores only.
 */
export function refundIdempotencyKey(input: { installationId: string; ledger: string; refundId: number; paymentId: string }): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');
  return `${safe(input.ledger)}-refund-${input.refundId}-${safe(input.paymentId)}-${safe(input.installationId)}`;
}

/** Asks the provider now for a refund written down as owed (after its transaction committed). */
export async function attemptOwedRefund(services: RefundServices, ledger: RefundLedger, refundId: number): Promise<'refunded' | 'owed'> {
  return (await attemptRefund(services, ledger, refundId)) ?? 'owed';
}

/**
 * Asks the provider for a refund `recordRefund` wrote down as owed (called after its
 * transaction committed); the answer says whether it went back or is still owed. Never throws
 * for the provider's failure: that is an expected outside fault, logged at warn.
 */
export async function sendRefund(services: RefundServices, recorded: RecordedRefund): Promise<RefundOutcome> {
  if (recorded.owedId === null) return recorded.outcome;
  return attemptOwedRefund(services, RENTAL_REFUNDS, recorded.owedId);
}

/** Records a refund and asks for it at once, for callers whose change is already committed (a payment's record). */
export async function refundBooking(services: RefundServices, input: RefundInput): Promise<RefundOutcome> {
  return sendRefund(services, await recordRefund(services.database.db, services, input));
}

/**
 * One attempt at an owed refund: claimed first (a conditional update), so two instances, the
 * retry job and the desk's button never ask the provider for it at the same time; the provider
 * is asked with the refund's own idempotency key, so a retry after a lost answer cannot refund
 * twice. Success: refunded, and the booking's amount_refunded grows. Failure: still owed, with
 * the provider's words and the time of the next try; an answer that is a refund of another
 * payment or amount (a key another refund used first) is such a failure, logged as an error
 * because retrying will not mend it. Null: not attempted (done already, or another attempt holds it).
 */
async function attemptRefund(services: RefundServices, ledger: RefundLedger, refundId: number): Promise<'refunded' | 'owed' | null> {
  const db = ledgerDb(services.database.db);
  const nowMs = services.clock.now();
  const claimed = await db
    .updateTable(tableOf(ledger))
    .set((eb) => ({ claimed_until_ms: nowMs + CLAIM_MS, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', refundId)
    .where('status', '=', 'owed')
    .where((eb) => eb.or([eb('claimed_until_ms', 'is', null), eb('claimed_until_ms', '<=', nowMs)]))
    .returning(['payment_id', 'amount_paise', 'reason', 'attempts', ownerOf(ledger)])
    .executeTakeFirst();
  if (!claimed) return null;
  const amountPaise = Number(claimed.amount_paise);
  const ownerId = Number(claimed.owner_id);
  const owner = ledger.owner === 'booking_id' ? 'booking' : 'reservation';
  let failure: string;
  try {
    if (!services.payments) throw new Error('Online payment is not configured on this server.');
    const installation = await installationId(services);
    const { refundId: providerRefundId } = await services.payments.refund({
      paymentId: claimed.payment_id,
      amountPaise,
      idempotencyKey: refundIdempotencyKey({ installationId: installation, ledger: ledger.name, refundId, paymentId: claimed.payment_id }),
      notes: { [owner]: String(ownerId), reason: claimed.reason },
    });
    const doneIso = new Date(services.clock.now()).toISOString();
    await services.database.db.transaction().execute(async (trx) => {
      const done = await ledgerDb(trx)
        .updateTable(tableOf(ledger))
        .set({ status: 'refunded', provider_refund_id: providerRefundId, last_error: null, next_try_ms: null, claimed_until_ms: null, refunded_at: doneIso, updated_at: doneIso })
        .where('id', '=', refundId)
        .where('status', '=', 'owed')
        .returning('of_paid')
        .executeTakeFirst();
      if (done && Number(done.of_paid) === 1) await ledger.refunded(trx, ownerId, amountPaise, doneIso);
    });
    services.logger.info({ [owner]: ownerId, refund: refundId, amountPaise }, `${ledger.name}s: refund sent`);
    return 'refunded';
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
    const context = { err: error, [owner]: ownerId, refund: refundId, attempts: Number(claimed.attempts) };
    if (error instanceof PaymentError && error.code === REFUND_OF_ANOTHER_PAYMENT) services.logger.error(context, `${ledger.name}s: the provider answered with a refund of another payment or amount; it stays owed, not counted as refunded`);
    else services.logger.warn(context, `${ledger.name}s: a refund failed; it stays owed and is retried`);
  }
  const failedMs = services.clock.now();
  await db
    .updateTable(tableOf(ledger))
    .set({ last_error: failure.slice(0, 500), next_try_ms: failedMs + retryWaitMs(Number(claimed.attempts)), claimed_until_ms: null, updated_at: new Date(failedMs).toISOString() })
    .where('id', '=', refundId)
    .where('status', '=', 'owed')
    .execute();
  return 'owed';
}

/**
 * Asks the provider again for every owed refund whose wait is over (oldest first, at most
 * `limit`). One plain service function, so the scheduler calls it today and a durable queue can
 * tomorrow. Returns how many went back and how many are still owed of those it tried (one that
 * another instance is trying at the moment is left to it).
 */
export async function retryOwedRefunds(services: RefundServices, options: { limit?: number; ledger?: RefundLedger } = {}): Promise<{ refunded: number; owed: number }> {
  const nowMs = services.clock.now();
  const ledger = options.ledger ?? RENTAL_REFUNDS;
  const due = await ledgerDb(services.database.db)
    .selectFrom(tableOf(ledger))
    .select('id')
    .where('status', '=', 'owed')
    .where((eb) => eb.or([eb('next_try_ms', 'is', null), eb('next_try_ms', '<=', nowMs)]))
    .orderBy('id')
    .limit(options.limit ?? 50)
    .execute();
  const result = { refunded: 0, owed: 0 };
  for (const { id } of due) {
    const outcome = await attemptRefund(services, ledger, Number(id));
    if (outcome) result[outcome] += 1;
  }
  return result;
}

export type OwedRefund = { id: number; paymentId: string; amountPaise: number; currency: string; reason: string; status: 'owed' | 'refunded'; attempts: number; lastError: string | null; nextTryMs: number | null; createdAt: string; refundedAt: string | null };

/** Every refund of a booking through the provider, newest first, for the desk's booking page. */
export async function refundsOf(services: Pick<RefundServices, 'database'>, bookingId: number): Promise<OwedRefund[]> {
  const rows = await services.database.db.selectFrom('rental_refunds').selectAll().where('booking_id', '=', bookingId).orderBy('id', 'desc').execute();
  return rows.map((row) => ({
    id: Number(row.id),
    paymentId: row.payment_id,
    amountPaise: Number(row.amount_paise),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    nextTryMs: row.next_try_ms === null ? null : Number(row.next_try_ms),
    createdAt: row.created_at,
    refundedAt: row.refunded_at,
  }));
}

/** The desk's "Retry refund": asks again now for every owed refund of the booking, whatever the wait. Errors: NotFoundError. */
export async function retryBookingRefunds(services: RefundServices, input: { bookingId: number; actorEmail: string }): Promise<{ refunded: number; owed: number; lastError: string | null }> {
  const owed = await services.database.db.selectFrom('rental_refunds').select(['id', 'amount_paise', 'currency']).where('booking_id', '=', input.bookingId).where('status', '=', 'owed').orderBy('id').execute();
  if (owed.length === 0) {
    const exists = await services.database.db.selectFrom('rental_bookings').select('id').where('id', '=', input.bookingId).where('kind', '=', 'booking').executeTakeFirst();
    if (!exists) throw new NotFoundError(t('bookingNotFound'));
    return { refunded: 0, owed: 0, lastError: null };
  }
  let refunded = 0;
  for (const row of owed) if ((await attemptRefund(services, RENTAL_REFUNDS, Number(row.id))) === 'refunded') refunded += 1;
  // Read again: one the job was trying at this moment may have gone back meanwhile.
  const still = await services.database.db.selectFrom('rental_refunds').select('last_error').where('booking_id', '=', input.bookingId).where('status', '=', 'owed').orderBy('updated_at', 'desc').execute();
  const result = { refunded, owed: still.length, lastError: still[0]?.last_error ?? null };
  const total = owed.reduce((sum, row) => sum + Number(row.amount_paise), 0);
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
export async function countBookingsOwingRefunds(services: Pick<RefundServices, 'database'>): Promise<number> {
  const row = await services.database.db
    .selectFrom('rental_refunds')
    .select((eb) => eb.fn.count<string | number>('booking_id').distinct().as('count'))
    .where('status', '=', 'owed')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Bookings that still owe the renter a refund, in any status, oldest refund first: the desk's "Refunds owed" list. */
export async function listBookingsOwingRefunds(services: Pick<RefundServices, 'database'>): Promise<Booking[]> {
  const rows = await bookingQuery(services.database.db)
    .where((eb) => eb.exists(eb.selectFrom('rental_refunds').select('rental_refunds.id').whereRef('rental_refunds.booking_id', '=', 'rental_bookings.id').where('rental_refunds.status', '=', 'owed')))
    .orderBy('rental_bookings.updated_at')
    .limit(200)
    .execute();
  return rows.map(toBooking);
}
