import { sql } from 'kysely';
import { installationId } from '../db/installation.ts';
import type { PaymentOwnerKind } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { PaymentError, REFUND_OF_ANOTHER_PAYMENT, type PaymentGateway } from './gateway.ts';
import { ledgerRow, ownerRefunded, type LedgerDb, type LedgerServices, type PaymentOwner } from './ledger.ts';

/**
 * Money going back through the payment provider, for every owner alike (docs/decisions/050,
 * 093, 106): a refund is first written down as owed in the ledger, in the transaction of the
 * change that causes it, then asked of the provider after that commits; a refusal or an outage
 * leaves it owed, and `retryOwedRefunds` (the minute job) asks again with backoff. One attempt
 * at a time claims it, and each refund has its own idempotency key, so nothing goes back twice.
 */

/** What refunding needs: the database and clock, a logger, and the payment adapter (null: none configured). */
export type RefundServices = LedgerServices & { logger: Pick<Logger, 'info' | 'warn' | 'error'>; payments: PaymentGateway | null };

/** How long one attempt owns a refund; longer than the adapter's timeout, so two never overlap. */
const CLAIM_MS = 2 * 60 * 1000;
/** Retry waits: 1, 2, 4 … minutes after each failed attempt, at most 6 hours. */
const FIRST_WAIT_MS = 60 * 1000;
const LONGEST_WAIT_MS = 6 * 60 * 60 * 1000;

function retryWaitMs(attempts: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

export type OwedRefundInput = { paymentId: string; amountPaise: number; currency?: string | undefined; reason: string; ofPaid: boolean };

/**
 * Writes the refund down as owed in `db`, which may be the transaction of the change that causes
 * it, so a crash after that change commits cannot lose the refund: the retry job finds it.
 * Returns its id, or null when nothing is owed or this payment's refund for this reason was
 * written before (the ledger's unique key: a replay, a second press, a second instance).
 */
export async function writeOwedRefund(db: LedgerDb, owner: PaymentOwner, input: OwedRefundInput, nowIso: string): Promise<number | null> {
  if (input.amountPaise <= 0) return null;
  const inserted = await db
    .insertInto('payment_ledger')
    .values(
      ledgerRow(
        owner,
        {
          entry: 'refund',
          payment_id: input.paymentId,
          amount_paise: input.amountPaise,
          currency: input.currency ?? 'INR',
          status: 'owed',
          reason: input.reason,
          of_paid: input.ofPaid ? 1 : 0,
        },
        nowIso,
      ),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['payment_id', 'reason'])
        .where(sql<boolean>`entry = 'refund'`)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted ? Number(inserted.id) : null;
}

/** Whether this payment's refund for this reason went back already ('refunded'), is owed, or was never written (null). */
export async function refundStatus(db: LedgerDb, paymentId: string, reason: string): Promise<'owed' | 'refunded' | null> {
  const row = await db
    .selectFrom('payment_ledger')
    .select('status')
    .where('entry', '=', 'refund')
    .where('payment_id', '=', paymentId)
    .where('reason', '=', reason)
    .executeTakeFirst();
  return row ? (row.status as 'owed' | 'refunded') : null;
}

/**
 * The provider's idempotency key of one refund (docs/decisions/093): the ledger row makes it one
 * refund of this site, the payment and the installation's id keep it apart from every other
 * site's refunds on the same Razorpay account (row ids start at 1 everywhere, and Razorpay
 * answers a key it has seen with that key's first refund, whatever the payment). A refund copied
 * from the tables before migration 036 keeps the key it was first asked with (`refundKey`), so a
 * retry after a lost answer gets that refund back. Letters, digits, hyphens and underscores only.
 */
export function refundIdempotencyKey(input: {
  installationId: string;
  ownerKind: PaymentOwnerKind;
  refundId: number;
  refundKey?: string | null;
  paymentId: string;
}): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');
  const own = input.refundKey ?? `ledger-${input.ownerKind}-${input.refundId}`;
  return `${safe(own)}-${safe(input.paymentId)}-${safe(input.installationId)}`;
}

/** Asks the provider now for a refund written down as owed (after its transaction committed). */
export async function attemptOwedRefund(services: RefundServices, refundId: number): Promise<'refunded' | 'owed'> {
  return (await attemptRefund(services, refundId)) ?? 'owed';
}

/**
 * One attempt at an owed refund: claimed first (a conditional update), so two instances, the
 * retry job and the desk's button never ask the provider for it at the same time; the provider
 * is asked with the refund's own idempotency key, so a retry after a lost answer cannot refund
 * twice. Success: refunded, and the owner's refunded amount grows. Failure: still owed, with the
 * provider's words and the time of the next try; an answer that is a refund of another payment
 * or amount (a key another refund used first) is such a failure, logged as an error because
 * retrying will not mend it. Null: not attempted (done already, or another attempt holds it).
 */
