import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../app/features/rentals/rental-price.ts';
import { CannotBookYetError, ConflictError, InvalidInputError, NotFoundError } from '../../server/errors.ts';
import { addBlock, carAvailability, createBooking, fleetAvailability, listBlocks, removeBlock, takenRanges } from '../../server/rentals/bookings.ts';
import { openTestDatabase, type TestDatabase } from '../support/database.ts';
import { addFleetCar, addRenter, movableClock, rentalServices, saveRentalSettings, swiftTerms } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import type { RentalServices } from '../../server/rentals/store.ts';

/**
 * Availability and new bookings on the project's database (SQLite or PostgreSQL): the range
 * rules, the renter rules, blocks and the turnaround buffer, and twenty requests for one car at
 * once of which exactly one wins (the database refuses the rest).
 */

const { dialect } = sharedServer();
const DAY = 24 * HOUR_MS;
/** Noon India time, three days from now: far enough for the minimum notice, inside the horizon. */
const base = Math.ceil((Date.now() + 3 * DAY) / DAY) * DAY + 6.5 * HOUR_MS;

let opened: TestDatabase;
let services: RentalServices;
const clock = movableClock(Date.now());

beforeAll(async () => {
  opened = await openTestDatabase(dialect);
  services = rentalServices(opened.database, clock);
});
afterAll(async () => opened?.cleanup());

