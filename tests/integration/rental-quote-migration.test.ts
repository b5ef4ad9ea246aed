import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { getBooking } from '../../server/rentals/bookings.ts';
import { openTestDatabase, vehicleRow, type TestDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * Migration 018 on bookings made before it (decision 066): each stored quote gains its lines and
 * keeps what was charged; an online booking's deposit stays inside its online payment (and so goes
 * back through Razorpay), a pay-at-pickup booking's is due at pickup, on the project's database.
 */

const { dialect, url } = sharedServer();

describe.skipIf(!url)('migration 018 gives stored quotes their lines', () => {
  let opened: TestDatabase;

  beforeAll(async () => {
    opened = await openTestDatabase(dialect, { upTo: '017-rental-refunds' });
    const { db } = opened.database;
    const now = new Date().toISOString();
    const category = await db
      .insertInto('categories')
      .values({ name: 'Rental Cars', slug: 'rental-cars', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const car = await db
      .insertInto('vehicles')
      .values(vehicleRow({ category_id: Number(category.id), name: 'Old Swift', purpose: 'rental' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const old = (payment: string, deliveryFee: number, week: number) => ({
      kind: 'booking' as const,
      vehicle_id: Number(car.id),
      status: 'confirmed',
      starts_ms: 1_800_000_000_000 + week * 7 * 24 * 3_600_000,
      ends_ms: 1_800_000_000_000 + week * 7 * 24 * 3_600_000 + 26 * 3_600_000,
      held_until_ms: 1_800_000_000_000 + week * 7 * 24 * 3_600_000 + 28 * 3_600_000,
      payment_method: payment,
      quote: JSON.stringify({
        hours: 26,
        rent: 2100,
        deliveryFee,
        deposit: 5000,
        kmIncluded: 480,
        extraKmRate: 12,
        total: 2100 + deliveryFee + 5000,
        payableNow: payment === 'razorpay' ? 2100 + deliveryFee + 5000 : 0,
      }),
      created_at: now,
      updated_at: now,
    });
    await db
      .insertInto('rental_bookings')
      .values([old('razorpay', 500, 0), old('pay-at-pickup', 0, 1)])
      .execute();
    await migrateToLatest(opened.database);
  }, 120_000);

  afterAll(async () => {
    await opened?.cleanup();
  });

  it('rent and delivery become lines, no GST; what was charged stays what is owed', async () => {
    const online = (await getBooking(opened.database, 1))!;
    expect(online).toMatchObject({ protection: false, deliveryAddress: '' });
    expect(online.quote).toEqual({
      hours: 26,
      rent: 2100,
      protection: 0,
      deliveryFee: 500,
      gstPercent: 0,
      gst: 0,
      lines: [
        { kind: 'rent', label: 'Rent, 26 hours (1 day 2 hours)', amount: 2100 },
        { kind: 'delivery', label: 'Delivery to your address', amount: 500 },
      ],
      total: 2600,
      deposit: 5000,
      depositAt: 'online',
      kmIncluded: 480,
      extraKmRate: 12,
      payableNow: 7600,
      dueAtPickup: 0,
    });
    const atPickup = (await getBooking(opened.database, 2))!;
    expect(atPickup.quote).toMatchObject({ lines: [{ kind: 'rent', amount: 2100 }], total: 2100, depositAt: 'pickup', payableNow: 0, dueAtPickup: 7100 });
  });
});
