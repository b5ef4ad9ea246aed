import { sql, type Selectable, type SqlBool } from 'kysely';
import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import { rentalTermsWrong } from '../../app/features/rentals/rental-terms-form.ts';
import { parseRentalTerms, type FuelPolicy, type RentalTermsInput } from '../../app/features/rentals/rentals.ts';
import type { RentalRates } from '../../app/features/rentals/rental-price.ts';
import type { ImageRef } from '../../app/lib/vehicle.ts';
import { coversFor } from '../catalog/vehicles.ts';
import type { Database } from '../db/connection.ts';
import type { RentalTermsTable, VehicleTable } from '../db/schema.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import type { Clock } from '../clock.ts';

/**
 * The rental fleet: which vehicles are rental cars (vehicles.purpose = 'rental') and their
 * terms. A fleet car can be booked only with terms saved and commercial registration ticked.
 */

/** A fleet car's terms as the app uses them (whole rupees). */
export type RentalTerms = RentalRates & {
  vehicleId: number;
  fuelPolicy: FuelPolicy;
  minAge: number;
  seats: number;
  commercialRegistration: boolean;
  deliveryAvailable: boolean;
};

/** A fleet car as /rent and the API list it. */
export type FleetCar = {
  id: number;
  name: string;
  make: string;
  model: string;
  variant: string;
  year: string;
  fuelType: string;
  transmission: string;
  cover: ImageRef | null;
  terms: RentalTerms | null;
  /** Terms saved, commercially registered and not sold: it can be booked. */
  rentable: boolean;
};

export function toRentalTerms(row: Selectable<RentalTermsTable>): RentalTerms {
  return {
    vehicleId: row.vehicle_id,
    hourlyRate: Number(row.hourly_rate),
    dailyRate: Number(row.daily_rate),
    weeklyRate: row.weekly_rate === null ? null : Number(row.weekly_rate),
    kmPerDay: row.km_per_day === null ? null : Number(row.km_per_day),
    extraKmRate: Number(row.extra_km_rate),
    deposit: Number(row.deposit),
    fuelPolicy: row.fuel_policy as FuelPolicy,
    minAge: Number(row.min_age),
    minHours: Number(row.min_hours),
    seats: Number(row.seats),
    commercialRegistration: Boolean(row.commercial_registration),
    deliveryAvailable: Boolean(row.delivery_available),
  };
}

/**
 * A vehicle's rental terms, or null when none are saved (whatever its purpose).
 * Input: a vehicle id. Errors: none.
 */
export async function getRentalTerms(database: Database, vehicleId: number): Promise<RentalTerms | null> {
  if (!Number.isSafeInteger(vehicleId) || vehicleId <= 0) return null;
  const row = await database.db.selectFrom('rental_terms').selectAll().where('vehicle_id', '=', vehicleId).executeTakeFirst();
  return row ? toRentalTerms(row) : null;
}

/** Whether a vehicle is part of the rental fleet ('rental') or sale stock ('sale'); null when it does not exist. */
export async function vehiclePurpose(database: Database, vehicleId: number): Promise<'sale' | 'rental' | null> {
  if (!Number.isSafeInteger(vehicleId) || vehicleId <= 0) return null;
  const row = await database.db.selectFrom('vehicles').select('purpose').where('id', '=', vehicleId).executeTakeFirst();
  return row ? row.purpose : null;
}

/**
 * Puts a vehicle in the rental fleet with these terms (or updates them). `terms` may be typed
 * input or raw values (a form's strings, a JSON body): it is validated here either way.
 * Input: vehicle id, terms. Errors: NotFoundError (no such vehicle), InvalidInputError with
 * `fields` (each wrong term, messages from app/features/rentals/rentals.ts parseRentalTerms).
 * Returns the saved terms. The caller audit-logs the change.
 */
export async function saveRentalTerms(
  deps: { database: Database; clock: Clock },
  input: { vehicleId: number; terms: RentalTermsInput | Record<string, unknown> },
): Promise<RentalTerms> {
  const parsed = parseRentalTerms(input.terms as Record<string, unknown>);
  if (!parsed.ok) throw new InvalidInputError(rentalTermsWrong(), parsed.fields);
  const terms = parsed.terms;
  const now = new Date(deps.clock.now()).toISOString();
  const columns = {
    hourly_rate: terms.hourlyRate,
    daily_rate: terms.dailyRate,
    weekly_rate: terms.weeklyRate,
    km_per_day: terms.kmPerDay,
    extra_km_rate: terms.extraKmRate,
    deposit: terms.deposit,
    fuel_policy: terms.fuelPolicy,
    min_age: terms.minAge,
    min_hours: terms.minHours,
    seats: terms.seats,
    commercial_registration: terms.commercialRegistration ? 1 : 0,
    delivery_available: terms.deliveryAvailable ? 1 : 0,
    updated_at: now,
  };
  await deps.database.db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('vehicles').set({ purpose: 'rental', updated_at: now }).where('id', '=', input.vehicleId).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new NotFoundError(t('vehicleNotFound'));
    await trx
      .insertInto('rental_terms')
      .values({ vehicle_id: input.vehicleId, ...columns, created_at: now })
      .onConflict((conflict) => conflict.column('vehicle_id').doUpdateSet(columns))
      .execute();
  });
  return { vehicleId: input.vehicleId, ...terms };
}

