import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rupeesToPaise } from '../../app/lib/money.ts';
import { HOUR_MS } from '../../app/features/rentals/rental-price.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../../server/errors.ts';
import { createBooking, getBooking } from '../../server/rentals/bookings.ts';
import {
  cancelBooking,
  cancellationPreview,
  confirmBooking,
  expireHolds,
  handOver,
  markNoShow,
  previewReturn,
  refuseBooking,
  returnCar,
  sendDueReminders,
  settleDeposit,
  type RentalDeskServices,
} from '../../server/rentals/lifecycle.ts';
import { openTestDatabase, type TestDatabase } from '../support/database.ts';
import { addFleetCar, addRenter, deskServices, movableClock, outboxFor, fullChecklist } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * A booking's life on the project's database: confirmation needs an approved licence and a
 * free car, handover and return compute the charges, settling closes it; each cancellation
 * window refunds what the policy says; lapsed holds expire; the day-before reminder goes once.
 */

const { dialect } = sharedServer();
const DAY = 24 * HOUR_MS;
const ADMIN = 'admin@gaadibazaar.in';

let opened: TestDatabase;
let services: RentalDeskServices;
const startMs = Date.now();
const clock = movableClock(startMs);
const base = Math.ceil((startMs + 5 * DAY) / DAY) * DAY + 4.5 * HOUR_MS;

beforeAll(async () => {
  opened = await openTestDatabase(dialect);
  services = deskServices(opened.database, clock);
});
afterAll(async () => opened?.cleanup());

async function newBooking(options: { licence?: 'pending' | 'approved'; fromMs?: number; hours?: number; carName?: string } = {}) {
  const carId = await addFleetCar(services, options.carName ?? `Life Swift ${Math.random().toString(36).slice(2, 7)}`);
  const renter = await addRenter(opened.database, { licence: options.licence ?? 'approved' });
  const fromMs = options.fromMs ?? base;
  const booking = await createBooking(services, {
    userId: renter.userId,
    vehicleId: carId,
    fromMs,
    toMs: fromMs + (options.hours ?? 51) * HOUR_MS,
    pickup: 'hub',
  });
  return { carId, renter, booking };
}

