import { sql, type Kysely } from 'kysely';
import { rupeesToPaise } from '../../../app/lib/money.ts';
import type { Dialect } from '../connection.ts';

/**
 * Money taken and given back has one home and one unit (docs/decisions/106).
 *
 * 1. Rental bookings kept what was paid, refunded and the deposit refund in whole rupees; every
 *    other stored amount is paise. They become `*_paise` columns and their values are multiplied
 *    (bigint on PostgreSQL, as every other paise column).
 * 2. One ledger, `payment_ledger`, holds each owner's charges (a Checkout order), payments (a
 *    verified payment settled once) and refunds (owed until the provider says yes), each row
 *    owned by (`owner_kind`, `owner_id`): 'rental-booking' or 'reservation' today. It replaces
 *    `rental_refunds` (017) and `reservation_refunds` (024), whose rows are copied over with new
 *    ids; `refund_key` keeps the idempotency key each copied refund was asked with, so a retry of
 *    one whose answer was lost gets the same refund back from the provider, never a second.
 *    Partial unique indexes make each rule the database's: one charge per order, one settlement
 *    per payment (a replayed event settles nothing twice), one refund per payment and reason.
 */

const OWNER_KINDS = sql`('rental-booking', 'reservation')`;

/** The rupee columns of rental_bookings and their paise names. */
const RUPEE_COLUMNS = [
  ['amount_paid', 'amount_paid_paise'],
  ['amount_refunded', 'amount_refunded_paise'],
  ['deposit_refund', 'deposit_refund_paise'],
] as const;

type OldRefund = {
  id: number;
  owner_id: number;
  payment_id: string;
  amount_paise: number | string;
  currency: string;
  reason: string;
  of_paid: number;
  status: string;
  attempts: number;
  last_error: string | null;
  next_try_ms: number | string | null;
  claimed_until_ms: number | string | null;
  provider_refund_id: string | null;
  created_at: string;
  updated_at: string;
  refunded_at: string | null;
};