/**
 * Makes a fleet car sale stock again (its terms are kept for a return to the fleet; its
 * bookings stay as they are). Input: vehicle id. Errors: NotFoundError.
 */
export async function moveToSaleStock(deps: { database: Database; clock: Clock }, vehicleId: number): Promise<void> {
  const now = new Date(deps.clock.now()).toISOString();
  const updated = await deps.database.db.updateTable('vehicles').set({ purpose: 'sale', updated_at: now }).where('id', '=', vehicleId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new NotFoundError(t('vehicleNotFound'));
}

const fleetColumns = [
  'vehicles.id',
  'vehicles.name',
  'vehicles.make',
  'vehicles.model',
  'vehicles.variant',
  'vehicles.year',
  'vehicles.fuel_type',
  'vehicles.transmission',
  'vehicles.status',
] as const;

/**
 * The rental fleet (not sold), cheapest daily rate first, cars without terms last.
 * Input: options.rentableOnly to leave out cars that cannot be booked. Errors: none.
 */
export async function listFleet(database: Database, options: { rentableOnly?: boolean } = {}): Promise<FleetCar[]> {
  const rows = await database.db
    .selectFrom('vehicles')
    .leftJoin('rental_terms', 'rental_terms.vehicle_id', 'vehicles.id')
    .select(fleetColumns)
    .selectAll('rental_terms')
    // A literal, as in the partial index vehicles_rental_fleet_idx (SQLite cannot prove a bound
    // parameter matches it, and would read the whole inventory to find the few rental cars).
    .where(sql<SqlBool>`vehicles.purpose = 'rental'`)
    .where('vehicles.status', '<>', 'sold')
    .orderBy('vehicles.id')
    .execute();
  const covers = await coversFor(
    database,
    rows.map((row) => row.id),
  );
  const cars = rows.map((row) => toFleetCar(row, covers.get(row.id) ?? null));
  cars.sort((a, b) => (a.terms?.dailyRate ?? Number.MAX_SAFE_INTEGER) - (b.terms?.dailyRate ?? Number.MAX_SAFE_INTEGER) || a.id - b.id);
  return options.rentableOnly ? cars.filter((car) => car.rentable) : cars;
}

/** One fleet car, or null when the vehicle does not exist, is sale stock or is sold. Errors: none. */
export async function getFleetCar(database: Database, vehicleId: number): Promise<FleetCar | null> {
  if (!Number.isSafeInteger(vehicleId) || vehicleId <= 0) return null;
  const row = await database.db
    .selectFrom('vehicles')
    .leftJoin('rental_terms', 'rental_terms.vehicle_id', 'vehicles.id')
    .select(fleetColumns)
    .selectAll('rental_terms')
    .where('vehicles.purpose', '=', 'rental')
    .where('vehicles.status', '<>', 'sold')
    .where('vehicles.id', '=', vehicleId)
    .executeTakeFirst();
  if (!row) return null;
  const covers = await coversFor(database, [row.id]);
  return toFleetCar(row, covers.get(row.id) ?? null);
}

type FleetRow = Pick<Selectable<VehicleTable>, 'id' | 'name' | 'make' | 'model' | 'variant' | 'year' | 'fuel_type' | 'transmission' | 'status'> & {
  [K in keyof Selectable<RentalTermsTable>]: Selectable<RentalTermsTable>[K] | null;
};

function toFleetCar(row: FleetRow, cover: ImageRef | null): FleetCar {
  const terms = row.vehicle_id === null ? null : toRentalTerms(row as Selectable<RentalTermsTable>);
  return {
    id: row.id,
    name: row.name,
    make: row.make,
    model: row.model,
    variant: row.variant,
    year: row.year,
    fuelType: row.fuel_type,
    transmission: row.transmission,
    cover,
    terms,
    rentable: terms !== null && terms.commercialRegistration && row.status !== 'sold',
  };
}
