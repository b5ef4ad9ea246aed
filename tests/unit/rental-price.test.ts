import { describe, expect, it } from 'vitest';
import {
  bookedHours,
  cancellationRefund,
  HOUR_MS,
  kmIncludedFor,
  quoteRental,
  quoteTotals,
  rentFor,
  returnCharges,
  type RentalRates,
} from '../../app/features/rentals/rental-price.ts';
import { demoRentalTerms } from '../../server/db/demo/rental-fleet.ts';
import { ageOn } from '../../app/features/rentals/licence.ts';
import { parseRentalTerms } from '../../app/features/rentals/rentals.ts';
import { indiaDateTimeParam, indiaDay, indiaIso, parseIndiaDateTime, parseIndiaMonth } from '../../app/lib/india-time.ts';

const swift: RentalRates = { hourlyRate: 150, dailyRate: 1800, weeklyRate: null, kmPerDay: 240, extraKmRate: 12, deposit: 5000, minHours: 4 };
const at = (text: string) => parseIndiaDateTime(text)!;

/** The settings' defaults (server/admin/settings.ts): 18% GST, ₹250 a day protection, ₹500 delivery. */
const policy = { gstPercent: 18, protectionPerDay: 250, deliveryFee: 500 };

describe('the rental quote (worked examples)', () => {
  it('2 days 3 hours: two daily rates and three hourly ones, GST on the rent, the deposit apart', () => {
    const quote = quoteRental(swift, { fromMs: at('2026-12-01T10:00'), toMs: at('2026-12-03T13:00') }, policy);
    expect(quote.hours).toBe(51);
    expect(quote.rent).toBe(2 * 1800 + 3 * 150);
    expect(quote.kmIncluded).toBe(240 * 3);
    expect(quote.lines).toEqual([
      { kind: 'rent', label: 'Rent, 51 hours (2 days 3 hours)', amount: 4050 },
      { kind: 'gst', label: 'GST 18%', amount: 729 },
    ]);
    expect(quote.total).toBe(4050 + 729);
    expect(quote.deposit).toBe(5000);
    expect(quote.payableNow).toBe(0);
    expect(quote.dueAtPickup).toBe(4779 + 5000);
  });

  it('protection per started day and delivery are lines, GST is on all three; paying online pays the total, the deposit stays for pickup', () => {
    const quote = quoteRental(swift, { fromMs: at('2026-12-01T10:00'), toMs: at('2026-12-03T13:00') }, policy, {
      protection: true,
      delivery: true,
      payOnline: true,
    });
    expect(quote.lines).toEqual([
      { kind: 'rent', label: 'Rent, 51 hours (2 days 3 hours)', amount: 4050 },
      { kind: 'protection', label: 'Damage protection, 3 days', amount: 750 },
      { kind: 'delivery', label: 'Delivery to your address', amount: 500 },
      { kind: 'gst', label: 'GST 18%', amount: 954 },
    ]);
    expect(quote).toMatchObject({
      protection: 750,
      deliveryFee: 500,
      gst: 954,
      total: 6254,
      payableNow: 6254,
      dueAtPickup: 5000,
      deposit: 5000,
      depositAt: 'pickup',
    });
    expect(quoteTotals(quote).map((row) => [row.key, row.amount])).toEqual([
      ['total', 6254],
      ['deposit', 5000],
      ['now', 6254],
      ['pickup', 5000],
    ]);
  });

  it('the hours beyond full days never cost more than a day', () => {
    expect(rentFor(24 + 20, swift)).toBe(1800 + Math.min(20 * 150, 1800));
    expect(rentFor(24 + 20, swift)).toBe(3600);
  });

  it('exactly 7 days: seven daily rates without a weekly rate, the weekly rate with one', () => {
    const range = { fromMs: at('2026-12-01T10:00'), toMs: at('2026-12-08T10:00') };
    expect(quoteRental(swift, range, policy).rent).toBe(7 * 1800);
    expect(quoteRental({ ...swift, weeklyRate: 10_500 }, range, policy).rent).toBe(10_500);
    expect(quoteRental(swift, range, policy).kmIncluded).toBe(7 * 240);
  });

  it('a weekly rate covers each full 7 days, the rest at daily and hourly rates', () => {
    expect(rentFor(15 * 24 + 2, { ...swift, weeklyRate: 10_500 })).toBe(2 * 10_500 + 1800 + 300);
  });

  it('5 hours under a 4-hour minimum is 5 hours; 2 hours is charged as the minimum', () => {
    const five = quoteRental(swift, { fromMs: at('2026-12-01T10:00'), toMs: at('2026-12-01T15:00') }, policy);
    expect(five.hours).toBe(5);
    expect(five.rent).toBe(750);
    expect(five.kmIncluded).toBe(240);
    const two = quoteRental(swift, { fromMs: at('2026-12-01T10:00'), toMs: at('2026-12-01T12:00') }, policy);
    expect(two.hours).toBe(4);
    expect(two.rent).toBe(600);
  });

  it('rounds started hours up and counts unlimited km as null', () => {
    expect(bookedHours(0, HOUR_MS + 1)).toBe(2);
    expect(kmIncludedFor(49, null)).toBeNull();
    const quote = quoteRental(
      { ...swift, kmPerDay: null },
      { fromMs: at('2026-12-01T10:00'), toMs: at('2026-12-02T10:00') },
      { ...policy, gstPercent: 0 },
      { delivery: true },
    );
    expect(quote).toMatchObject({ hours: 24, rent: 1800, deliveryFee: 500, gst: 0, kmIncluded: null, total: 2300, payableNow: 0, dueAtPickup: 7300 });
  });
});

