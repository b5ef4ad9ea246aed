import { formatRupees } from '../../app/lib/format.ts';
import { sellText as t } from '../../app/features/sell/sell-texts.ts';
import type { SellCar } from '../../app/features/sell/estimate-schemas.ts';
import { slugify } from '../../app/lib/slug.ts';
import { bodyTypeLabel } from '../../app/lib/listing-filters/options.ts';

/**
 * The seller's instant estimate (decision 081): a price range for their car computed from the
 * dealer's own cars, in stock and sold, never a single invented figure. This module is pure:
 * the comparables come in as plain values (loaded by sell-estimates.ts), so worked examples
 * pin it in tests.
 *
 * The model, in short:
 * 1. The level comes from cars of the same make and model only (any variant and year): a
 *    Kwid and an i20 are both hatchbacks but their values differ by half.
 * 2. Each such car's price is carried over to the seller's car: its age difference by the
 *    segment's yearly depreciation, fitted to the segment's cars (below); its kilometres by
 *    KM_FACTOR_PER_10K; its owners by OWNER_FACTOR.
 * 3. The centre is the weighted geometric mean of those carried-over prices (a car of another
 *    fuel or gearbox counts half); the range is ± one spread: the cars' own disagreement, one
 *    car's condition uncertainty shrinking with their number, and more the further they are
 *    in age from the seller's car.
 * 4. The dealer's margin (settings) comes off both ends: the shop's prices are what a buyer
 *    pays, the estimate is what the dealer pays. Ends are rounded to ROUND_TO, outwards.
 */

/** A car of the dealer's own data: a price it was asked at (in stock) or sold for, and what it was. */
export type ComparableCar = {
  make: string;
  model: string;
  /** The body type's key (hatchback, sedan, suv…), or ''. */
  segment: string;
  modelYear: number;
  /** The year the price is from: the year it sold, or this year for a car in stock. */
  pricedYear: number;
  km: number | null;
  owners: number | null;
  fuel: string;
  transmission: string;
  priceRupees: number;
  sold: boolean;
  /**
   * A car the dealer bought from a seller (decision 118): its price is what was paid, carried up
   * by the margin so that taking the margin off gives what was paid again.
   */
  bought?: boolean;
};

export type EstimateOptions = {
  /** This year (India time): the seller's car's age is counted from it. */
  year: number;
  /** Taken off the shop's prices (settings.sellEstimateMarginPercent). */
  marginPercent: number;
};

export type EstimateBasis = {
  /** Cars of the same make and model the range is made from. */
  similarCars: number;
  sold: number;
  inStock: number;
  /** Of them, cars the dealer bought from sellers. */
  bought: number;
  /** Their model years, oldest and newest. */
  fromYear: number;
  toYear: number;
  /** The segment whose cars gave the depreciation, its label and how many cars it has. */
  segment: string;
  segmentCars: number;
  yearlyDepreciationPercent: number;
  marginPercent: number;
};

export type SellEstimate =
  { kind: 'range'; low: number; high: number; basis: EstimateBasis; summary: string } | { kind: 'not-enough-data'; similarCars: number; summary: string };

/** The estimate in one line, as the desk reads it in the new-lead mail. */
export function estimateLine(estimate: SellEstimate): string {
  return estimate.kind === 'range' ? `${formatRupees(estimate.low)} – ${formatRupees(estimate.high)}. ${estimate.summary}` : `None shown. ${estimate.summary}`;
}

