import { sql, type Kysely, type Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import type { Insertable } from 'kysely';
import type { DB, PaymentLedgerTable, PaymentOwnerKind } from '../db/schema.ts';

/**
 * The one ledger of money taken and given back (docs/decisions/106, migration 036): every
 * charge (a Checkout order for what is owed), every verified payment (settled once) and every
 * refund (owed until the provider says yes) is a row of `payment_ledger` with its owner, the
 * thing paid for. Rentals and reservations keep their own rules (what a booking owes, what a
 * reservation holds); the ledger keeps what every payable thing shares. A payable thing added
 * later (a sale invoice) is a new owner kind here, not a copy of this.
 */

export type { PaymentOwnerKind } from '../db/schema.ts';

/** The thing paid for: a rental booking, a car reservation. */
export type PaymentOwner = { kind: PaymentOwnerKind; id: number };

/** A database or the transaction of the change that causes the ledger row. */
export type LedgerDb = Kysely<DB> | Transaction<DB>;

/** What the ledger's services need: the database and the clock. */
export type LedgerServices = { database: Database; clock: Clock };

/** A payment the provider has proven (a signed callback or webhook, or asked of it), as the ledger and the owners read it. */
export type ProvenPayment = { orderId: string; paymentId: string; amountPaise: number; currency: string };

/** How a settled payment ended for its owner: it paid, it came too late, the thing was taken, or it was not what was owed. */
export type PaymentSettlement = 'accepted' | 'late' | 'taken' | 'not accepted';

type LedgerRow = Insertable<PaymentLedgerTable>;

/**
 * A new ledger row for `owner`: the entry's own columns, and every column it does not use empty
 * (a charge has no payment yet, only a refund has a reason and retry state).
 */
export function ledgerRow(owner: PaymentOwner, entry: Pick<LedgerRow, 'entry' | 'amount_paise' | 'status'> & Partial<LedgerRow>, nowIso: string): LedgerRow {
  return {
    owner_kind: owner.kind,
    owner_id: owner.id,
    order_id: null,
    payment_id: null,
    currency: 'INR',
    reason: null,
    last_error: null,
    next_try_ms: null,
    claimed_until_ms: null,
    provider_refund_id: null,
    refund_key: null,
    created_at: nowIso,
    updated_at: nowIso,
    refunded_at: null,
    ...entry,
  };
}

/**
 * Writes down the order made for what `owner` owes, so a payment of it finds its owner (the
 * webhook's routing). Once per order: a second call with the same order changes nothing.
 */
export async function recordCharge(
  db: LedgerDb,
  owner: PaymentOwner,
  input: { orderId: string; amountPaise: number; currency?: string },
  nowIso: string,
): Promise<void> {
  await db
    .insertInto('payment_ledger')
    .values(
      ledgerRow(
        owner,
        { entry: 'charge', order_id: input.orderId, amount_paise: input.amountPaise, currency: input.currency ?? 'INR', status: 'open' },
        nowIso,
      ),
    )
    .onConflict((conflict) =>
      conflict
        .column('order_id')
        .where(sql<boolean>`entry = 'charge'`)
        .doNothing(),
    )
    .execute();
}

/** Whose order this is, or null when no owner made it (another site's, or none of ours). */
export async function ownerOfOrder(db: LedgerDb, orderId: string): Promise<PaymentOwner | null> {
  const row = await db
    .selectFrom('payment_ledger')
    .select(['owner_kind', 'owner_id'])
    .where('entry', '=', 'charge')
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return row ? { kind: row.owner_kind, id: Number(row.owner_id) } : null;
}

/**
 * Settles a proven payment once, in `trx` (the transaction of the owner's change it causes):
 * the ledger's unique key on the payment refuses a second settlement, so a replayed event, the
 * callback and the webhook arriving together, or two instances, settle it exactly once. True:
 * this call settles it (the owner's change goes on); false: it was settled before (nothing to do).
 */
export async function settleOnce(trx: LedgerDb, owner: PaymentOwner, payment: ProvenPayment, settlement: PaymentSettlement, nowIso: string): Promise<boolean> {
  const inserted = await trx
    .insertInto('payment_ledger')
    .values(
      ledgerRow(
        owner,
        {
          entry: 'payment',
          order_id: payment.orderId,
          payment_id: payment.paymentId,
          amount_paise: payment.amountPaise,
          currency: payment.currency,
          status: settlement,
        },
        nowIso,
      ),
    )
    .onConflict((conflict) =>
      conflict
        .column('payment_id')
        .where(sql<boolean>`entry = 'payment'`)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** What `owner` was paid and accepted, in paise (a reservation's token, counted towards the sale). */
export async function acceptedPaise(db: LedgerDb, owner: PaymentOwner): Promise<number> {
  const row = await db
    .selectFrom('payment_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_paise'), eb.lit(0)).as('paid'))
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .where('entry', '=', 'payment')
    .where('status', '=', 'accepted')
    .executeTakeFirst();
  return Number(row?.paid ?? 0);
}

/** How a payment was settled, or null when it never was. */
export async function settlementOf(db: LedgerDb, paymentId: string): Promise<PaymentSettlement | null> {
  const row = await db.selectFrom('payment_ledger').select('status').where('entry', '=', 'payment').where('payment_id', '=', paymentId).executeTakeFirst();
  return row ? (row.status as PaymentSettlement) : null;
}

/**
 * In the transaction that marks paid money as refunded, the owner's refunded amount grows. Each
 * owner kind keeps it in its own table, in paise; a new owner kind adds its table here.
 */
export async function ownerRefunded(trx: Transaction<DB>, owner: PaymentOwner, amountPaise: number, nowIso: string): Promise<void> {
  switch (owner.kind) {
    case 'rental-booking':
      await trx
        .updateTable('rental_bookings')
        .set((eb) => ({ amount_refunded_paise: eb('amount_refunded_paise', '+', amountPaise), updated_at: nowIso }))
        .where('id', '=', owner.id)
        .execute();
      return;
    case 'reservation':
      await trx
        .updateTable('car_reservations')
        .set((eb) => ({ amount_refunded_paise: eb('amount_refunded_paise', '+', amountPaise), updated_at: nowIso }))
        .where('id', '=', owner.id)
        .execute();
      return;
  }
}

/** The ledger rows of owners removed for good (the retention purge): the owner's accounts go with it. */
export async function forgetOwners(db: LedgerDb, kind: PaymentOwnerKind, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('payment_ledger')
    .where('owner_kind', '=', kind)
    .where('owner_id', 'in', [...ids])
    .execute();
}