describe("the quote's lines (property)", () => {
  const seeded = (seed: number) => {
    let state = seed;
    return (max: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state % (max + 1);
    };
  };
  const next = seeded(66);
  const cards = [
    ...Object.values(demoRentalTerms).map((terms) => ({ ...terms, weeklyRate: terms.weeklyRate ?? null })),
    ...Array.from({ length: 40 }, (_, index) => {
      const dailyRate = 1 + next(8000);
      return {
        hourlyRate: 1 + next(600),
        dailyRate,
        weeklyRate: index % 3 === 0 ? null : 1 + next(9 * dailyRate),
        kmPerDay: null,
        extraKmRate: 10,
        deposit: next(20_000),
        minHours: 1 + next(24),
      };
    }),
  ];
  const policies = [
    policy,
    { gstPercent: 0, protectionPerDay: 0, deliveryFee: 0 },
    { gstPercent: 5, protectionPerDay: 399, deliveryFee: 750 },
    { gstPercent: 40, protectionPerDay: 1, deliveryFee: 1 },
  ];
  const choiceSets = [{}, { protection: true }, { delivery: true }, { protection: true, delivery: true, payOnline: true }, { payOnline: true }];

  it('total is the sum of the lines, never falls as the booking grows, and the deposit is never in what is payable', () => {
    for (const [cardIndex, card] of cards.entries()) {
      const quotePolicy = policies[cardIndex % policies.length]!;
      for (const choices of choiceSets) {
        let previous = 0;
        for (let hours = 1; hours <= 30 * 24; hours += 1) {
          const quote = quoteRental(card, { fromMs: 0, toMs: hours * HOUR_MS }, quotePolicy, choices);
          const where = `card ${cardIndex}, ${JSON.stringify(choices)}, ${hours} h`;
          if (quote.total !== quote.lines.reduce((sum, line) => sum + line.amount, 0))
            expect.fail(`${where}: total ${quote.total} is not the sum of the lines`);
          if (quote.total < previous) expect.fail(`${where}: ₹${quote.total}, less than ${hours - 1} hours (₹${previous})`);
          if (quote.payableNow !== (choices.payOnline ? quote.total : 0)) expect.fail(`${where}: payable now ₹${quote.payableNow}`);
          if (quote.dueAtPickup + quote.payableNow !== quote.total + quote.deposit)
            expect.fail(`${where}: now and at pickup do not add up to the total and the deposit`);
          if (quote.lines.some((line) => (line.kind as string) === 'deposit')) expect.fail(`${where}: the deposit is a line`);
          previous = quote.total;
        }
      }
    }
  });
});