export async function attemptRefund(services: RefundServices, refundId: number): Promise<'refunded' | 'owed' | null> {
  const db = services.database.db;
  const nowMs = services.clock.now();
  const claimed = await db
    .updateTable('payment_ledger')
    .set((eb) => ({ claimed_until_ms: nowMs + CLAIM_MS, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', refundId)
    .where('entry', '=', 'refund')
    .where('status', '=', 'owed')
    .where((eb) => eb.or([eb('claimed_until_ms', 'is', null), eb('claimed_until_ms', '<=', nowMs)]))
    .returning(['payment_id', 'amount_paise', 'reason', 'attempts', 'owner_kind', 'owner_id', 'refund_key'])
    .executeTakeFirst();
  if (!claimed) return null;
  const amountPaise = Number(claimed.amount_paise);
  const owner: PaymentOwner = { kind: claimed.owner_kind, id: Number(claimed.owner_id) };
  const paymentId = claimed.payment_id!;
  const context = { owner: owner.kind, ownerId: owner.id, refund: refundId };
  let failure: string;
  try {
    if (!services.payments) throw new Error('Online payment is not configured on this server.');
    const installation = await installationId(services);
    const { refundId: providerRefundId } = await services.payments.refund({
      paymentId,
      amountPaise,
      idempotencyKey: refundIdempotencyKey({ installationId: installation, ownerKind: owner.kind, refundId, refundKey: claimed.refund_key, paymentId }),
      notes: { [owner.kind]: String(owner.id), reason: claimed.reason ?? '' },
    });
    const doneIso = new Date(services.clock.now()).toISOString();
    await db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('payment_ledger')
        .set({
          status: 'refunded',
          provider_refund_id: providerRefundId,
          last_error: null,
          next_try_ms: null,
          claimed_until_ms: null,
          refunded_at: doneIso,
          updated_at: doneIso,
        })
        .where('id', '=', refundId)
        .where('status', '=', 'owed')
        .returning('of_paid')
        .executeTakeFirst();
      if (done && Number(done.of_paid) === 1) await ownerRefunded(trx, owner, amountPaise, doneIso);
    });
    services.logger.info({ ...context, amountPaise }, 'payments: refund sent');
    return 'refunded';
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
    const logged = { err: error, ...context, attempts: Number(claimed.attempts) };
    if (error instanceof PaymentError && error.code === REFUND_OF_ANOTHER_PAYMENT)
      services.logger.error(logged, 'payments: the provider answered with a refund of another payment or amount; it stays owed, not counted as refunded');
    else services.logger.warn(logged, 'payments: a refund failed; it stays owed and is retried');
  }
  const failedMs = services.clock.now();
  await db
    .updateTable('payment_ledger')
    .set({
      last_error: failure.slice(0, 500),
      next_try_ms: failedMs + retryWaitMs(Number(claimed.attempts)),
      claimed_until_ms: null,
      updated_at: new Date(failedMs).toISOString(),
    })
    .where('id', '=', refundId)
    .where('status', '=', 'owed')
    .execute();
  return 'owed';
}

/**
 * Asks the provider again for every owed refund whose wait is over (oldest first, at most
 * `limit`), of every owner or of one kind. One plain service function: the minute job calls it.
 * Returns how many went back and how many are still owed of those it tried (one that another
 * instance is trying at the moment is left to it).
 */
export async function retryOwedRefunds(
  services: RefundServices,
  options: { limit?: number; ownerKind?: PaymentOwnerKind } = {},
): Promise<{ refunded: number; owed: number }> {
  const nowMs = services.clock.now();
  let due = services.database.db
    .selectFrom('payment_ledger')
    .select('id')
    .where('entry', '=', 'refund')
    .where('status', '=', 'owed')
    .where((eb) => eb.or([eb('next_try_ms', 'is', null), eb('next_try_ms', '<=', nowMs)]));
  if (options.ownerKind) due = due.where('owner_kind', '=', options.ownerKind);
  const rows = await due
    .orderBy('id')
    .limit(options.limit ?? 50)
    .execute();
  const result = { refunded: 0, owed: 0 };
  for (const { id } of rows) {
    const outcome = await attemptRefund(services, Number(id));
    if (outcome) result[outcome] += 1;
  }
  return result;
}

export type OwedRefund = {
  id: number;
  paymentId: string;
  amountPaise: number;
  currency: string;
  reason: string;
  status: 'owed' | 'refunded';
  attempts: number;
  lastError: string | null;
  nextTryMs: number | null;
  createdAt: string;
  refundedAt: string | null;
};

/** Every refund of one owner through the provider, newest first. */
export async function refundsOfOwner(db: LedgerDb, owner: PaymentOwner): Promise<OwedRefund[]> {
  const rows = await db
    .selectFrom('payment_ledger')
    .selectAll()
    .where('entry', '=', 'refund')
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    paymentId: row.payment_id!,
    amountPaise: Number(row.amount_paise),
    currency: row.currency,
    reason: row.reason ?? '',
    status: row.status as 'owed' | 'refunded',
    attempts: Number(row.attempts),
    lastError: row.last_error,
    nextTryMs: row.next_try_ms === null ? null : Number(row.next_try_ms),
    createdAt: row.created_at,
    refundedAt: row.refunded_at,
  }));
}

/** How many owners of a kind owe a refund (the dashboard's tile). */
export async function countOwnersOwingRefunds(db: LedgerDb, kind: PaymentOwnerKind): Promise<number> {
  const row = await db
    .selectFrom('payment_ledger')
    .select((eb) => eb.fn.count<string | number>('owner_id').distinct().as('count'))
    .where('entry', '=', 'refund')
    .where('owner_kind', '=', kind)
    .where('status', '=', 'owed')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
