import type { Updateable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VehicleInput } from '../../app/lib/vehicle.ts';
import type { Sort } from '../../app/lib/listing-filters/catalogue.ts';
import { createVehicleListing } from '../../server/catalog/listing.ts';
import { createCategory, createVehicle } from '../../server/catalog/vehicles.ts';
import type { Database } from '../../server/db/connection.ts';
import type { VehicleTable } from '../../server/db/schema.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { openTestDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * A search reads its own index of the cars for sale (SQLite: vehicles_fts; PostgreSQL: the
 * vehicle_search table of migration 016), kept by triggers. Cars stored before migration 016
 * are found after it, and every change to a car shows in the next search: its text, its sale,
 * its return to sale, its move to the rental fleet, the columns a search is sorted by, and its
 * removal.
 */

const { dialect, url } = sharedServer();

const car = (categoryId: number, fields: Partial<VehicleInput>): VehicleInput => ({
  categoryId,
  name: '',
  make: 'Hyundai',
  model: 'Creta',
  variant: 'SX',
  year: '2021',
  fuelType: 'Diesel',
  transmission: 'Manual',
  price: '10,00,000',
  owners: '1st Owner',
  registration: 'MH-12',
  insuranceValidity: '',
  fitnessFC: '',
  tyrePoint: '',
  description: '',
  featured: false,
  odometer: 40000,
  inspection: null,
  refurbishment: null,
  financial: null,
  videoUrl: '',
  bodyType: 'suv',
  colour: '',
  ...fields,
});

describe.skipIf(!url)('search follows every change to a car', () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  const ids: Record<'old' | 'cheap' | 'dear', number> = { old: 0, cheap: 0, dear: 0 };

  /** The ids a search gives, in the listing's order. */
  const found = async (query: string, sort?: Sort) => (await createVehicleListing(database).page({ query, sort, perPage: 100 })).items.map((item) => item.id);
  const update = (id: number, set: Updateable<VehicleTable>) => database.db.updateTable('vehicles').set(set).where('id', '=', id).execute();

  beforeAll(async () => {
    ({ database, cleanup } = await openTestDatabase(dialect, { upTo: '014-sale-listing-indexes' }));
    const categoryId = await createCategory(database, { name: 'SUVs' }, Date.now());
    ids.old = await createVehicle(database, car(categoryId, { description: 'Stored before the search table, in tangerine orange.' }), [], Date.now());
    await migrateToLatest(database);
    ids.cheap = await createVehicle(database, car(categoryId, { price: '6,00,000', description: 'Added after it.' }), [], Date.now());
    ids.dear = await createVehicle(database, car(categoryId, { price: '14,00,000', description: 'Added after it.' }), [], Date.now());
  }, 120_000);

  afterAll(async () => {
    await cleanup?.();
  });

  it('finds the cars stored before migration 016 and those added after it', async () => {
    expect(await found('tangerine')).toEqual([ids.old]);
    expect(await found('creta', 'price_asc')).toEqual([ids.cheap, ids.old, ids.dear]);
  });

  it('follows a change of the searched text', async () => {
    await update(ids.old, { search_text: 'hyundai creta sx in saffron' });
    expect(await found('tangerine')).toEqual([]);
    expect(await found('saffron')).toEqual([ids.old]);
  });

  it('follows the columns a search is sorted by', async () => {
    await update(ids.dear, { price_rupees: 300_000 });
    expect(await found('creta', 'price_asc')).toEqual([ids.dear, ids.cheap, ids.old]);
    await update(ids.cheap, { featured: 1 });
    expect((await found('creta'))[0]).toBe(ids.cheap);
  });

  it('drops a car when it is sold and finds it again when it is back on sale', async () => {
    await update(ids.cheap, { status: 'sold' });
    expect(await found('creta')).not.toContain(ids.cheap);
    await update(ids.cheap, { status: 'reserved' });
    expect(await found('creta')).toContain(ids.cheap);
  });

  it('drops a car moved to the rental fleet', async () => {
    await update(ids.dear, { purpose: 'rental' });
    expect(await found('creta')).not.toContain(ids.dear);
  });

  it('drops a deleted car', async () => {
    await database.db.deleteFrom('vehicles').where('id', '=', ids.old).execute();
    expect(await found('saffron')).toEqual([]);
    expect(await found('creta')).toEqual([ids.cheap]);
  });
});
