import { describe, expect, it } from 'vitest';
import { reserveLabel, timeLeft } from '../../app/features/reservations/reservations.ts';
import { isLiveReservationClash } from '../../server/reservations/reservations.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('reserving a car (decision 080)', () => {
  it('says the token in Indian grouping on the button', () => {
    expect(reserveLabel(5000)).toBe('Reserve for ₹5,000, fully refundable');
    expect(reserveLabel(100_000)).toBe('Reserve for ₹1,00,000, fully refundable');
  });

  it('says the time left in days, hours or minutes, and "ended" once it has', () => {
    const now = Date.UTC(2026, 10, 27, 6, 0);
    expect(timeLeft(now + 72 * HOUR, now)).toBe('3 days left');
    expect(timeLeft(now + 49 * HOUR + 30 * MINUTE, now)).toBe('2 days 1 hour left');
    expect(timeLeft(now + 5 * HOUR + 59 * MINUTE, now)).toBe('5 hours left');
    expect(timeLeft(now + 1 * MINUTE, now)).toBe('1 minute left');
    expect(timeLeft(now + 30 * 1000, now)).toBe('ended');
    expect(timeLeft(now - HOUR, now)).toBe('ended');
  });

  it('recognises the one-live-reservation index failing on either database, and nothing else', () => {
    expect(isLiveReservationClash({ code: '23505', constraint: 'car_reservations_live_uq' })).toBe(true);
    expect(isLiveReservationClash({ code: '23505', constraint: 'car_reservations_payment_order_id_key' })).toBe(false);
    expect(isLiveReservationClash(new Error('UNIQUE constraint failed: car_reservations.vehicle_id'))).toBe(true);
    expect(isLiveReservationClash(new Error('UNIQUE constraint failed: test_drives.vehicle_id, test_drives.slot_start_ms'))).toBe(false);
    expect(isLiveReservationClash(null)).toBe(false);
  });
});
