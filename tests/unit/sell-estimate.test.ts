import { describe, expect, it } from 'vitest';
import { sellCarSchema } from '../../app/features/sell/estimate-schemas.ts';
import { estimateSellPrice, fittedDepreciation, type ComparableCar } from '../../server/leads/sell-estimate.ts';

/** A car of the dealer's: a 2020 petrol manual Honda City sedan, 40,000 km, one owner, ₹10,00,000 in stock in 2026. */
function car(overrides: Partial<ComparableCar> = {}): ComparableCar {
  return {
    make: 'Honda',
    model: 'City',
    segment: 'sedan',
    modelYear: 2020,
    pricedYear: 2026,
    km: 40_000,
    owners: 1,
    fuel: 'Petrol',
    transmission: 'Manual',
    priceRupees: 1_000_000,
    sold: false,
    ...overrides,
  };
}

const seller = { make: 'Honda', model: 'City', year: 2020, fuel: 'Petrol' as const, transmission: 'Manual' as const, km: 40_000, owners: 1 };
const noMargin = { year: 2026, marginPercent: 0 };

describe('the seller’s estimate (decision 081)', () => {
  it('one identical car: its price ± one car’s spread (12%), ends rounded outwards to ₹5,000', () => {
    // 10,00,000 × e^−0.12 = 8,86,920 → 8,85,000; × e^0.12 = 11,27,497 → 11,30,000.
    const estimate = estimateSellPrice(seller, [car()], noMargin);
    expect(estimate).toMatchObject({ kind: 'range', low: 885_000, high: 1_130_000 });
  });

  it('reads a car bought from a seller as the price paid: the margin carried up, then taken off again (decision 118)', () => {
    // Paid ₹7,00,000 for an identical car; margin 12%: 7,00,000 / 0.88 then × 0.88 = 7,00,000 ± 12%:
    // 6,20,829 → 6,20,000; 7,89,248 → 7,90,000.
    const paid = car({ priceRupees: 700_000 / 0.88, bought: true });
    const alone = estimateSellPrice(seller, [paid], { year: 2026, marginPercent: 12 });
    expect(alone).toMatchObject({ kind: 'range', low: 620_000, high: 790_000, basis: { bought: 1, inStock: 0, sold: 0 } });
    // Beside one in stock at ₹10,00,000 (alone 7,80,000 – 9,95,000), the range comes down to the geometric
    // mean's: 8,91,883 × 0.88 = 7,84,857, spread √(0.1144² + 0.12²/2) = 0.1425: 6,80,000 – 9,10,000.
    const blended = estimateSellPrice(seller, [car(), paid], { year: 2026, marginPercent: 12 });
    expect(blended).toMatchObject({ kind: 'range', low: 680_000, high: 910_000, basis: { similarCars: 2, bought: 1, inStock: 1 } });
    expect(blended.summary).toContain('1 bought from sellers');
  });

  it('takes the settings’ margin off both ends', () => {
    // × 0.88: 7,80,490 → 7,80,000; 9,92,197 → 9,95,000.
    const estimate = estimateSellPrice(seller, [car()], { year: 2026, marginPercent: 12 });
    expect(estimate).toMatchObject({ kind: 'range', low: 780_000, high: 995_000, basis: { marginPercent: 12 } });
  });

  it('carries a newer car back by the segment’s depreciation, and widens the range 2% a year away', () => {
    // No model of the segment has two years to fit from: the prior, 10% a year. 2 years older:
    // 10,00,000 × 0.9² = 8,10,000; spread 0.12 + 2 × 0.02 = 0.16: 6,90,224 → 6,90,000; 9,50,548 → 9,55,000.
    const estimate = estimateSellPrice({ ...seller, year: 2018 }, [car()], noMargin);
    expect(estimate).toMatchObject({ kind: 'range', low: 690_000, high: 955_000, basis: { yearlyDepreciationPercent: 10 } });
  });

  it('takes 2.5% per 10,000 km and 5% per owner more than the comparable', () => {
    // 20,000 km and one owner more: × e^−(0.05 + 0.05) = 9,04,837; ± 0.12: 8,02,519 → 8,00,000; 10,20,206 → 10,25,000.
    const estimate = estimateSellPrice({ ...seller, km: 60_000, owners: 2 }, [car()], noMargin);
    expect(estimate).toMatchObject({ kind: 'range', low: 800_000, high: 1_025_000 });
  });

  it('fits the segment’s depreciation within each model, pulled towards 10% a year', () => {
    // A City at 4 years worth 0.64 of one at 2 years (20% a year) and the prior's weight of 4
    // years² against the data's 2: slope (2·ln 0.8 + 4·ln 0.9) / 6 → 13.5% a year. The other
    // sedan model, alone, says nothing about age.
    const cars = [
      car({ modelYear: 2024, km: 30_000 }),
      car({ modelYear: 2022, km: 30_000, priceRupees: 640_000 }),
      car({ make: 'Skoda', model: 'Slavia', modelYear: 2015, priceRupees: 300_000 }),
    ];
    expect(fittedDepreciation(cars)).toBeCloseTo(0.13465, 4);
  });

  it('keeps a wild fit within 4–25% a year', () => {
    const cars = [
      car({ modelYear: 2024, km: 0 }),
      car({ modelYear: 2023, km: 0, priceRupees: 200_000 }),
      car({ modelYear: 2022, km: 0, priceRupees: 100_000 }),
    ];
    expect(fittedDepreciation(cars)).toBe(0.25);
    const rising = [car({ modelYear: 2024, km: 0, priceRupees: 500_000 }), car({ modelYear: 2020, km: 0, priceRupees: 900_000 })];
    expect(fittedDepreciation(rising)).toBe(0.04);
  });

  it('says what it is based on: cars sold and in stock, of which years, the segment’s data', () => {
    const cars = [car(), car({ modelYear: 2022, priceRupees: 1_300_000, sold: true, pricedYear: 2025 }), car({ make: 'Hyundai', model: 'Verna' })];
    const estimate = estimateSellPrice(seller, cars, { year: 2026, marginPercent: 12 });
    expect(estimate.kind).toBe('range');
    if (estimate.kind !== 'range') return;
    expect(estimate.basis).toMatchObject({ similarCars: 2, sold: 1, inStock: 1, fromYear: 2020, toYear: 2022, segment: 'sedan', segmentCars: 3 });
    expect(estimate.summary).toMatch(
      /^From 2 similar Honda City cars of ours \(1 sold, 1 in stock\), adjusted for age \(sedan cars lose about [\d.]+% a year in our data of 3 cars\)/,
    );
    expect(estimate.low).toBeLessThan(estimate.high);
  });

  it('a car of another fuel or gearbox counts half', () => {
    const petrol = car({ priceRupees: 1_000_000 });
    const diesel = car({ priceRupees: 1_200_000, fuel: 'Diesel' });
    const both = estimateSellPrice(seller, [petrol, diesel], noMargin);
    const evenly = estimateSellPrice(seller, [petrol, { ...diesel, fuel: 'Petrol' }], noMargin);
    if (both.kind !== 'range' || evenly.kind !== 'range') throw new Error('expected ranges');
    expect(both.low + both.high).toBeLessThan(evenly.low + evenly.high);
  });

  it('says honestly when no car of the model was ever ours, and offers the inspection', () => {
    const estimate = estimateSellPrice({ ...seller, make: 'Hyundai', model: 'Venue' }, [car(), car({ model: 'Amaze' })], noMargin);
    expect(estimate).toEqual({ kind: 'not-enough-data', similarCars: 0, summary: expect.stringMatching(/not bought or sold a Hyundai Venue yet.*inspection/) });
  });

  it('says so when every car of the model is more than 6 years from the seller’s', () => {
    const estimate = estimateSellPrice({ ...seller, year: 2012 }, [car({ modelYear: 2020 }), car({ modelYear: 2022 })], noMargin);
    expect(estimate).toMatchObject({ kind: 'not-enough-data', similarCars: 2, summary: expect.stringContaining('2020–2022, too far from 2012') });
  });

  it('matches make and model whatever their case and spacing', () => {
    const estimate = estimateSellPrice({ ...seller, make: 'honda', model: ' CITY ' }, [car()], noMargin);
    expect(estimate.kind).toBe('range');
  });
});

