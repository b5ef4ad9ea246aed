import { sql, type SqlBool } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  carMatches,
  emptyFilters,
  FACET_BUCKETS,
  FILTER_NAMES,
  FILTERS,
  filterOf,
  SORT_NAMES,
  type FilterCar,
  type FilterName,
  type ListingFilters,
  type Match,
  type TextColumn,
} from '../../app/lib/listing-filters/catalogue.ts';
import { createCatalogueIndex, type CatalogueIndex } from '../../server/catalog/catalogue-index.ts';
import { listingFacetRows, matchCondition, sortOrder, type FacetRow } from '../../server/catalog/filters.ts';
import { listedSql } from '../../server/catalog/public-status.ts';
import { createCategory } from '../../server/catalog/vehicles.ts';
import type { Database } from '../../server/db/connection.ts';
import { openTestDatabase, vehicleRow } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * The filter table (app/lib/listing-filters/catalogue.ts) walked filter by filter, bucket by
 * bucket, on a real database of each kind: for every value, the cars its in-memory predicate
 * keeps (carMatches), the cars its SQL condition keeps (filters.ts matchCondition) and the cars
 * the in-memory listing index keeps (catalogue-index.ts) are the same; so are the counts per
 * bucket and the orders. The sample cars sit on the buckets' edges and lack values (NULL, '').
 */

const { dialect, url } = sharedServer();

const PRICES = [null, 0, 299_999, 300_000, 450_000, 499_999, 500_000, 800_000, 900_000, 1_199_999, 1_200_000, 2_000_000, 2_000_001];
const ODOMETERS = [null, 0, 24_999, 25_000, 49_999, 50_000, 74_999, 75_000, 99_999, 100_000, 250_000];
const YEARS = [null, 2010, 2015, 2016, 2019, 2020, 2021, 2022, 2024];
const OWNERS = [null, 1, 2, 3, 4, 7];
const MAKES = [
  ['maruti-suzuki', 'Maruti Suzuki', 'swift', 'Swift'],
  ['hyundai', 'Hyundai', 'creta', 'Creta'],
  ['tata', 'Tata', 'nexon', 'Nexon'],
  ['hyundai', 'Hyundai', 'i20', 'i20'],
] as const;
const FUELS = ['petrol', 'diesel', 'cng', 'electric', 'hybrid', ''];
const TRANSMISSIONS = ['manual', 'automatic', ''];
const BODIES = ['suv', 'sedan', 'hatchback', 'muv', ''];
const COLOURS = ['white', 'red', 'maroon', 'silver', ''];
const STATES = ['MH', 'KA', 'DL', ''];
const CARS = 48;

/** Car `index`'s filter columns ('' for a text it lacks, as stored): each list walked at its own pace, so the combinations vary. */
function sampleCar(index: number): FilterCar & Record<TextColumn, string> {
  const at = <Value>(list: readonly Value[], pace: number) => list[(index * pace) % list.length]!;
  const [makeSlug, make, modelSlug, model] = at(MAKES, 1);
  return {
    price_rupees: at(PRICES, 1),
    odometer: at(ODOMETERS, 3),
    model_year: at(YEARS, 5),
    owner_count: at(OWNERS, 7),
    make_slug: makeSlug,
    make,
    model_slug: modelSlug,
    model,
    fuel_key: at(FUELS, 5),
    transmission_key: at(TRANSMISSIONS, 1),
    body_type: at(BODIES, 3),
    colour: at(COLOURS, 7),
    registration_state: at(STATES, 3),
  };
}

/** Values each filter is tried with besides its buckets (one each, and a few together), as a URL writes them. */
const MORE_VALUES: Partial<Record<FilterName, string[]>> = {
  budget: ['4.5-9', '3-5,12-20', '-8'],
  km: ['-50000', '25000-50000,100000-'],
  owners: ['2,3', '1,3'],
  fuel: ['cng,electric'],
  year: ['2019-', '-2015', '2015-2019', '2020', '2030-'],
};

/** The values a filter is tried with: each bucket, or each value the cars have, and an unknown one; then MORE_VALUES. */
function valuesToTry(name: FilterName, cars: FilterCar[]): string[] {
  const { buckets, facet } = FILTERS[name];
  const own =
    buckets.length > 0 || facet.by === 'bucket' || facet.by === 'model_year'
      ? buckets.map((bucket) => bucket.value)
      : [...new Set(cars.map((car) => String(car[facet.by as keyof FilterCar] ?? '')))].filter(Boolean);
  return [...own, ...(MORE_VALUES[name] ?? [])];
}