/** With no data of its own a segment loses this much a year (used cars in India: about 10%). */
export const PRIOR_DEPRECIATION = 0.1;
/** How strongly the prior holds, in years² of within-model age spread (ridge weight). */
export const PRIOR_WEIGHT = 4;
/** The fitted depreciation is kept within these (a wild fit from two odd cars is not believed). */
export const DEPRECIATION_BOUNDS = { min: 0.04, max: 0.25 } as const;
/** Each 10,000 km more (or fewer) than a comparable: 2.5% less (or more). */
export const KM_FACTOR_PER_10K = 0.025;
/** Each owner more (or fewer) than a comparable: 5% less (or more). */
export const OWNER_FACTOR = 0.05;
/** One car's spread around its model's value (condition, colour, options): ±12%. */
export const ONE_CAR_SPREAD = 0.12;
/** Added to the spread per year between the seller's car and the comparables' mean. */
export const SPREAD_PER_YEAR_AWAY = 0.02;
/** Farther than this in model year from every comparable, the curve is not trusted. */
export const MAX_YEARS_AWAY = 6;
/** A comparable of another fuel or gearbox counts this much. */
export const OTHER_POWERTRAIN_WEIGHT = 0.5;
/** The range's ends, rounded outwards to this many rupees. */
export const ROUND_TO = 5_000;
/** Kilometres assumed for a comparable that has none written down, per year of age. */
export const KM_PER_YEAR = 10_000;

const modelKey = (make: string, model: string) => `${slugify(make)}/${slugify(model)}`;
const ageOf = (car: ComparableCar) => Math.max(0, car.pricedYear - car.modelYear);
const kmOf = (car: ComparableCar) => car.km ?? ageOf(car) * KM_PER_YEAR;
const ownersOf = (car: ComparableCar) => car.owners ?? 1;

/** ln(price) with the car's own kilometres and owners taken out (as if it had none and one). */
function levelOf(car: ComparableCar): number {
  return Math.log(car.priceRupees) + (kmOf(car) / 10_000) * KM_FACTOR_PER_10K + (ownersOf(car) - 1) * OWNER_FACTOR;
}

/**
 * The segment's yearly depreciation: the slope of ln(price) on age within each model (a model's
 * own level taken out, so an old Fortuner does not look like a young Kwid), pulled towards
 * PRIOR_DEPRECIATION with PRIOR_WEIGHT and kept within DEPRECIATION_BOUNDS.
 */
export function fittedDepreciation(segmentCars: readonly ComparableCar[]): number {
  const groups = new Map<string, ComparableCar[]>();
  for (const car of segmentCars) {
    const key = modelKey(car.make, car.model);
    groups.set(key, [...(groups.get(key) ?? []), car]);
  }
  let sxy = 0;
  let sxx = 0;
  for (const cars of groups.values()) {
    if (cars.length < 2) continue;
    const meanAge = cars.reduce((sum, car) => sum + ageOf(car), 0) / cars.length;
    const meanLevel = cars.reduce((sum, car) => sum + levelOf(car), 0) / cars.length;
    for (const car of cars) {
      sxy += (ageOf(car) - meanAge) * (levelOf(car) - meanLevel);
      sxx += (ageOf(car) - meanAge) ** 2;
    }
  }
  const priorSlope = Math.log(1 - PRIOR_DEPRECIATION);
  const slope = (sxy + PRIOR_WEIGHT * priorSlope) / (sxx + PRIOR_WEIGHT);
  const yearly = 1 - Math.exp(slope);
  return Math.min(DEPRECIATION_BOUNDS.max, Math.max(DEPRECIATION_BOUNDS.min, yearly));
}

function roundDown(rupees: number): number {
  return Math.max(ROUND_TO, Math.floor(rupees / ROUND_TO) * ROUND_TO);
}

function roundUp(rupees: number): number {
  return Math.ceil(rupees / ROUND_TO) * ROUND_TO;
}

