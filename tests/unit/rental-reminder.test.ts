import { describe, expect, it } from 'vitest';
import type { RentalPolicy } from '../../app/features/rentals/rental-facts.ts';
import { HOUR_MS, quoteRental } from '../../app/features/rentals/rental-price.ts';
import { renterMessage } from '../../server/rentals/notify.ts';
import type { Booking } from '../../server/rentals/store.ts';

/**
 * The rental reminder goes out within the day before the pickup, so the pickup is later the same
 * day or the next: it says which, by India's calendar and the clock of the moment it is written.
 */

const policy: RentalPolicy = {
  gstPercent: 18,
  protectionPerDay: 300,
  deliveryFee: 500,
  graceHours: 1,
  lateFeePerHour: 200,
  freeCancelHours: 24,
  lateCancelKeepDays: 1,
  protectionCap: 3000,
  refundWorkingDays: 7,
};
/** An instant written as India time. */
const india = (dateTime: string) => Date.parse(`${dateTime}+05:30`);

function reminder(fromMs: number, nowMs: number, language: 'en' | 'hi' = 'en') {
  const rates = { hourlyRate: 100, dailyRate: 2000, weeklyRate: null, kmPerDay: 200, extraKmRate: 10, deposit: 5000, minHours: 4 };
  const quote = quoteRental(rates, { fromMs, toMs: fromMs + 24 * HOUR_MS }, policy, { protection: false, delivery: false });
  const booking = {
    id: 12,
    carName: 'Swift Dzire',
    fromMs,
    toMs: fromMs + 24 * HOUR_MS,
    pickup: 'hub',
    pinCode: '',
    deliveryAddress: '',
    protection: false,
    quote,
    terms: { kmPerDay: 200, extraKmRate: 10, fuelPolicy: 'full-to-full', deposit: 5000, minHours: 4, minAge: 21 },
    note: '',
    charges: null,
    depositRefund: null,
  } as unknown as Booking;
  return renterMessage('reminder', booking, { siteName: 'Gaadi Bazaar', siteOrigin: 'https://gaadibazaar.in', policy, nowMs, language });
}

describe('the rental reminder', () => {
  it('says "Today, 6:00 pm" for a pickup later the same day', () => {
    const message = reminder(india('2026-12-03T18:00:00'), india('2026-12-03T09:00:00'));
    expect(message.subject).toBe('Today, 6:00 pm: your Swift Dzire (booking #12)');
    expect(message.text.split('\n')[0]).toBe('A reminder: your self-drive car is ready for you today at 6:00 pm.');
    expect(message.sms).toBe('Gaadi Bazaar: reminder, Swift Dzire pickup: Today, 6:00 pm. Bring your driving licence. booking #12.');
  });

  it('says "Tomorrow, 10:00 am" for a pickup the next day', () => {
    const message = reminder(india('2026-12-04T10:00:00'), india('2026-12-03T11:00:00'));
    expect(message.subject).toBe('Tomorrow, 10:00 am: your Swift Dzire (booking #12)');
    expect(message.text.split('\n')[0]).toBe('A reminder: your self-drive car is ready for you tomorrow at 10:00 am.');
  });

  it('counts days by India’s calendar, not the server’s UTC one', () => {
    // 4:00 am in India is still the day before in UTC (22:30): the 6:00 am pickup is today in India.
    expect(reminder(india('2026-12-03T06:00:00'), india('2026-12-03T04:00:00')).subject).toBe('Today, 6:00 am: your Swift Dzire (booking #12)');
    // 11:30 pm and 12:30 am: tomorrow, though an hour apart.
    expect(reminder(india('2026-12-04T00:30:00'), india('2026-12-03T23:30:00')).subject).toBe('Tomorrow, 12:30 am: your Swift Dzire (booking #12)');
  });

  it('says it in Hindi, the time with its part of the day (decision 101)', () => {
    const today = reminder(india('2026-12-03T18:00:00'), india('2026-12-03T09:00:00'), 'hi');
    expect(today.subject).toBe('आज, शाम 6:00: आपकी Swift Dzire (बुकिंग #12)');
    expect(today.text.split('\n')[0]).toBe('याद दिला दें: आपकी सेल्फ़-ड्राइव कार आज शाम 6:00 पर आपके लिए तैयार है।');
    expect(reminder(india('2026-12-04T10:00:00'), india('2026-12-03T11:00:00'), 'hi').subject).toBe('कल, सुबह 10:00: आपकी Swift Dzire (बुकिंग #12)');
  });
});