export async function up(unknownDb: Kysely<unknown>, dialect: Dialect) {
  // The rows of tables this migration reads and writes, beyond what later code's types say.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = unknownDb as Kysely<any>;

  // 1. Rental bookings' rupees become paise. The multiplier is money.ts's, so one place says what a rupee is.
  const perRupee = rupeesToPaise(1);
  for (const [rupees, paise] of RUPEE_COLUMNS) {
    await db.schema.alterTable('rental_bookings').renameColumn(rupees, paise).execute();
    if (dialect === 'postgres')
      await db.schema
        .alterTable('rental_bookings')
        .alterColumn(paise, (col) => col.setDataType('bigint'))
        .execute();
    await db
      .updateTable('rental_bookings')
      .set({ [paise]: sql`${sql.ref(paise)} * ${sql.lit(perRupee)}` })
      .where(paise, 'is not', null)
      .execute();
  }

  // 2. The ledger.
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('payment_ledger')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('owner_kind', 'text', (col) => col.notNull())
    .addColumn('owner_id', 'integer', (col) => col.notNull())
    // 'charge': an order made for what the owner owes; 'payment': a verified payment, settled once; 'refund': money going back.
    .addColumn('entry', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('amount_paise', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull().defaultTo('INR'))
    // charge: 'open'; payment: 'accepted' | 'late' | 'taken' | 'not accepted'; refund: 'owed' | 'refunded'.
    .addColumn('status', 'text', (col) => col.notNull())
    // A refund's cause: 'cancelled', 'refused', 'no-show', 'deposit', 'hold lapsed', 'expired', 'taken', 'not accepted'.
    .addColumn('reason', 'text')
    // A refund of money the owner counted as paid (1: its refunded amount grows) or of a payment it never accepted (0).
    .addColumn('of_paid', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_try_ms', 'bigint')
    .addColumn('claimed_until_ms', 'bigint')
    .addColumn('provider_refund_id', 'text')
    // The first part of a copied refund's idempotency key ('rental-refund-7'); null for the ledger's own refunds.
    .addColumn('refund_key', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('refunded_at', 'text')
    .addCheckConstraint('payment_ledger_owner_kind_check', sql`owner_kind IN ${OWNER_KINDS}`)
    .addCheckConstraint(
      'payment_ledger_entry_check',
      sql`entry = 'charge' AND order_id IS NOT NULL AND status = 'open'
        OR entry = 'payment' AND payment_id IS NOT NULL AND status IN ('accepted', 'late', 'taken', 'not accepted')
        OR entry = 'refund' AND payment_id IS NOT NULL AND reason IS NOT NULL AND status IN ('owed', 'refunded')`,
    )
    .addCheckConstraint('payment_ledger_amount_check', sql`amount_paise >= 0`)
    .execute();
  await sql`CREATE UNIQUE INDEX payment_ledger_charge_uq ON payment_ledger (order_id) WHERE entry = 'charge'`.execute(db);
  await sql`CREATE UNIQUE INDEX payment_ledger_payment_uq ON payment_ledger (payment_id) WHERE entry = 'payment'`.execute(db);
  await sql`CREATE UNIQUE INDEX payment_ledger_refund_uq ON payment_ledger (payment_id, reason) WHERE entry = 'refund'`.execute(db);
  await db.schema.createIndex('payment_ledger_owner_idx').on('payment_ledger').columns(['owner_kind', 'owner_id', 'entry']).execute();
  await db.schema.createIndex('payment_ledger_owed_idx').on('payment_ledger').columns(['entry', 'status', 'next_try_ms']).execute();

  // 3. What the two refund tables and the owners' own columns knew, in the ledger.
  const insert = (row: Record<string, unknown>) =>
    db
      .insertInto('payment_ledger')
      .values(row)
      .onConflict((conflict) => conflict.doNothing())
      .execute();

  const rentalRefunds = (await db
    .selectFrom('rental_refunds')
    .select([
      'id',
      'booking_id as owner_id',
      'payment_id',
      'amount_paise',
      'currency',
      'reason',
      'of_paid',
      'status',
      'attempts',
      'last_error',
      'next_try_ms',
      'claimed_until_ms',
      'provider_refund_id',
      'created_at',
      'updated_at',
      'refunded_at',
    ])
    .orderBy('id')
    .execute()) as OldRefund[];
  const reservationRefunds = (await db
    .selectFrom('reservation_refunds')
    .select([
      'id',
      'reservation_id as owner_id',
      'payment_id',
      'amount_paise',
      'currency',
      'reason',
      'of_paid',
      'status',
      'attempts',
      'last_error',
      'next_try_ms',
      'claimed_until_ms',
      'provider_refund_id',
      'created_at',
      'updated_at',
      'refunded_at',
    ])
    .orderBy('id')
    .execute()) as OldRefund[];

  // Charges: each owner's Checkout order. A booking's is what its quote made payable online.
  const bookings = (await db
    .selectFrom('rental_bookings')
    .select(['id', 'payment_order_id', 'payment_id', 'quote', 'amount_paid_paise', 'created_at', 'updated_at'])
    .where('kind', '=', 'booking')
    .where('payment_order_id', 'is not', null)
    .orderBy('id')
    .execute()) as Array<{
    id: number;
    payment_order_id: string;
    payment_id: string | null;
    quote: string;
    amount_paid_paise: number | string;
    created_at: string;
    updated_at: string;
  }>;
  for (const booking of bookings) {
    const payable = Number((JSON.parse(booking.quote || '{}') as { payableNow?: unknown }).payableNow ?? 0);
    await insert({
      owner_kind: 'rental-booking',
      owner_id: booking.id,
      entry: 'charge',
      order_id: booking.payment_order_id,
      amount_paise: rupeesToPaise(Number.isFinite(payable) ? payable : 0),
      currency: 'INR',
      status: 'open',
      created_at: booking.created_at,
      updated_at: booking.created_at,
    });
    if (booking.payment_id) {
      const late = rentalRefunds.some((refund) => refund.payment_id === booking.payment_id && refund.reason === 'hold lapsed');
      await insert({
        owner_kind: 'rental-booking',
        owner_id: booking.id,
        entry: 'payment',
        order_id: booking.payment_order_id,
        payment_id: booking.payment_id,
        amount_paise: rupeesToPaise(Number.isFinite(payable) ? payable : 0),
        currency: 'INR',
        status: late ? 'late' : 'accepted',
        created_at: booking.updated_at,
        updated_at: booking.updated_at,
      });
    }
  }
  const reservations = (await db
    .selectFrom('car_reservations')
    .select(['id', 'payment_order_id', 'payment_id', 'amount_paise', 'created_at', 'updated_at'])
    .where('payment_order_id', 'is not', null)
    .orderBy('id')
    .execute()) as Array<{
    id: number;
    payment_order_id: string;
    payment_id: string | null;
    amount_paise: number | string;
    created_at: string;
    updated_at: string;
  }>;
  for (const reservation of reservations) {
    await insert({
      owner_kind: 'reservation',
      owner_id: reservation.id,
      entry: 'charge',
      order_id: reservation.payment_order_id,
      amount_paise: Number(reservation.amount_paise),
      currency: 'INR',
      status: 'open',
      created_at: reservation.created_at,
      updated_at: reservation.created_at,
    });
    if (reservation.payment_id) {
      const taken = reservationRefunds.some((refund) => refund.payment_id === reservation.payment_id && refund.reason === 'taken');
      await insert({
        owner_kind: 'reservation',
        owner_id: reservation.id,
        entry: 'payment',
        order_id: reservation.payment_order_id,
        payment_id: reservation.payment_id,
        amount_paise: Number(reservation.amount_paise),
        currency: 'INR',
        status: taken ? 'taken' : 'accepted',
        created_at: reservation.updated_at,
        updated_at: reservation.updated_at,
      });
    }
  }

  // Refunds, each with the key it was asked with; a payment an owner did not accept is also that payment's settlement.
  const copy = async (kind: 'rental-booking' | 'reservation', keyName: string, refunds: OldRefund[]) => {
    for (const refund of refunds) {
      await insert({
        owner_kind: kind,
        owner_id: refund.owner_id,
        entry: 'refund',
        payment_id: refund.payment_id,
        amount_paise: Number(refund.amount_paise),
        currency: refund.currency,
        status: refund.status,
        reason: refund.reason,
        of_paid: Number(refund.of_paid),
        attempts: Number(refund.attempts),
        last_error: refund.last_error,
        next_try_ms: refund.next_try_ms,
        claimed_until_ms: refund.claimed_until_ms,
        provider_refund_id: refund.provider_refund_id,
        refund_key: `${keyName}-refund-${refund.id}`,
        created_at: refund.created_at,
        updated_at: refund.updated_at,
        refunded_at: refund.refunded_at,
      });
      if (refund.reason === 'not accepted') {
        await insert({
          owner_kind: kind,
          owner_id: refund.owner_id,
          entry: 'payment',
          payment_id: refund.payment_id,
          amount_paise: Number(refund.amount_paise),
          currency: refund.currency,
          status: 'not accepted',
          created_at: refund.created_at,
          updated_at: refund.created_at,
        });
      }
    }
  };
  await copy('rental-booking', 'rental', rentalRefunds);
  await copy('reservation', 'reservation', reservationRefunds);

  await db.schema.dropTable('rental_refunds').execute();
  await db.schema.dropTable('reservation_refunds').execute();
}
