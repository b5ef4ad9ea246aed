import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { refundIdempotencyKey } from '../../server/payments/refunds.ts';
import { getBooking } from '../../server/rentals/bookings.ts';
import { findReservation } from '../../server/reservations/store.ts';
import { openTestDatabase, vehicleRow, type TestDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * Migration 036 on a database as it was at 035 (docs/decisions/106), on the project's database:
 * a rental booking's stored rupees become paise and read back as the same rupees; the two refund
 * tables become ledger rows with their owners, each refund keeping the idempotency key it was
 * asked with; the owners' orders become charges (the webhook's routing) and their settled
 * payments payment rows (a replay settles nothing); the old tables are gone.
 */

const { dialect, url } = sharedServer();
const NOW = '2026-11-01T10:00:00.000Z';
const refund = { currency: 'INR', attempts: 0, last_error: null, next_try_ms: null, claimed_until_ms: null, created_at: NOW, updated_at: NOW };

describe.skipIf(!url)('migration 036: rental bookings in paise, one payments ledger', () => {
  let opened: TestDatabase;
  const ids = { booking: 0, unpaid: 0, reservation: 0 };

  beforeAll(async () => {
    opened = await openTestDatabase(dialect, { upTo: '035-car-model-additions' });
    // The tables as 035 left them: columns later code no longer names.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = opened.database.db as unknown as Kysely<any>;
    const category = await db
      .insertInto('categories')
      .values({ name: 'Rental Cars', slug: 'rental-cars', created_at: NOW, updated_at: NOW })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rental = await db
      .insertInto('vehicles')
      .values(vehicleRow({ category_id: Number(category.id), name: 'Old Dzire', purpose: 'rental' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const forSale = await db
      .insertInto('vehicles')
      .values(vehicleRow({ category_id: Number(category.id), name: 'Old Creta', purpose: 'sale' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const quote = JSON.stringify({
      hours: 24,
      rent: 1800,
      protection: 0,
      deliveryFee: 0,
      gstPercent: 18,
      gst: 324,
      lines: [],
      total: 2124,
      deposit: 5000,
      depositAt: 'pickup',
      kmIncluded: 300,
      extraKmRate: 12,
      payableNow: 2124,
      dueAtPickup: 5000,
    });
    const booking = (week: number, values: Record<string, unknown>) => ({
      kind: 'booking',
      vehicle_id: Number(rental.id),
      status: 'closed',
      starts_ms: 1_800_000_000_000 + week * 7 * 24 * 3_600_000,
      ends_ms: 1_800_000_000_000 + week * 7 * 24 * 3_600_000 + 24 * 3_600_000,
      held_until_ms: 1_800_000_000_000 + week * 7 * 24 * 3_600_000 + 26 * 3_600_000,
      payment_method: 'razorpay',
      quote,
      created_at: NOW,
      updated_at: NOW,
      ...values,
    });
    const paid = await db
      .insertInto('rental_bookings')
      .values(
        booking(0, {
          amount_paid: 7124,
          amount_refunded: 2124,
          deposit_refund: 4000,
          payment_order_id: 'order_Old0000000001',
          payment_id: 'pay_Old0000000001',
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    const unpaid = await db
      .insertInto('rental_bookings')
      .values(booking(1, { status: 'requested' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.booking = Number(paid.id);
    ids.unpaid = Number(unpaid.id);
    const reservation = await db
      .insertInto('car_reservations')
      .values({
        user_id: 'u-1',
        vehicle_id: Number(forSale.id),
        vehicle_title: 'Old Creta',
        name: 'Asha',
        phone: '+919812345678',
        email: 'asha@example.in',
        amount_paise: 500_000,
        hold_hours: 72,
        status: 'cancelled',
        payment_order_id: 'order_Old0000000002',
        payment_id: 'pay_Old0000000002',
        pay_by_ms: 1_800_000_000_000,
        held_until_ms: null,
        amount_refunded_paise: 0,
        created_at: NOW,
        updated_at: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.reservation = Number(reservation.id);
    // Both refund tables start their ids at 1: the ledger keeps them apart by the key each was asked with.
    await db
      .insertInto('rental_refunds')
      .values([
        {
          ...refund,
          booking_id: ids.booking,
          payment_id: 'pay_Old0000000001',
          amount_paise: 212_400,
          reason: 'cancelled',
          of_paid: 1,
          status: 'refunded',
          provider_refund_id: 'rfnd_Old1',
          refunded_at: NOW,
        },
        {
          ...refund,
          booking_id: ids.booking,
          payment_id: 'pay_Old0000000001',
          amount_paise: 400_000,
          reason: 'deposit',
          of_paid: 1,
          status: 'owed',
          attempts: 2,
          last_error: 'Razorpay is not answering properly',
          provider_refund_id: null,
          refunded_at: null,
        },
        {
          ...refund,
          booking_id: ids.booking,
          payment_id: 'pay_Old0000000009',
          amount_paise: 100,
          reason: 'not accepted',
          of_paid: 0,
          status: 'refunded',
          provider_refund_id: 'rfnd_Old2',
          refunded_at: NOW,
        },
      ])
      .execute();
    await db
      .insertInto('reservation_refunds')
      .values({
        ...refund,
        reservation_id: ids.reservation,
        payment_id: 'pay_Old0000000002',
        amount_paise: 500_000,
        reason: 'cancelled',
        of_paid: 1,
        status: 'owed',
        provider_refund_id: null,
        refunded_at: null,
      })
      .execute();
    await migrateToLatest(opened.database);
  }, 120_000);

  afterAll(async () => {
    await opened?.cleanup();
  });

  it("turns the booking's stored rupees into paise, and the booking still reads the same rupees", async () => {
    const stored = await opened.database.db
      .selectFrom('rental_bookings')
      .select(['amount_paid_paise', 'amount_refunded_paise', 'deposit_refund_paise'])
      .where('id', '=', ids.booking)
      .executeTakeFirstOrThrow();
    expect({ paid: Number(stored.amount_paid_paise), refunded: Number(stored.amount_refunded_paise), deposit: Number(stored.deposit_refund_paise) }).toEqual({
      paid: 712_400,
      refunded: 212_400,
      deposit: 400_000,
    });
    const untouched = await opened.database.db
      .selectFrom('rental_bookings')
      .select(['amount_paid_paise', 'amount_refunded_paise', 'deposit_refund_paise'])
      .where('id', '=', ids.unpaid)
      .executeTakeFirstOrThrow();
    expect({ paid: Number(untouched.amount_paid_paise), refunded: Number(untouched.amount_refunded_paise), deposit: untouched.deposit_refund_paise }).toEqual({
      paid: 0,
      refunded: 0,
      deposit: null,
    });
    // Whole rupees in the booking's answers, as before (the API's fields keep their meaning).
    expect(await getBooking(opened.database, ids.booking)).toMatchObject({
      amountPaid: 7124,
      amountRefunded: 2124,
      depositRefund: 4000,
      refundOwedPaise: 400_000,
      refundedOnlinePaise: 212_400,
    });
    expect(await findReservation(opened.database, ids.reservation)).toMatchObject({ amount: 5000, refundOwed: 5000 });
  });

  it('copies both refund tables into the ledger with their owners and keys, the orders as charges, the payments as settled; the old tables are gone', async () => {
    const rows = await opened.database.db.selectFrom('payment_ledger').selectAll().orderBy('id').execute();
    const summary = rows.map((row) => ({
      owner: `${row.owner_kind} ${Number(row.owner_id)}`,
      entry: row.entry,
      order: row.order_id,
      payment: row.payment_id,
      paise: Number(row.amount_paise),
      status: row.status,
      reason: row.reason,
      key: row.refund_key,
    }));
    const booking = `rental-booking ${ids.booking}`;
    const reservation = `reservation ${ids.reservation}`;
    expect(summary).toEqual([
      { owner: booking, entry: 'charge', order: 'order_Old0000000001', payment: null, paise: 212_400, status: 'open', reason: null, key: null },
      {
        owner: booking,
        entry: 'payment',
        order: 'order_Old0000000001',
        payment: 'pay_Old0000000001',
        paise: 212_400,
        status: 'accepted',
        reason: null,
        key: null,
      },
      { owner: reservation, entry: 'charge', order: 'order_Old0000000002', payment: null, paise: 500_000, status: 'open', reason: null, key: null },
      {
        owner: reservation,
        entry: 'payment',
        order: 'order_Old0000000002',
        payment: 'pay_Old0000000002',
        paise: 500_000,
        status: 'accepted',
        reason: null,
        key: null,
      },
      {
        owner: booking,
        entry: 'refund',
        order: null,
        payment: 'pay_Old0000000001',
        paise: 212_400,
        status: 'refunded',
        reason: 'cancelled',
        key: 'rental-refund-1',
      },
      { owner: booking, entry: 'refund', order: null, payment: 'pay_Old0000000001', paise: 400_000, status: 'owed', reason: 'deposit', key: 'rental-refund-2' },
      {
        owner: booking,
        entry: 'refund',
        order: null,
        payment: 'pay_Old0000000009',
        paise: 100,
        status: 'refunded',
        reason: 'not accepted',
        key: 'rental-refund-3',
      },
      { owner: booking, entry: 'payment', order: null, payment: 'pay_Old0000000009', paise: 100, status: 'not accepted', reason: null, key: null },
      {
        owner: reservation,
        entry: 'refund',
        order: null,
        payment: 'pay_Old0000000002',
        paise: 500_000,
        status: 'owed',
        reason: 'cancelled',
        key: 'reservation-refund-1',
      },
    ]);
    const owedDeposit = rows.find((row) => row.reason === 'deposit')!;
    expect({ attempts: Number(owedDeposit.attempts), lastError: owedDeposit.last_error }).toEqual({
      attempts: 2,
      lastError: 'Razorpay is not answering properly',
    });

    // An owed refund is asked again with the very key it was first asked with before 036.
    const owedToken = rows.find((row) => row.owner_kind === 'reservation' && row.entry === 'refund')!;
    expect(
      refundIdempotencyKey({
        installationId: 'site-1',
        ownerKind: 'reservation',
        refundId: Number(owedToken.id),
        refundKey: owedToken.refund_key,
        paymentId: 'pay_Old0000000002',
      }),
    ).toBe('reservation-refund-1-pay_Old0000000002-site-1');
    expect(refundIdempotencyKey({ installationId: 'site-1', ownerKind: 'rental-booking', refundId: 42, paymentId: 'pay_New1' })).toBe(
      'ledger-rental-booking-42-pay_New1-site-1',
    );

    const tables = await opened.database.db.introspection.getTables();
    const names = tables.map((table) => table.name);
    expect(names).toContain('payment_ledger');
    expect(names).not.toContain('rental_refunds');
    expect(names).not.toContain('reservation_refunds');
  });

  it('the ledger keeps one settlement per payment and one refund per payment and reason, by its unique keys', async () => {
    const { db } = opened.database;
    const row = {
      owner_kind: 'rental-booking' as const,
      owner_id: ids.booking,
      order_id: null,
      amount_paise: 1,
      currency: 'INR',
      reason: null,
      last_error: null,
      next_try_ms: null,
      claimed_until_ms: null,
      provider_refund_id: null,
      refund_key: null,
      created_at: NOW,
      updated_at: NOW,
      refunded_at: null,
    };
    await expect(
      db
        .insertInto('payment_ledger')
        .values({ ...row, entry: 'payment', payment_id: 'pay_Old0000000001', status: 'accepted' })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('payment_ledger')
        .values({ ...row, entry: 'refund', payment_id: 'pay_Old0000000001', status: 'owed', reason: 'cancelled' })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('payment_ledger')
        .values({ ...row, entry: 'charge', order_id: 'order_Old0000000002', payment_id: null, status: 'open' })
        .execute(),
    ).rejects.toThrow();
    // An unknown owner kind is refused by the database too.
    await expect(
      db
        .insertInto('payment_ledger')
        .values({ ...row, owner_kind: 'sale-invoice' as never, entry: 'charge', order_id: 'order_New1', payment_id: null, status: 'open' })
        .execute(),
    ).rejects.toThrow();
  });
});
