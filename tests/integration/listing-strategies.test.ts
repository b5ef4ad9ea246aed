import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readListingQuery } from '../../app/features/listing/schemas.ts';
import type { Sort } from '../../app/lib/listing-filters/catalogue.ts';
import type { VehicleInput } from '../../app/lib/vehicle.ts';
import { createVehicleListing, LISTING_COUNT_CAP, type ListingOptions } from '../../server/catalog/listing.ts';
import { createCategory, vehicleColumns } from '../../server/catalog/vehicles.ts';
import type { Database } from '../../server/db/connection.ts';
import { openTestDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * Each database finds a listing's cars its own way (server/catalog/listing/): SQLite walks the
 * order's index checking each car for a first page of many matches and asks its search index
 * for a deeper one; PostgreSQL walks vehicle_search in order or collects the matches and sorts
 * them, by how many there are. Whichever way a page is found, it holds the cars the listing's
 * order puts there: checked here against the order worked out from the stored cars, on a
 * listing past the count's cap (1,150 cars, 1,035 of them Cretas) and on a small one.
 */

const { dialect, url } = sharedServer();

type Stored = { id: number; model: string; diesel: boolean; featured: boolean; createdAt: string; price: number };

const CARS = 1150;

describe.skipIf(!url)('listing pages on either database hold the cars its order puts there', () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  const stored: Stored[] = [];

  beforeAll(async () => {
    ({ database, cleanup } = await openTestDatabase(dialect));
    const categoryId = await createCategory(database, { name: 'SUVs' }, Date.parse('2026-01-01T00:00:00Z'));
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let start = 0; start < CARS; start += 100) {
      const rows = [];
      for (let index = start; index < Math.min(CARS, start + 100); index++) {
        const nexon = index % 10 === 0;
        const price = 300_000 + ((index * 7919) % 1_500_000);
        const input: VehicleInput = {
          categoryId,
          name: '',
          make: nexon ? 'Tata' : 'Hyundai',
          model: nexon ? 'Nexon' : 'Creta',
          variant: 'SX',
          year: '2021',
          fuelType: index % 3 === 0 ? 'Petrol' : 'Diesel',
          transmission: 'Manual',
          price: String(price),
          owners: '1st Owner',
          registration: 'MH-12',
          insuranceValidity: '',
          fitnessFC: '',
          tyrePoint: '',
          description: '',
          featured: index % 37 === 0,
          odometer: 40_000,
          inspection: null,
          refurbishment: null,
          financial: null,
          videoUrl: '',
          bodyType: 'suv',
          colour: '',
        };
        // Some cars share a creation time, so ties are broken by id.
        const createdAt = new Date(base + Math.floor(index / 2) * 1000).toISOString();
        rows.push({ input, createdAt, price, nexon });
      }
      const ids = await database.db
        .insertInto('vehicles')
        .values(
          rows.map(({ input, createdAt }) => ({
            ...vehicleColumns(input, 'SUVs'),
            status: 'available' as const,
            created_at: createdAt,
            updated_at: createdAt,
          })),
        )
        .returning('id')
        .execute();
      rows.forEach((row, index) =>
        stored.push({
          id: ids[index]!.id,
          model: row.nexon ? 'Nexon' : 'Creta',
          diesel: row.input.fuelType === 'Diesel',
          featured: row.input.featured,
          createdAt: row.createdAt,
          price: row.price,
        }),
      );
    }
    // PostgreSQL chooses between walking and collecting from the table's size in its statistics.
    if (dialect === 'postgres') await sql`ANALYZE vehicle_search`.execute(database.db);
  }, 120_000);

  afterAll(async () => {
    await cleanup?.();
  });

  /** The listing's order worked out from the stored cars. */
  const ordered = (cars: Stored[], sort: Sort) =>
    [...cars].sort((a, b) => {
      if (sort === 'price_asc') return a.price - b.price || b.id - a.id;
      return Number(b.featured) - Number(a.featured) || b.createdAt.localeCompare(a.createdAt) || b.id - a.id;
    });

  const pageOf = async (options: Omit<ListingOptions, 'perPage'>) => createVehicleListing(database).page({ ...options, perPage: 10 });

  const cases: Array<{ name: string; options: Omit<ListingOptions, 'perPage' | 'page'>; cars: (car: Stored) => boolean; pages: number[] }> = [
    { name: 'a search past the cap', options: { query: 'creta' }, cars: (car) => car.model === 'Creta', pages: [1, 5, 60, 100] },
    { name: 'a search past the cap, by price', options: { query: 'creta', sort: 'price_asc' }, cars: (car) => car.model === 'Creta', pages: [1, 40] },
    { name: 'a small search', options: { query: 'nexon' }, cars: (car) => car.model === 'Nexon', pages: [1, 3, 12] },
    { name: 'the whole listing past the cap', options: {}, cars: () => true, pages: [1, 100] },
    {
      name: 'a search with a filter',
      options: { query: 'creta', filters: readListingQuery(new URLSearchParams('fuel=diesel')).filters, sort: 'price_asc' },
      cars: (car) => car.model === 'Creta' && car.diesel,
      pages: [1, 30],
    },
  ];

  for (const { name, options, cars, pages } of cases) {
    it(`pages ${name} in the listing's order`, async () => {
      const expected = ordered(stored.filter(cars), options.sort ?? 'newest');
      for (const page of pages) {
        const result = await pageOf({ ...options, page });
        expect(result.totalCapped).toBe(expected.length > LISTING_COUNT_CAP);
        expect(result.total).toBe(Math.min(expected.length, LISTING_COUNT_CAP));
        expect(result.page).toBe(page);
        expect(result.items.map((item) => item.id)).toEqual(expected.slice((page - 1) * 10, page * 10).map((car) => car.id));
      }
    });
  }
});
