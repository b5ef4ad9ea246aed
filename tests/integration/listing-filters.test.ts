import { beforeAll, describe, expect, it } from 'vitest';
import type { DemoVehicle } from '../../server/db/demo/inventory.ts';
import { demoSaleVehicles } from '../../server/db/demo/rental-fleet.ts';
import { filterQueries, passes, sortKey } from '../support/filter-rule.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * The buyer's filters, sorts and facet counts through GET /api/v1/vehicles, on the shared
 * server seeded with the demo inventory, against an independent reading of the rules
 * (tests/support/filter-rule.ts). The pages' part (form, chips, robots) is in
 * listing-filters-pages.test.ts.
 */

const { url: base } = sharedServer();

type Item = {
  id: number;
  name: string;
  make: string;
  model: string;
  variant: string;
  year: number | null;
  priceRupees: number | null;
  odometer: number | null;
  fuelType: string;
  transmission: string;
  bodyType: string;
  featured: boolean;
};
type FacetOption = { value: string; label: string; count: number };
type Listing = { items: Item[]; total: number; page: number; pageCount: number; perPage: number; facets: Record<string, FacetOption[]> };

async function listing(query: string): Promise<Listing> {
  const response = await fetch(`${base}/api/v1/vehicles?perPage=100&${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as Listing;
}

const keyOf = (vehicle: { make: string; model: string; variant: string; year: string | number | null; name: string }) =>
  [vehicle.make, vehicle.model, vehicle.variant, String(vehicle.year), vehicle.name].join('|');

/** Every car's id, and the default order, read once. */
const idOf = new Map<DemoVehicle, number>();
let defaultOrder: number[] = [];

function expectedIds(query: string): number[] {
  const params = new URLSearchParams(query);
  const wanted = new Set(demoSaleVehicles.filter((vehicle) => passes(vehicle, params)).map((vehicle) => idOf.get(vehicle)));
  return defaultOrder.filter((id) => wanted.has(id));
}

describe.skipIf(!base)('listing filters, sorts and facet counts', () => {
  beforeAll(async () => {
    const all = await listing('');
    expect(all.total).toBe(demoSaleVehicles.length);
    defaultOrder = all.items.map((item) => item.id);
    const byKey = new Map(all.items.map((item) => [keyOf(item), item.id]));
    for (const vehicle of demoSaleVehicles) {
      expect(byKey.get(keyOf(vehicle)), keyOf(vehicle)).toBeDefined();
      idOf.set(vehicle, byKey.get(keyOf(vehicle))!);
    }
  });

  it.each(filterQueries)('%s gives exactly the cars the rule gives, in the listing order', async (query) => {
    const result = await listing(query);
    const expected = expectedIds(query);
    expect(result.items.map((item) => item.id)).toEqual(expected);
    expect(result.total).toBe(expected.length);
  });

  it('filters something out and keeps something for most single filters (the cases mean something)', () => {
    const meaningful = filterQueries.filter((query) => {
      const count = expectedIds(query).length;
      return count > 0 && count < demoSaleVehicles.length;
    });
    expect(meaningful.length).toBeGreaterThan(filterQueries.length - 4);
  });

  const sorts = ['price_asc', 'price_desc', 'year_desc', 'km_asc'];
  it.each(sorts.flatMap((sort) => ['', 'fuel=diesel', 'q=maruti', 'q=suv&budget=5-20'].map((query) => ({ sort, query }))))(
    'sort=$sort with "$query" orders by its key, cars without it last, newest id first on ties',
    async ({ sort, query }) => {
      const result = await listing(`${query}&sort=${sort}`);
      const params = new URLSearchParams(query);
      const expected = demoSaleVehicles
        .filter((vehicle) => passes(vehicle, params))
        .map((vehicle) => ({ id: idOf.get(vehicle)!, key: sortKey(vehicle, sort) }))
        .sort((a, b) => (a.key === b.key ? b.id - a.id : a.key < b.key ? -1 : 1))
        .map((entry) => entry.id);
      expect(result.items.map((item) => item.id)).toEqual(expected);
    },
  );

  it('sort=newest is the default order: featured first, then newest', async () => {
    expect((await listing('sort=newest')).items.map((item) => item.id)).toEqual(defaultOrder);
  });

  it('pages a sorted, filtered listing without repeating or losing a car', async () => {
    const all = (await listing('fuel=petrol,diesel&sort=price_asc')).items.map((item) => item.id);
    const paged: number[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 7); page++) {
      const response = await fetch(`${base}/api/v1/vehicles?fuel=petrol,diesel&sort=price_asc&perPage=7&page=${page}`);
      paged.push(...((await response.json()) as Listing).items.map((item) => item.id));
    }
    expect(paged).toEqual(all);
  });

  it('carries numbers and keys an app can show and check', async () => {
    const result = await listing('');
    for (const item of result.items) {
      const vehicle = demoSaleVehicles.find((candidate) => idOf.get(candidate) === item.id)!;
      expect(item.year).toBe(Number(vehicle.year));
      expect(item.odometer).toBe(vehicle.odometer);
      expect(item.priceRupees === null || typeof item.priceRupees === 'number').toBe(true);
      expect(item.fuelType).toBe(vehicle.fuelType);
      expect(item.transmission).toBe(vehicle.transmission);
      expect(item.bodyType).toBe(vehicle.bodyType);
    }
    // A price in words has no number: it leaves budget filters but stays in the listing.
    const worded = result.items.filter((item) => item.priceRupees === null);
    expect(worded.length).toBeGreaterThan(0);
    const budgeted = await listing('budget=-1000');
    for (const item of worded) expect(budgeted.items.map((entry) => entry.id)).not.toContain(item.id);
  });

  // Each option's count is the total its own filter set to that option alone would give, with
  // every other filter as it is.
  it.each(['', 'fuel=diesel', 'budget=5-8&fuel=diesel', 'q=maruti&trans=manual', 'make=hyundai,kia&body=suv&km=-50000', 'q=zzzzqq'])(
    'facet counts with "%s" equal the counts of the listings they lead to',
    async (query) => {
      const result = await listing(query);
      const params = new URLSearchParams(query);
      expect(Object.keys(result.facets).sort()).toEqual(['body', 'budget', 'color', 'fuel', 'km', 'make', 'model', 'owners', 'state', 'trans', 'year'].sort());
      let checked = 0;
      for (const [facet, options] of Object.entries(result.facets)) {
        for (const option of options) {
          const next = new URLSearchParams(params);
          next.set(facet, option.value);
          const expected = demoSaleVehicles.filter((vehicle) => passes(vehicle, next)).length;
          expect(option.count, `${facet}=${option.value} with ${query}`).toBe(expected);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
      // A few through the server itself, not only through the rule.
      for (const facet of ['fuel', 'budget', 'make']) {
        const option = result.facets[facet]!.find((candidate) => candidate.count > 0);
        if (!option) continue;
        const next = new URLSearchParams(params);
        next.set(facet, option.value);
        expect((await listing(next.toString())).total).toBe(option.count);
      }
    },
  );

  it('offers models only within the chosen makes', async () => {
    expect((await listing('')).facets.model).toEqual([]);
    const models = (await listing('make=toyota')).facets.model!;
    expect(models.length).toBeGreaterThan(1);
    expect(models.every((option) => option.label.startsWith('Toyota '))).toBe(true);
  });

  it.each([
    ['fuel=coal', /fuel must be one or more of petrol, diesel, cng, electric, hybrid/],
    ['trans=cvt', /trans must be/],
    ['body=tank', /body must be/],
    ['budget=cheap', /budget must be lakh ranges/],
    ['budget=8-5', /budget must be lakh ranges/],
    ['km=lots', /km must be kilometre ranges/],
    ['year=19', /year must be a range of years/],
    ['year=1800-', /year must be a range of years/],
    ['owners=0', /owners must be 1, 2 or 3/],
    ['color=plaid', /color must be/],
    ['state=ZZ', /state must be registration state codes/],
    ['make=%00', /make must be slugs/],
    ['sort=cheapest', /sort must be one of newest, price_asc/],
    [`fuel=${'diesel,'.repeat(1000)}`, null],
  ])('answers %s with 400 and what is wrong (or forgives a long list)', async (query, message) => {
    const response = await fetch(`${base}/api/v1/vehicles?${query}`);
    if (message === null) {
      expect(response.status).toBe(200);
      return;
    }
    expect(response.status).toBe(400);
    const body = (await response.json()) as { detail: string };
    expect(body.detail).toMatch(message);
  });

  // One schema reads both (app/features/listing/schemas.ts): the API names what it dropped, the
  // pages show the cars without it, and neither answers 500 or refuses a shared link.
  it.each([
    ['budget=99999999-&km=99999999999-', /budget must be.*km must be/],
    ['budget=-5--3&year=2019-2015', /budget must be.*year must be/],
    ['year=99999-', /year must be/],
    ['fuel=diesel%00&state=MH%00', /fuel must be.*state must be/],
    ['sort=newest%00', /sort must be/],
    ['fuel=coal&fuel=diesel&fuel[]=petrol', /fuel must be/],
    ['category=suvs%00', /category must be/],
    ['category=99999999999999999999', /category must be/],
  ])('answers the hostile %s with 400 from the API and the page without it', async (query, message) => {
    const response = await fetch(`${base}/api/v1/vehicles?${query}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(message);
    for (const page of ['/', '/categories']) expect((await fetch(`${base}${page}?${query}`)).status).toBe(200);
  });

  it('ignores unknown parameters, odd pages and odd page sizes', async () => {
    for (const query of [
      '__proto__=1&constructor=x',
      'page=-1&perPage=-5',
      'page=1e99&perPage=1e99',
      'page=99999999999999999999&perPage=0',
      'page[]=2&q[]=swift',
    ]) {
      expect((await fetch(`${base}/api/v1/vehicles?${query}`)).status, query).toBe(200);
      expect((await fetch(`${base}/?${query}`)).status, query).toBe(200);
    }
  });
});