describe('the rent never falls as the booking grows', () => {
  /** A small seeded generator, so a failing rate card can be written down and tried again. */
  function seeded(seed: number) {
    let state = seed;
    return (max: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return 1 + (state % max);
    };
  }
  const demoCards = Object.entries(demoRentalTerms).map(([name, terms]) => ({ name, rates: { ...terms, weeklyRate: terms.weeklyRate ?? null } }));
  const next = seeded(42);
  const randomCards = Array.from({ length: 200 }, (_, index) => {
    const hourlyRate = next(600);
    const dailyRate = next(8000);
    // Some weekly rates below seven days, some above (an admin's slip), some none.
    const weeklyRate = index % 3 === 0 ? null : next(9 * dailyRate);
    return { name: `random card ${index}`, rates: { hourlyRate, dailyRate, weeklyRate } };
  });

  function expectNeverFalls(name: string, rates: Parameters<typeof rentFor>[1]) {
    let previous = 0;
    for (let hours = 1; hours <= 30 * 24; hours += 1) {
      const rent = rentFor(hours, rates);
      if (rent < previous) expect.fail(`${name}: ${hours} hours cost ₹${rent}, less than ${hours - 1} hours (₹${previous})`);
      previous = rent;
    }
  }

  it.each(demoCards)('$name (demo fleet): every duration from 1 hour to 30 days costs at least the one before', ({ name, rates }) =>
    expectNeverFalls(name, rates),
  );

  it('200 random rate cards: every duration from 1 hour to 30 days costs at least the one before', () => {
    for (const { name, rates } of randomCards) expectNeverFalls(name, rates);
  });

  it('167 hours cost no more than 168 with a weekly rate (the case a renter found)', () => {
    const ertiga = { hourlyRate: 180, dailyRate: 2600, weeklyRate: 16_000 };
    expect(rentFor(168, ertiga)).toBe(16_000);
    expect(rentFor(167, ertiga)).toBe(16_000);
    expect(rentFor(6 * 24, ertiga)).toBe(6 * 2600);
    expect(rentFor(6 * 24 + 3, ertiga)).toBe(16_000);
  });
});

describe('cancellation', () => {
  const policy = { freeCancelHours: 24, lateCancelKeepDays: 1 };
  const pickupMs = at('2026-12-10T10:00');
  // Rent 4,050, delivery 500, 18% GST: 5,369, paid online (the deposit is not, it is due at pickup).
  const booking = { rent: 4050, total: 5369, gstPercent: 18, dailyRate: 1800, pickupMs, paid: 5369, pickedUp: false };

  it('is free until 24 hours before pickup', () => {
    expect(cancellationRefund(booking, pickupMs - 24 * HOUR_MS, policy)).toEqual({ window: 'free', rentKept: 0, refund: 5369 });
  });
  it("keeps one day's rent and its GST within 24 hours", () => {
    expect(cancellationRefund(booking, pickupMs - 2 * HOUR_MS, policy)).toEqual({ window: 'late', rentKept: 1800, refund: 5369 - 1800 - 324 });
  });
  it('keeps the rent and its GST for a no-show, everything once picked up', () => {
    expect(cancellationRefund(booking, pickupMs + HOUR_MS, policy)).toEqual({ window: 'after-pickup', rentKept: 4050, refund: 5369 - 4050 - 729 });
    expect(cancellationRefund({ ...booking, pickedUp: true }, pickupMs + HOUR_MS, policy)).toEqual({ window: 'after-pickup', rentKept: 4050, refund: 0 });
  });
  it('refunds nothing of what was not paid', () => {
    expect(cancellationRefund({ ...booking, paid: 0 }, pickupMs - 2 * HOUR_MS, policy).refund).toBe(0);
  });
});