/** The segment most of the model's cars are in ('' when none says). */
function segmentOf(cars: readonly ComparableCar[]): string {
  const counts = new Map<string, number>();
  for (const car of cars) if (car.segment) counts.set(car.segment, (counts.get(car.segment) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '';
}

/** The estimate for the seller's car from the dealer's cars. */
export function estimateSellPrice(
  car: Pick<SellCar, 'make' | 'model' | 'year' | 'fuel' | 'transmission' | 'km' | 'owners'>,
  data: readonly ComparableCar[],
  options: EstimateOptions,
): SellEstimate {
  const name = `${car.make} ${car.model}`;
  const key = modelKey(car.make, car.model);
  const usable = data.filter((other) => other.priceRupees > 0 && Number.isFinite(other.priceRupees) && other.modelYear > 0);
  const same = usable.filter((other) => modelKey(other.make, other.model) === key);
  if (same.length === 0) {
    return { kind: 'not-enough-data', similarCars: 0, summary: t('estimateNeverSold', { name }) };
  }
  const nearest = Math.min(...same.map((other) => Math.abs(other.modelYear - car.year)));
  if (nearest > MAX_YEARS_AWAY) {
    const years = same.map((other) => other.modelYear);
    return {
      kind: 'not-enough-data',
      similarCars: same.length,
      summary: t('estimateTooFar', { name, from: Math.min(...years), to: Math.max(...years), year: car.year }),
    };
  }

  const segment = segmentOf(same);
  const segmentCars = segment ? usable.filter((other) => other.segment === segment) : same;
  const depreciation = fittedDepreciation(segmentCars);
  const slope = Math.log(1 - depreciation);
  const age = Math.max(0, options.year - car.year);
  const target = { km: car.km, owners: car.owners };

  // Each comparable's price carried over to the seller's car, in ln(rupees), with its weight.
  const carried = same.map((other) => ({
    value: levelOf(other) + slope * (age - ageOf(other)) - (target.km / 10_000) * KM_FACTOR_PER_10K - (target.owners - 1) * OWNER_FACTOR,
    weight: other.fuel === car.fuel && other.transmission === car.transmission ? 1 : OTHER_POWERTRAIN_WEIGHT,
    yearsAway: Math.abs(other.modelYear - car.year),
  }));
  const totalWeight = carried.reduce((sum, item) => sum + item.weight, 0);
  const centre = carried.reduce((sum, item) => sum + item.weight * item.value, 0) / totalWeight;
  const disagreement = carried.reduce((sum, item) => sum + item.weight * (item.value - centre) ** 2, 0) / totalWeight;
  const yearsAway = carried.reduce((sum, item) => sum + item.weight * item.yearsAway, 0) / totalWeight;
  const spread = Math.sqrt(disagreement + ONE_CAR_SPREAD ** 2 / totalWeight) + SPREAD_PER_YEAR_AWAY * yearsAway;

  const keep = 1 - options.marginPercent / 100;
  const low = roundDown(Math.exp(centre - spread) * keep);
  const high = Math.max(low + ROUND_TO, roundUp(Math.exp(centre + spread) * keep));
  const sold = same.filter((other) => other.sold).length;
  const bought = same.filter((other) => other.bought === true).length;
  const years = same.map((other) => other.modelYear);
  const label = segment ? bodyTypeLabel(segment) : name;
  // 'sedan cars', 'SUV cars', 'Honda City cars'.
  const segmentLabel = segment && label !== label.toUpperCase() ? label.toLowerCase() : label;
  const basis: EstimateBasis = {
    similarCars: same.length,
    sold,
    inStock: same.length - sold - bought,
    bought,
    fromYear: Math.min(...years),
    toYear: Math.max(...years),
    segment,
    segmentCars: segmentCars.length,
    yearlyDepreciationPercent: Math.round(depreciation * 1000) / 10,
    marginPercent: options.marginPercent,
  };
  // Written in the language of the request that asks for it (the seller's page or the app).
  const from = [
    sold ? t('estimateSold', { count: sold }) : '',
    basis.inStock ? t('estimateInStock', { count: basis.inStock }) : '',
    bought ? t('estimateBought', { count: bought }) : '',
  ]
    .filter(Boolean)
    .join(', ');
  const summary = t('estimateSummary', {
    similar: t('estimateSimilar', { count: same.length, name }),
    from,
    segment: segmentLabel,
    percent: basis.yearlyDepreciationPercent,
    cars: t('estimateCars', { count: segmentCars.length }),
    margin: options.marginPercent,
  });
  return { kind: 'range', low, high, basis, summary };
}