describe('the seller’s car schema', () => {
  const valid = { make: 'Honda', model: 'City', year: '2020', fuel: 'Petrol', transmission: 'Manual', km: '45,000', owners: '1', registrationState: 'mh' };

  it('reads form text and JSON numbers alike', () => {
    // No variant and no "not in the list" when not sent (the app's older requests, leads kept before decision 098).
    expect(sellCarSchema.parse(valid)).toEqual({ ...valid, variant: '', unlisted: false, year: 2020, km: 45_000, owners: 1, registrationState: 'MH' });
    expect(sellCarSchema.parse({ ...valid, variant: ' SX ', unlisted: 'true' })).toMatchObject({ variant: 'SX', unlisted: true });
    expect(sellCarSchema.parse({ ...valid, year: 2020, km: 45000, owners: 2 }).km).toBe(45_000);
  });

  it('names every wrong field', () => {
    const result = sellCarSchema.safeParse({
      make: '\u0000',
      model: 'x'.repeat(61),
      year: '19',
      fuel: 'Steam',
      transmission: '',
      km: '-5',
      owners: '0',
      registrationState: 'ZZ',
    });
    expect(result.success).toBe(false);
    const paths = new Set(result.error?.issues.map((issue) => issue.path[0]));
    expect([...paths].sort()).toEqual(['fuel', 'km', 'make', 'model', 'owners', 'registrationState', 'transmission', 'year']);
  });

  it('refuses numbers that are not whole or too large', () => {
    expect(sellCarSchema.safeParse({ ...valid, km: 1.5 }).success).toBe(false);
    expect(sellCarSchema.safeParse({ ...valid, km: '1e9' }).success).toBe(false);
    expect(sellCarSchema.safeParse({ ...valid, year: Number.MAX_SAFE_INTEGER }).success).toBe(false);
  });
});
