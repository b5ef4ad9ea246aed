import { describe, expect, it } from 'vitest';
import { untranslatedWords } from '../../app/lib/i18n/kept-words.ts';
import { rentalFacts, type RentalPolicy } from '../../app/features/rentals/rental-facts.ts';
import { HOUR_MS, quoteInLanguage, quoteLineLabel, quoteRental, quoteTotals } from '../../app/features/rentals/rental-price.ts';
import { renterMessage, type RenterMessageKind } from '../../server/rentals/notify.ts';
import type { Booking } from '../../server/rentals/store.ts';

/** Rentals in Hindi (issue 29): the quote, the terms and the renter's mails say it all in Hindi, and English stays as it was. */

const rates = { hourlyRate: 100, dailyRate: 2000, weeklyRate: null, kmPerDay: 200, extraKmRate: 10, deposit: 5000, minHours: 4 };
const pricePolicy = { gstPercent: 18, protectionPerDay: 300, deliveryFee: 500 };
const policy: RentalPolicy = {
  ...pricePolicy,
  graceHours: 1,
  lateFeePerHour: 200,
  freeCancelHours: 24,
  lateCancelKeepDays: 1,
  protectionCap: 3000,
  refundWorkingDays: 7,
};
const fromMs = Date.UTC(2026, 11, 3, 4, 30);
const toMs = fromMs + 51 * HOUR_MS;
const quote = quoteRental(rates, { fromMs, toMs }, pricePolicy, { protection: true, delivery: true });

describe('a quote in Hindi', () => {
  it('labels its lines in the language asked for, the same wording in English as before', () => {
    expect(quoteLineLabel('rent', quote, 'hi')).toBe('किराया, 51 घंटे (2 दिन 3 घंटे)');
    expect(quoteLineLabel('rent', quote, 'en')).toBe('Rent, 51 hours (2 days 3 hours)');
    expect(quoteLineLabel('protection', quote, 'en')).toBe('Damage protection, 3 days');
    expect(quoteInLanguage(quote, 'hi').lines.map((line) => line.label)).toEqual([
      'किराया, 51 घंटे (2 दिन 3 घंटे)',
      'डैमेज प्रोटेक्शन, 3 दिन',
      'आपके पते पर डिलीवरी',
      'GST 18%',
    ]);
  });

  it('says its totals and the terms without English', () => {
    const texts = [
      ...quoteTotals(quote, 'hi').map((row) => row.label),
      ...rentalFacts({ kmPerDay: 200, extraKmRate: 10, fuelPolicy: 'full-to-full', deposit: 5000, minHours: 4, minAge: 21 }, policy, 'hi').flatMap((fact) => [
        fact.label,
        fact.text,
      ]),
    ];
    expect(texts.flatMap(untranslatedWords)).toEqual([]);
  });
});

describe("the renter's mails and SMS in Hindi", () => {
  const booking = {
    id: 12,
    carName: 'गाड़ी',
    fromMs,
    toMs,
    pickup: 'delivery',
    pinCode: '400001',
    deliveryAddress: '12, मरीन ड्राइव',
    protection: true,
    quote,
    terms: { kmPerDay: 200, extraKmRate: 10, fuelPolicy: 'like-for-like', deposit: 5000, minHours: 4, minAge: 21 },
    note: '',
    charges: {
      kmDriven: 700,
      extraKm: 100,
      extraKmCharge: 1000,
      lateHours: 2,
      lateFee: 400,
      fuelCharge: 300,
      damage: [{ note: 'खरोंच', charge: 500, photoId: 'x' }],
      damageCharge: 500,
      total: 2200,
      depositRefund: 2800,
      amountDue: 0,
    },
    depositRefund: 2800,
  } as unknown as Booking;

  for (const kind of ['confirmed', 'reminder', 'cancelled', 'refused', 'closed'] as RenterMessageKind[]) {
    it(`writes the ${kind} message without English`, () => {
      const message = renterMessage(kind, booking, {
        siteName: 'Gaadi Bazaar',
        siteOrigin: 'https://gaadibazaar.in',
        policy,
        nowMs: fromMs - 20 * HOUR_MS,
        refund: 1000,
        language: 'hi',
      });
      // Times say the part of the day, not am/pm (decision 101).
      const stray = [message.subject, message.text, message.sms].flatMap(untranslatedWords);
      expect(stray).toEqual([]);
    });
  }

  it('keeps the English message as it was', () => {
    const message = renterMessage('cancelled', booking, {
      siteName: 'Gaadi Bazaar',
      siteOrigin: 'https://gaadibazaar.in',
      policy,
      nowMs: fromMs - 20 * HOUR_MS,
      refund: 1000,
      language: 'en',
    });
    expect(message.subject).toBe('Cancelled: गाड़ी (booking #12)');
    expect(message.text).toContain('Refunded ₹1,000 to your card/UPI (the payment method you paid with); your bank shows it within 7 working days.');
    expect(message.sms).toBe('Gaadi Bazaar: booking #12 cancelled. Refunded ₹1,000 to your card/UPI (the payment method you paid with).');
  });
});