describe(`booking a car on ${dialect}`, () => {
  it('twenty requests at once for overlapping hours of one car: exactly one is booked, the others are told it is not free', async () => {
    const carId = await addFleetCar(services, 'Race Swift');
    const renters = await Promise.all(Array.from({ length: 20 }, () => addRenter(opened.database)));
    const results = await Promise.allSettled(
      renters.map((renter, index) =>
        createBooking(services, {
          userId: renter.userId,
          vehicleId: carId,
          fromMs: base + (index % 5) * HOUR_MS,
          toMs: base + (10 + (index % 3)) * HOUR_MS,
          pickup: 'hub',
        }),
      ),
    );
    const booked = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(booked).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const failure of refused) {
      expect(failure.reason).toBeInstanceOf(ConflictError);
      expect((failure.reason as Error).message).toBe('This car is not free for those hours. Please pick other dates.');
    }
    const holds = await opened.database.db.selectFrom('rental_bookings').select('id').where('vehicle_id', '=', carId).execute();
    expect(holds).toHaveLength(1);
  });

  it('the database itself refuses an overlapping hold written past the services', async () => {
    const carId = await addFleetCar(services, 'Constraint Swift');
    const now = new Date().toISOString();
    const row = (status: string, fromMs: number, toMs: number) => ({
      kind: 'booking' as const,
      vehicle_id: carId,
      user_id: 'x',
      status,
      starts_ms: fromMs,
      ends_ms: toMs,
      held_until_ms: toMs,
      created_at: now,
      updated_at: now,
    });
    await opened.database.db
      .insertInto('rental_bookings')
      .values(row('confirmed', base, base + 10 * HOUR_MS))
      .execute();
    await expect(
      opened.database.db
        .insertInto('rental_bookings')
        .values(row('requested', base + 5 * HOUR_MS, base + 20 * HOUR_MS))
        .execute(),
    ).rejects.toThrow(/rental_bookings_no_overlap/);
    // Moving a row onto another's time is refused as well.
    const other = await opened.database.db
      .insertInto('rental_bookings')
      .values(row('requested', base + 30 * HOUR_MS, base + 40 * HOUR_MS))
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(
      opened.database.db
        .updateTable('rental_bookings')
        .set({ starts_ms: base + 2 * HOUR_MS })
        .where('id', '=', other.id)
        .execute(),
    ).rejects.toThrow(/rental_bookings_no_overlap/);
    // Rows that no longer hold the car do not count.
    await opened.database.db
      .insertInto('rental_bookings')
      .values(row('cancelled', base + 5 * HOUR_MS, base + 20 * HOUR_MS))
      .execute();
    await opened.database.db
      .insertInto('rental_bookings')
      .values(row('requested', base + 10 * HOUR_MS, base + 20 * HOUR_MS))
      .execute();
  });

  it('keeps the turnaround buffer between bookings and tells the next free time', async () => {
    const carId = await addFleetCar(services, 'Buffer Swift');
    const first = await addRenter(opened.database);
    const second = await addRenter(opened.database);
    const booking = await createBooking(services, { userId: first.userId, vehicleId: carId, fromMs: base, toMs: base + 51 * HOUR_MS, pickup: 'hub' });
    expect(booking).toMatchObject({
      status: 'requested',
      paymentMethod: 'pay-at-pickup',
      quote: { hours: 51, rent: 4050, deposit: 5000, kmIncluded: 720, payableNow: 0 },
    });
    expect(booking.from).toMatch(/\+05:30$/);
    // One hour after the return is inside the 2-hour buffer.
    await expect(
      createBooking(services, { userId: second.userId, vehicleId: carId, fromMs: base + 52 * HOUR_MS, toMs: base + 60 * HOUR_MS, pickup: 'hub' }),
    ).rejects.toBeInstanceOf(ConflictError);
    // Ending one hour before the next pickup is inside the buffer too.
    await expect(
      createBooking(services, { userId: second.userId, vehicleId: carId, fromMs: base - 10 * HOUR_MS, toMs: base - HOUR_MS, pickup: 'hub' }),
    ).rejects.toBeInstanceOf(ConflictError);
    const availability = await carAvailability(services, carId, { fromMs: base + 52 * HOUR_MS, toMs: base + 60 * HOUR_MS });
    expect(availability.available).toBe(false);
    expect(availability.nextFree).toBe(new Date(base + 53 * HOUR_MS + 5.5 * HOUR_MS).toISOString().slice(0, 19) + '+05:30');
    // Exactly at the end of the buffer is free.
    const after = await createBooking(services, {
      userId: second.userId,
      vehicleId: carId,
      fromMs: base + 53 * HOUR_MS,
      toMs: base + 60 * HOUR_MS,
      pickup: 'hub',
    });
    expect(after.status).toBe('requested');
    const taken = await takenRanges(services, carId, { fromMs: base - DAY, toMs: base + 5 * DAY });
    expect(taken.map((range) => [range.kind, range.fromMs - base, range.toMs - base])).toEqual([
      ['booking', 0, 53 * HOUR_MS],
      ['booking', 53 * HOUR_MS, 62 * HOUR_MS],
    ]);
  });

  it('respects blocks: no booking in a block, no block over a booking, and a removed block frees the car', async () => {
    const carId = await addFleetCar(services, 'Block Swift');
    const renter = await addRenter(opened.database);
    const block = await addBlock(services, {
      vehicleId: carId,
      fromMs: base + DAY,
      toMs: base + 2 * DAY,
      note: 'Servicing',
      actorEmail: 'admin@gaadibazaar.in',
    });
    expect((await listBlocks(opened.database, { fromMs: base, toMs: base + 3 * DAY, vehicleId: carId })).map((b) => b.note)).toEqual(['Servicing']);
    await expect(
      createBooking(services, { userId: renter.userId, vehicleId: carId, fromMs: base + DAY + 2 * HOUR_MS, toMs: base + DAY + 8 * HOUR_MS, pickup: 'hub' }),
    ).rejects.toBeInstanceOf(ConflictError);
    // A booking ending at the block's start plus the buffer overlaps it.
    await expect(
      createBooking(services, { userId: renter.userId, vehicleId: carId, fromMs: base + 10 * HOUR_MS, toMs: base + DAY - HOUR_MS, pickup: 'hub' }),
    ).rejects.toBeInstanceOf(ConflictError);
    const fleet = await fleetAvailability(services, { fromMs: base + DAY + 2 * HOUR_MS, toMs: base + DAY + 8 * HOUR_MS });
    const listed = fleet.find((car) => car.id === carId)!;
    expect(listed.available).toBe(false);
    expect(listed.nextFree).not.toBeNull();
    const booked = await createBooking(services, {
      userId: renter.userId,
      vehicleId: carId,
      fromMs: base + 3 * DAY,
      toMs: base + 3 * DAY + 6 * HOUR_MS,
      pickup: 'hub',
    });
    await expect(
      addBlock(services, { vehicleId: carId, fromMs: base + 3 * DAY + HOUR_MS, toMs: base + 4 * DAY, note: '', actorEmail: 'admin@gaadibazaar.in' }),
    ).rejects.toBeInstanceOf(ConflictError);
    await removeBlock(services, { blockId: block.id, actorEmail: 'admin@gaadibazaar.in' });
    await expect(removeBlock(services, { blockId: block.id, actorEmail: 'admin@gaadibazaar.in' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeBlock(services, { blockId: booked.id, actorEmail: 'admin@gaadibazaar.in' })).rejects.toBeInstanceOf(NotFoundError);
    const now = await createBooking(services, {
      userId: renter.userId,
      vehicleId: carId,
      fromMs: base + DAY + 2 * HOUR_MS,
      toMs: base + DAY + 8 * HOUR_MS,
      pickup: 'hub',
    });
    expect(now.status).toBe('requested');
    const audit = await opened.database.db.selectFrom('audit_log').select(['action', 'entity']).where('entity', '=', 'rental-block').execute();
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses ranges against the rules in force', async () => {
    const carId = await addFleetCar(services, 'Rules Swift');
    const renter = await addRenter(opened.database);
    const now = clock.now();
    const attempt = (fromMs: number, toMs: number) => createBooking(services, { userId: renter.userId, vehicleId: carId, fromMs, toMs, pickup: 'hub' });
    await expect(attempt(base + 5 * HOUR_MS, base)).rejects.toThrow('The return time must be after the pickup time.');
    await expect(attempt(now + HOUR_MS, now + 10 * HOUR_MS)).rejects.toThrow('Pickup must be at least 3 hours from now.');
    await expect(attempt(now + 91 * DAY, now + 92 * DAY)).rejects.toThrow('Cars can be booked up to 90 days ahead.');
    await saveRentalSettings(opened.database, { rentalMinNoticeHours: 0 });
    const soon = await attempt(now + 10 * 60 * 1000, now + 5 * HOUR_MS);
    expect(soon.status).toBe('requested');
    await saveRentalSettings(opened.database, { rentalMinNoticeHours: 3 });
  });

  it('refuses a renter who cannot book yet, with the reason', async () => {
    const carId = await addFleetCar(services, 'Renter Swift', { ...swiftTerms, minAge: 25 });
    const cases = [
      [await addRenter(opened.database, { phoneVerified: false }), 'phone'],
      [await addRenter(opened.database, { licence: null }), 'licence'],
      [await addRenter(opened.database, { licence: 'refused' }), 'licence-refused'],
      [await addRenter(opened.database, { dateOfBirth: '2004-01-01' }), 'age'],
    ] as const;
    for (const [renter, reason] of cases) {
      const error = await createBooking(services, { userId: renter.userId, vehicleId: carId, fromMs: base, toMs: base + 5 * HOUR_MS, pickup: 'hub' }).catch(
        (caught: unknown) => caught,
      );
      expect(error, reason).toBeInstanceOf(CannotBookYetError);
      expect((error as CannotBookYetError).reason).toBe(reason);
      expect((error as CannotBookYetError).status).toBe(422);
    }
    // A licence awaiting review may request a booking.
    const pending = await addRenter(opened.database, { licence: 'pending' });
    expect((await createBooking(services, { userId: pending.userId, vehicleId: carId, fromMs: base, toMs: base + 5 * HOUR_MS, pickup: 'hub' })).status).toBe(
      'requested',
    );
  });

  it('delivers only within the areas we visit, with the delivery fee', async () => {
    const carId = await addFleetCar(services, 'Delivery Swift');
    const hubOnly = await addFleetCar(services, 'Hub Swift', { ...swiftTerms, deliveryAvailable: false });
    const renter = await addRenter(opened.database);
    const range = { fromMs: base, toMs: base + 24 * HOUR_MS };
    await expect(createBooking(services, { userId: renter.userId, vehicleId: carId, ...range, pickup: 'delivery', pinCode: '110001' })).rejects.toThrow(
      "We don't visit 110001 yet. Please come to our hub at Andheri East hub.",
    );
    await expect(createBooking(services, { userId: renter.userId, vehicleId: carId, ...range, pickup: 'delivery', pinCode: '12' })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    await expect(
      createBooking(services, { userId: renter.userId, vehicleId: hubOnly, ...range, pickup: 'delivery', pinCode: '400069' }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    await expect(createBooking(services, { userId: renter.userId, vehicleId: carId, ...range, pickup: 'delivery', pinCode: '400069' })).rejects.toThrow(
      'Please enter the address to deliver the car to.',
    );
    const booking = await createBooking(services, {
      userId: renter.userId,
      vehicleId: carId,
      ...range,
      pickup: 'delivery',
      pinCode: '400069',
      deliveryAddress: ' 12 Marol Road, Andheri East ',
    });
    // Rent 1,800 and delivery 500 with 18% GST; the deposit stays apart.
    expect(booking).toMatchObject({
      pickup: 'delivery',
      pinCode: '400069',
      deliveryAddress: '12 Marol Road, Andheri East',
      quote: { rent: 1800, deliveryFee: 500, gst: 414, total: 2714, deposit: 5000 },
    });
  });

  it('does not book a car that is not commercially registered or not in the fleet', async () => {
    const privateCar = await addFleetCar(services, 'Private Swift', { ...swiftTerms, commercialRegistration: false });
    const renter = await addRenter(opened.database);
    await expect(
      createBooking(services, { userId: renter.userId, vehicleId: privateCar, fromMs: base, toMs: base + 5 * HOUR_MS, pickup: 'hub' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      createBooking(services, { userId: renter.userId, vehicleId: 2_147_483_647, fromMs: base, toMs: base + 5 * HOUR_MS, pickup: 'hub' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const fleet = await fleetAvailability(services, null);
    expect(fleet.some((car) => car.id === privateCar)).toBe(false);
  });
});