describe(`the life of a booking on ${dialect}`, () => {
  it('confirm (approved licence only) → handover → return with 50 km over the allowance and a late hour → settle → closed, with the closing statement', async () => {
    clock.set(startMs);
    const { renter, booking } = await newBooking({ licence: 'pending' });
    await expect(confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN })).rejects.toThrow(
      "The renter's driving licence is not approved yet. Review it first.",
    );
    await opened.database.db.updateTable('driving_licences').set({ status: 'approved' }).where('user_id', '=', renter.userId).execute();
    const confirmed = await confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN });
    expect(confirmed).toMatchObject({ status: 'confirmed', holdExpiresAt: null });
    await expect(confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN })).rejects.toBeInstanceOf(ConflictError);
    const confirmation = (await outboxFor(opened.database, renter.email)).at(-1)!;
    expect(confirmation.subject).toBe(`Your ${booking.carName} is booked (booking #${booking.id})`);
    // The receipt carries the booking's lines, the deposit apart, and the terms in the words of the terms page.
    for (const line of [
      'Rent, 51 hours (2 days 3 hours): ₹4,050',
      'GST 18%: ₹729',
      'Total price: ₹4,779',
      'Refundable security deposit (not part of the price): ₹5,000',
      'At pickup: total and deposit: ₹9,779',
    ])
      expect(confirmation.body).toContain(line);
    expect(confirmation.body).toContain(
      'Deposit return: The deposit comes back after the return, less any charge for extra km, late return, fuel or damage, within 7 working days',
    );
    expect((await outboxFor(opened.database, renter.phone)).at(-1)?.body).toContain(`booking #${booking.id} confirmed`);

    clock.set(booking.fromMs);
    const cash = { amountPaise: 977_900, method: 'cash', reference: '' };
    await expect(
      handOver(services, { bookingId: booking.id, odometerOut: -1, fuelOut: 8, checklist: await fullChecklist(), actorEmail: ADMIN }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    await expect(
      handOver(services, { bookingId: booking.id, odometerOut: 10_000, fuelOut: 9, checklist: await fullChecklist(), actorEmail: ADMIN }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    const active = await handOver(services, {
      bookingId: booking.id,
      odometerOut: 10_000,
      fuelOut: 8,
      checklist: await fullChecklist(),
      collected: cash,
      actorEmail: ADMIN,
    });
    expect(active).toMatchObject({
      status: 'active',
      odometerOut: 10_000,
      fuelOut: 8,
      amountPaid: 4050 + 729 + 5000,
      handedOverMs: booking.fromMs,
      handoverMoney: { paise: 977_900, method: 'cash', reference: null },
    });

    const returnedMs = booking.toMs + 1.5 * HOUR_MS;
    const input = { bookingId: booking.id, odometerIn: 10_000 + 720 + 50, fuelIn: 8, returnedMs, fuelCharge: 0 };
    clock.set(returnedMs + 10 * 60_000);
    await expect(previewReturn(services, { ...input, odometerIn: 9_000 })).rejects.toThrow('The odometer cannot read less than at handover (10000 km).');
    const preview = await previewReturn(services, input);
    expect(preview).toMatchObject({ extraKm: 50, extraKmCharge: 600, lateHours: 1, lateFee: 200, total: 800, depositRefund: 4200 });
    const returned = await returnCar(services, { ...input, checklist: await fullChecklist(), actorEmail: ADMIN });
    expect(returned).toMatchObject({ status: 'returned', charges: preview, depositRefund: 4200 });
    await expect(returnCar(services, { ...input, checklist: await fullChecklist(), actorEmail: ADMIN })).rejects.toBeInstanceOf(ConflictError);

    await expect(settleDeposit(services, { bookingId: booking.id, depositRefund: 6000, actorEmail: ADMIN })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(settleDeposit(services, { bookingId: booking.id, actorEmail: ADMIN })).rejects.toThrow(
      'Please choose how the deposit was returned: cash, UPI or card.',
    );
    const closed = await settleDeposit(services, { bookingId: booking.id, money: { amountPaise: null, method: 'cash', reference: '' }, actorEmail: ADMIN });
    expect(closed).toMatchObject({
      status: 'closed',
      depositRefund: 4200,
      amountRefunded: 4200,
      settlement: { direction: 'returned', paise: 420_000, method: 'cash', reference: null },
    });
    const statement = (await outboxFor(opened.database, renter.email)).at(-1)!;
    expect(statement.subject).toBe(`Closing statement: ${booking.carName} (booking #${booking.id})`);
    expect(statement.body).toContain('Extra km: 50 km × ₹12 = ₹600');
    expect(statement.body).toContain('Deposit refund: ₹4,200');
    expect(statement.body).toContain('₹4,200 returned to you in cash at the return.');
    expect(statement.body).not.toContain('payment method');
    const audit = await opened.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'rental-booking')
      .where('entity_id', '=', String(booking.id))
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['confirm', 'handover', 'return', 'settle']);
  });

  it('refuses a requested booking with a reason the renter is told, and frees the car', async () => {
    clock.set(startMs);
    const { carId, renter, booking } = await newBooking();
    const refused = await refuseBooking(services, { bookingId: booking.id, reason: 'The car is in the workshop', actorEmail: ADMIN });
    expect(refused.status).toBe('refused');
    expect((await outboxFor(opened.database, renter.email)).at(-1)?.body).toContain('The car is in the workshop');
    const again = await createBooking(services, { userId: renter.userId, vehicleId: carId, fromMs: booking.fromMs, toMs: booking.toMs, pickup: 'hub' });
    expect(again.status).toBe('requested');
  });

  it('cancels by the policy: free until 24 h before pickup, one day kept within 24 h, not at all once handed over', async () => {
    const pickupMs = base + 10 * DAY;
    const paid = async (id: number) => {
      // What an online payment records (rent and 18% GST; the deposit is paid at pickup); the policy is on what was paid.
      await opened.database.db
        .updateTable('rental_bookings')
        .set({ amount_paid_paise: rupeesToPaise(4050 + 729) })
        .where('id', '=', id)
        .execute();
    };
    clock.set(startMs);
    const free = await newBooking({ fromMs: pickupMs });
    await paid(free.booking.id);
    clock.set(pickupMs - 24 * HOUR_MS - 60_000);
    expect(await cancellationPreview(services, { userId: free.renter.userId, bookingId: free.booking.id })).toEqual({
      window: 'free',
      rentKept: 0,
      refund: 4779,
    });
    await expect(cancellationPreview(services, { userId: 'someone-else', bookingId: free.booking.id })).rejects.toBeInstanceOf(NotFoundError);
    const freeResult = await cancelBooking(services, { userId: free.renter.userId, bookingId: free.booking.id });
    expect(freeResult.refund.refund).toBe(4779);
    expect(freeResult.booking).toMatchObject({ status: 'cancelled', amountRefunded: 4779 });
    expect((await outboxFor(opened.database, free.renter.email)).at(-1)?.body).toContain(
      'Refunded ₹4,779 to your card/UPI (the payment method you paid with); your bank shows it within 7 working days.',
    );

    clock.set(startMs);
    const late = await newBooking({ fromMs: pickupMs });
    await paid(late.booking.id);
    clock.set(pickupMs - 3 * HOUR_MS);
    const lateResult = await cancelBooking(services, { userId: late.renter.userId, bookingId: late.booking.id });
    expect(lateResult.refund).toEqual({ window: 'late', rentKept: 1800, refund: 4779 - 1800 - 324 });

    clock.set(startMs);
    const after = await newBooking({ fromMs: pickupMs });
    await paid(after.booking.id);
    clock.set(pickupMs + HOUR_MS);
    expect(await cancellationPreview(services, { userId: after.renter.userId, bookingId: after.booking.id })).toEqual({
      window: 'after-pickup',
      rentKept: 4050,
      refund: 0,
    });

    clock.set(startMs);
    const driving = await newBooking({ fromMs: pickupMs });
    await confirmBooking(services, { bookingId: driving.booking.id, actorEmail: ADMIN });
    clock.set(pickupMs);
    await handOver(services, {
      bookingId: driving.booking.id,
      odometerOut: 100,
      fuelOut: 8,
      checklist: await fullChecklist(),
      collected: { amountPaise: 977_900, method: 'upi', reference: '412345678901' },
      actorEmail: ADMIN,
    });
    await expect(cancelBooking(services, { userId: driving.renter.userId, bookingId: driving.booking.id })).rejects.toThrow(
      `Booking #${driving.booking.id} is active; it cannot be cancelled now.`,
    );
    clock.set(startMs);
  });

  it('a no-show keeps the rent and its GST; protection paid for comes back (the deposit was never taken)', async () => {
    clock.set(startMs);
    const { booking } = await newBooking({ fromMs: base + 20 * DAY });
    await confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN });
    await expect(markNoShow(services, { bookingId: booking.id, actorEmail: ADMIN })).rejects.toThrow('The pickup time has not come yet.');
    // Paid as if protection (3 days at ₹250, with its GST) had been chosen with the rent and its GST.
    await opened.database.db
      .updateTable('rental_bookings')
      .set({ amount_paid_paise: rupeesToPaise(4779 + 885) })
      .where('id', '=', booking.id)
      .execute();
    clock.set(booking.fromMs + 2 * HOUR_MS);
    const marked = await markNoShow(services, { bookingId: booking.id, actorEmail: ADMIN });
    expect(marked).toMatchObject({ status: 'no_show', amountRefunded: 885 });
    clock.set(startMs);
  });

  it('lets unpaid online holds go after 30 minutes and unconfirmed pay-at-pickup ones after 24 hours', async () => {
    clock.set(startMs);
    const carId = await addFleetCar(services, 'Expiry Swift');
    const renter = await addRenter(opened.database);
    const fromMs = base + 30 * DAY;
    const online = await createBooking(services, {
      userId: renter.userId,
      vehicleId: carId,
      fromMs,
      toMs: fromMs + 5 * HOUR_MS,
      pickup: 'hub',
      paymentMethod: 'razorpay',
    });
    const atPickup = await createBooking(services, {
      userId: renter.userId,
      vehicleId: carId,
      fromMs: fromMs + DAY,
      toMs: fromMs + DAY + 5 * HOUR_MS,
      pickup: 'hub',
    });
    clock.set(startMs + 29 * 60_000);
    expect(await expireHolds(services)).toBe(0);
    // Still held: another renter cannot take the hours.
    const other = await addRenter(opened.database);
    await expect(createBooking(services, { userId: other.userId, vehicleId: carId, fromMs, toMs: fromMs + 5 * HOUR_MS, pickup: 'hub' })).rejects.toBeInstanceOf(
      ConflictError,
    );
    clock.set(startMs + 31 * 60_000);
    // A lapsed hold no longer blocks a new booking, even before the job has run.
    const taken = await createBooking(services, { userId: other.userId, vehicleId: carId, fromMs, toMs: fromMs + 5 * HOUR_MS, pickup: 'hub' });
    expect(taken.status).toBe('requested');
    expect((await getBooking(opened.database, online.id))!.status).toBe('expired');
    clock.set(startMs + 24 * HOUR_MS + 60_000);
    expect(await expireHolds(services)).toBeGreaterThanOrEqual(2);
    expect((await getBooking(opened.database, atPickup.id))!.status).toBe('expired');
    await expect(confirmBooking(services, { bookingId: atPickup.id, actorEmail: ADMIN })).rejects.toBeInstanceOf(ConflictError);
    clock.set(startMs);
  });

  it('sends the day-before reminder once', async () => {
    clock.set(startMs);
    const { renter, booking } = await newBooking({ fromMs: base + 40 * DAY });
    await confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN });
    // The pickup is at 10:00 am India time; 23 hours before is 11:00 am the day before.
    const subject = `Tomorrow, 10:00 am: your ${booking.carName} (booking #${booking.id})`;
    clock.set(booking.fromMs - 25 * HOUR_MS);
    await sendDueReminders(services);
    expect((await outboxFor(opened.database, renter.email)).filter((m) => m.subject.includes(': your '))).toHaveLength(0);
    clock.set(booking.fromMs - 23 * HOUR_MS);
    const [first, second] = await Promise.all([sendDueReminders(services), sendDueReminders(services)]);
    expect(first! + second!).toBeGreaterThanOrEqual(1);
    expect((await outboxFor(opened.database, renter.email)).filter((m) => m.subject === subject)).toHaveLength(1);
    expect((await outboxFor(opened.database, renter.phone)).filter((m) => m.body.includes('reminder'))).toHaveLength(1);
    clock.set(startMs);
  });

  it('says "Today" in the reminder of a pickup later the same day (India time), not "Tomorrow"', async () => {
    clock.set(startMs);
    // 6:00 pm India time, reminded at 9:00 am the same day.
    const { renter, booking } = await newBooking({ fromMs: base + 42 * DAY + 8 * HOUR_MS });
    await confirmBooking(services, { bookingId: booking.id, actorEmail: ADMIN });
    clock.set(booking.fromMs - 9 * HOUR_MS);
    expect(await sendDueReminders(services)).toBeGreaterThanOrEqual(1);
    const mail = (await outboxFor(opened.database, renter.email)).find((m) => m.subject.includes(`(booking #${booking.id})`) && m.subject.includes(': your '))!;
    expect(mail.subject).toBe(`Today, 6:00 pm: your ${booking.carName} (booking #${booking.id})`);
    expect(mail.body).toMatch(/^A reminder: your self-drive car is ready for you today at 6:00 pm\./);
    expect((await outboxFor(opened.database, renter.phone)).find((m) => m.body.includes('reminder'))?.body).toContain(`pickup: Today, 6:00 pm.`);
    clock.set(startMs);
  });
});