describe.skipIf(!url)(`every filter and bucket of the table keeps the same cars in memory, by SQL and in the listing index (${dialect})`, () => {
  let database: Database;
  let cleanup: () => Promise<void>;
  let index: CatalogueIndex;
  /** The sample cars for sale, by id. */
  const cars = new Map<number, FilterCar>();

  beforeAll(async () => {
    ({ database, cleanup } = await openTestDatabase(dialect));
    const categoryId = await createCategory(database, { name: 'Cars' }, Date.now());
    for (let car = 0; car < CARS; car++) {
      const columns = sampleCar(car);
      // A sold car and a draft are in no listing, whatever their columns.
      const status = car === 5 ? 'sold' : car === 11 ? 'draft' : 'available';
      const created = new Date(Date.UTC(2026, 0, 1 + (car % 9))).toISOString();
      const row = await database.db
        .insertInto('vehicles')
        .values(vehicleRow({ category_id: categoryId, name: `Car ${car}`, ...columns, status, featured: car % 10 === 0 ? 1 : 0, created_at: created }))
        .returning('id')
        .executeTakeFirstOrThrow();
      if (status === 'available') cars.set(row.id, columns);
    }
    index = createCatalogueIndex(database);
  }, 60_000);

  afterAll(async () => {
    await cleanup?.();
  });

  /** The ids of the cars for sale meeting `condition`, smallest first. */
  async function idsWhere(condition: ReturnType<typeof matchCondition> | null): Promise<number[]> {
    const rows = await database.db
      .selectFrom('vehicles')
      .where(listedSql)
      .where(sql<SqlBool>`vehicles.purpose = 'sale'`)
      .where(condition ?? sql<SqlBool>`1 = 1`)
      .select('vehicles.id')
      .orderBy('vehicles.id')
      .execute();
    return rows.map((row) => row.id);
  }

  const answer = (filters: ListingFilters, sort: (typeof SORT_NAMES)[number] = 'newest', facets = false) =>
    index.answer({ terms: [], filters, sort, facets, windowFor: () => ({ offset: 0, limit: CARS }) });

  const kept = (match: Match) => [...cars].filter(([, car]) => carMatches(match, car)).map(([id]) => id);

  for (const name of FILTER_NAMES) {
    it(`${name}: each value keeps the same cars in memory, by SQL and in the listing index`, async () => {
      const values = valuesToTry(name, [...cars.values()]);
      expect(values.length, `${name} is tried with some values`).toBeGreaterThan(1);
      let tellsApart = false;
      for (const text of values) {
        const filter = filterOf(name);
        const read = filter.read.parse(text);
        expect(read.problem, `${name}=${text} is read`).toBeNull();
        const match = filter.match(read.value);
        expect(match, `${name}=${text} keeps some cars`).not.toBeNull();
        const inMemory = kept(match!);
        expect(await idsWhere(matchCondition(match!)), `${name}=${text} by SQL`).toEqual(inMemory);
        const fromIndex = await answer({ ...emptyFilters(), [name]: read.value });
        expect(fromIndex.matches, `${name}=${text} in the listing index`).toBe(inMemory.length);
        expect(
          [...fromIndex.pageIds].sort((a, b) => a - b),
          `${name}=${text} in the listing index`,
        ).toEqual(inMemory);
        if (inMemory.length > 0 && inMemory.length < cars.size) tellsApart = true;
      }
      // The sample cars are varied enough to tell a wrong condition from a right one.
      expect(tellsApart, `${name}: some value keeps some cars but not all`).toBe(true);
    });
  }

  it('counts the cars of each bucket alike by SQL, in the listing index and in memory (each car under the first bucket that keeps it)', async () => {
    const rows = (list: FacetRow[]) =>
      list
        .filter((row) => row.value !== null)
        .map((row) => ({ facet: row.facet, value: row.value, parent: row.parent, label: row.label, count: Number(row.count) }))
        .sort((a, b) => `${a.facet}/${a.parent}/${a.value}`.localeCompare(`${b.facet}/${b.parent}/${b.value}`));
    const base = [listedSql, sql<SqlBool>`vehicles.purpose = 'sale'`];
    // With makes chosen, the models within them are counted too; and with a filter of each kind on.
    for (const filters of [
      { ...emptyFilters(), make: ['hyundai', 'tata'] },
      { ...emptyFilters(), make: ['hyundai'], owners: [3 as const], budget: [{ min: null, max: 800_000 }], fuel: ['petrol' as const, 'diesel' as const] },
    ]) {
      const fromIndex = await answer(filters, 'newest', true);
      expect(rows(fromIndex.facets!), JSON.stringify(filters)).toEqual(rows(await listingFacetRows(database, { base, filters })));
    }
    const bySql = await listingFacetRows(database, { base, filters: emptyFilters() });
    for (const [name, buckets] of Object.entries(FACET_BUCKETS)) {
      for (const bucket of buckets) {
        const expected = [...cars.values()].filter((car) => buckets.find((first) => carMatches(first.match, car))?.value === bucket.value).length;
        const counted = rows(bySql).find((row) => row.facet === name && row.value === bucket.value)?.count ?? 0;
        expect(counted, `${name} ${bucket.value}`).toBe(expected);
      }
    }
  });

  for (const sort of SORT_NAMES) {
    it(`orders the cars alike by SQL and in the listing index: ${sort}`, async () => {
      const bySql = await database.db
        .selectFrom('vehicles')
        .where(listedSql)
        .where(sql<SqlBool>`vehicles.purpose = 'sale'`)
        .select('vehicles.id')
        .orderBy(sortOrder(sort))
        .execute();
      expect((await answer(emptyFilters(), sort)).pageIds).toEqual(bySql.map((row) => row.id));
    });
  }
});
