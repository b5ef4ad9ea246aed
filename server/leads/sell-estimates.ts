import type { SellCar } from '../../app/features/sell/estimate-schemas.ts';
import type { Settings } from '../admin/settings.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import { InvalidInputError } from '../errors.ts';
import { estimateSellPrice, type ComparableCar, type SellEstimate } from './sell-estimate.ts';
import { sellText as t } from '../../app/features/sell/sell-texts.ts';
import { carModelsText as carText } from '../../app/lib/i18n/carModels.ts';
import { readCar } from '../../app/features/sell/car-models.ts';
import { carCatalogue } from '../catalog/car-models.ts';
import { indiaDay, indiaYear } from '../../app/lib/india-time.ts';

/**
 * The seller's estimate from the database (decision 081): the dealer's cars for sale, in stock
 * and sold, read as comparables for estimateSellPrice. Rental fleet cars are left out: their
 * price is a rent, not a car's value.
 */

type Deps = { database: Database; clock: Clock };

/** How far back the dealer's purchases count: a price paid two years ago says little of today's. */
export const PURCHASES_COUNTED_MONTHS = 24;

/**
 * The cars the dealer bought from sellers in the last PURCHASES_COUNTED_MONTHS (decision 118):
 * what it paid, carried up by the margin, so the estimate (which takes the margin off the shop's
 * prices) reads each purchase as exactly the price paid, beside the shop's own prices.
 */
export async function loadPurchases(deps: Deps, marginPercent: number): Promise<ComparableCar[]> {
  const nowMs = deps.clock.now();
  const since = indiaDay(nowMs - PURCHASES_COUNTED_MONTHS * 30.44 * 24 * 3600 * 1000);
  const rows = await deps.database.db
    .selectFrom('purchases')
    .innerJoin('vehicles', 'vehicles.id', 'purchases.vehicle_id')
    .select([
      'vehicles.make',
      'vehicles.model',
      'vehicles.body_type',
      'vehicles.model_year',
      'vehicles.odometer',
      'vehicles.owner_count',
      'vehicles.fuel_type',
      'vehicles.transmission',
      'purchases.price_paise',
      'purchases.possession_date',
    ])
    .where('purchases.possession_date', '>=', since)
    .where('vehicles.model_year', 'is not', null)
    .execute();
  const keep = 1 - marginPercent / 100;
  return rows.map((row) => ({
    make: row.make,
    model: row.model,
    segment: row.body_type,
    modelYear: Number(row.model_year),
    pricedYear: Number(row.possession_date.slice(0, 4)),
    km: row.odometer,
    owners: row.owner_count,
    fuel: row.fuel_type,
    transmission: row.transmission,
    priceRupees: Number(row.price_paise) / 100 / (keep > 0 ? keep : 1),
    sold: false,
    bought: true,
  }));
}

/** Every car for sale with a price and a model year, as a comparable. */
export async function loadComparables(deps: Deps): Promise<ComparableCar[]> {
  const rows = await deps.database.db
    .selectFrom('vehicles')
    .select([
      'make',
      'model',
      'body_type',
      'model_year',
      'odometer',
      'owner_count',
      'fuel_type',
      'transmission',
      'price_rupees',
      'sold_price',
      'sold_at',
      'status',
    ])
    .where('purpose', '=', 'sale')
    // A draft's price is not yet asked of anyone (decision 084).
    .where('status', '<>', 'draft')
    .where('model_year', 'is not', null)
    .where((eb) => eb.or([eb('price_rupees', '>', 0), eb('sold_price', '>', 0)]))
    .execute();
  const thisYear = indiaYear(deps.clock.now());
  return rows.map((row) => {
    const sold = row.status === 'sold';
    const soldYear = sold && row.sold_at ? indiaYear(Date.parse(row.sold_at)) : Number.NaN;
    return {
      make: row.make,
      model: row.model,
      segment: row.body_type,
      modelYear: Number(row.model_year),
      pricedYear: Number.isFinite(soldYear) ? soldYear : thisYear,
      km: row.odometer,
      owners: row.owner_count,
      fuel: row.fuel_type,
      transmission: row.transmission,
      // A sale's own figure when it was written down, else the price it was listed at.
      priceRupees: Number((sold ? row.sold_price : null) ?? row.price_rupees ?? row.sold_price ?? 0),
      sold,
    };
  });
}

/** The estimate for a seller's car; a model year after this year is refused (InvalidInputError). */
export async function estimateForSeller(deps: Deps, settings: Pick<Settings, 'sellEstimateMarginPercent'>, car: SellCar): Promise<SellEstimate> {
  const year = indiaYear(deps.clock.now());
  if (car.year > year) throw new InvalidInputError(t('yearAfter', { year }), { year: t('yearAfter', { year }) });
  const [stock, purchases] = await Promise.all([loadComparables(deps), loadPurchases(deps, settings.sellEstimateMarginPercent)]);
  return estimateSellPrice(car, [...stock, ...purchases], { year, marginPercent: settings.sellEstimateMarginPercent });
}

/**
 * The seller's car with its make, model and variant read against the catalogue of cars sold in
 * India (decision 098): 'hundai' 'cretta' becomes Hyundai Creta, as written there. A name the
 * catalogue does not have, or several equally near, is refused beside its field with the
 * closest names (InvalidInputError). A car marked `unlisted` is kept as typed.
 */
export async function carFromCatalogue(database: Database, car: SellCar): Promise<SellCar> {
  if (car.unlisted) return car;
  const catalogue = await carCatalogue(database);
  const reading = readCar(catalogue, car);
  if (reading.ok) return { ...car, make: reading.make.name, model: reading.model.name, variant: reading.variant };
  const fields: Partial<Record<'make' | 'model' | 'variant', string>> = {};
  const { make, model, variant } = reading.problems;
  if (make) fields.make = refusal(carText('makeUnknown', { typed: car.make }), make);
  if (model) fields.model = refusal(carText('modelUnknown', { typed: car.model, make: reading.make?.name ?? car.make }), model);
  if (variant) fields.variant = refusal(carText('variantUnknown', { typed: car.variant, model: reading.model?.name ?? car.model }), variant);
  throw new InvalidInputError(Object.values(fields)[0]!, fields);
}

/** "We do not know the make “hondu”. Closest: Honda. Choose one, or tick …" */
function refusal(problem: string, closest: string[]): string {
  return [problem, closest.length ? carText('closestAre', { names: closest.join(', ') }) : '', carText('orNotListed')].filter(Boolean).join(' ');
}