describe('charges at return', () => {
  const rule = { graceHours: 1, lateFeePerHour: 200 };
  const dueMs = at('2026-12-03T13:00');
  it('charges extra km and hours past the grace, and refunds the deposit less these', () => {
    const charges = returnCharges({
      odometerOut: 10_000,
      odometerIn: 10_000 + 720 + 50,
      kmIncluded: 720,
      extraKmRate: 12,
      dueMs,
      returnedMs: dueMs + 2.5 * HOUR_MS,
      fuelCharge: 300,
      deposit: 5000,
      rule,
    });
    expect(charges).toEqual({
      kmDriven: 770,
      extraKm: 50,
      extraKmCharge: 600,
      lateHours: 2,
      lateFee: 400,
      fuelCharge: 300,
      damage: [],
      damageCharge: 0,
      total: 1300,
      depositRefund: 3700,
      amountDue: 0,
    });
  });
  it('within the grace is not late; charges above the deposit are owed', () => {
    const charges = returnCharges({
      odometerOut: 0,
      odometerIn: 2000,
      kmIncluded: 240,
      extraKmRate: 12,
      dueMs,
      returnedMs: dueMs + HOUR_MS,
      fuelCharge: 0,
      deposit: 5000,
      rule,
    });
    expect(charges.lateHours).toBe(0);
    expect(charges.total).toBe(1760 * 12);
    expect(charges.depositRefund).toBe(0);
    expect(charges.amountDue).toBe(1760 * 12 - 5000);
  });
});

describe('India time', () => {
  it('reads the URL form as India time and answers with the offset', () => {
    const ms = at('2026-12-01T10:00');
    expect(new Date(ms).toISOString()).toBe('2026-12-01T04:30:00.000Z');
    expect(indiaIso(ms)).toBe('2026-12-01T10:00:00+05:30');
    expect(indiaDateTimeParam(ms)).toBe('2026-12-01T10:00');
  });
  it('refuses anything else', () => {
    for (const bad of [
      '2026-02-30T10:00',
      '2026-12-01 10:00',
      '2026-12-01T24:00',
      '2026-12-01T10:00:00',
      '2026-12-01T10:00+05:30',
      '',
      'x',
      '9999-01-01T00:00',
      '2026-12-01T10:00\u0000',
    ]) {
      expect(parseIndiaDateTime(bad), bad).toBeNull();
    }
    expect(parseIndiaDateTime(42)).toBeNull();
  });
  it('reads a month', () => {
    const month = parseIndiaMonth('2026-12')!;
    expect(indiaIso(month.fromMs)).toBe('2026-12-01T00:00:00+05:30');
    expect(indiaIso(month.toMs)).toBe('2027-01-01T00:00:00+05:30');
    expect(parseIndiaMonth('2026-13')).toBeNull();
  });
  it('counts age in whole years on the India calendar', () => {
    // 00:30 India time on 1 December is still 30 November in UTC: the India day counts.
    expect(ageOn('2005-12-01', indiaDay(at('2026-12-01T00:30')))).toBe(21);
    expect(ageOn('2005-12-02', indiaDay(at('2026-12-01T23:30')))).toBe(20);
    expect(ageOn('2005-02-30', indiaDay(at('2026-12-01T00:30')))).toBeNull();
  });
});

describe('rental terms input', () => {
  it('accepts form strings and fills the defaults', () => {
    const parsed = parseRentalTerms({
      hourlyRate: '150',
      dailyRate: '₹1,800',
      weeklyRate: '',
      kmPerDay: '',
      extraKmRate: '12',
      deposit: '5000',
      fuelPolicy: 'full-to-full',
      seats: '5',
      commercialRegistration: 'on',
    });
    expect(parsed).toEqual({
      ok: true,
      terms: {
        hourlyRate: 150,
        dailyRate: 1800,
        weeklyRate: null,
        kmPerDay: null,
        extraKmRate: 12,
        deposit: 5000,
        fuelPolicy: 'full-to-full',
        minAge: 21,
        minHours: 4,
        seats: 5,
        commercialRegistration: true,
        deliveryAvailable: false,
      },
    });
  });
  it('names every wrong field', () => {
    const parsed = parseRentalTerms({ hourlyRate: '-1', dailyRate: '1e3', extraKmRate: '', deposit: 'x', fuelPolicy: 'empty', seats: '0', minAge: '12' });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(Object.keys(parsed.fields).sort()).toEqual(['dailyRate', 'deposit', 'extraKmRate', 'fuelPolicy', 'hourlyRate', 'minAge', 'seats']);
  });
});
