import { beforeAll, describe, expect, it } from 'vitest';
import type { DemoVehicle } from '../../server/db/demo/inventory.ts';
import { demoSaleVehicles } from '../../server/db/demo/rental-fleet.ts';
import { sharedServer } from '../support/shared.ts';
import { decodeEntities, mainOf, visibleText } from '../support/html.ts';
import { fieldText, searchedFields, searchFinds, type SearchedField } from '../support/search-rule.ts';

/**
 * Search and listing of the public catalogue, through the HTML page (/?q=) and the JSON API
 * (/api/v1/vehicles), on the shared server seeded with the demo inventory. Expected results
 * come from an independent reading of the rule: every word typed is a case-insensitive
 * substring of make, model, name, variant, year, fuel, transmission, body type, category,
 * registration city or state, or description (tests/support/search-rule.ts).
 */

const { url: base } = sharedServer();

type Summary = { id: number; name: string; make: string; model: string; variant: string; year: number | null; featured: boolean; categoryName: string };
type VehiclePage = { items: Summary[]; total: number; page: number; pageCount: number; perPage: number };

// ---------------------------------------------------------------- helpers

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(base + path);
  expect(response.status, path).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as T;
}

async function getHtml(path: string, status = 200): Promise<string> {
  const response = await fetch(base + path);
  expect(response.status, path).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  return response.text();
}

const search = (query: string, extra = '') => getJson<VehiclePage>(`/api/v1/vehicles?q=${encodeURIComponent(query)}&perPage=100${extra}`);

/** Vehicle ids of the cards on a listing page, in order. */
/** The vehicle links of the listing itself (the home page's storefront above it has featured cars too). */
function cardIds(html: string): number[] {
  const main = mainOf(html);
  const listing = main.slice(Math.max(0, main.indexOf('aria-labelledby="results-heading"')));
  return [...listing.matchAll(/<a\b[^>]*href="\/vehicle\/(\d+)"/g)].map((match) => Number(match[1]));
}

// ---------------------------------------------------------------- the expected answer

const matches = searchFinds;

const keyOf = (vehicle: Pick<Summary, 'make' | 'model' | 'variant' | 'name'> & { year: string | number | null }) =>
  [vehicle.make, vehicle.model, vehicle.variant, vehicle.year, vehicle.name].join('|');

/** Every vehicle in listing order (featured first, then newest), read once from the API. */
let listing: Summary[] = [];
const idOf = new Map<DemoVehicle, number>();

function expectedIds(query: string): number[] {
  const wanted = new Set(demoSaleVehicles.filter((vehicle) => matches(vehicle, query)).map((vehicle) => idOf.get(vehicle)));
  return listing.filter((vehicle) => wanted.has(vehicle.id)).map((vehicle) => vehicle.id);
}

function demo(predicate: (vehicle: DemoVehicle) => boolean): DemoVehicle {
  const found = demoSaleVehicles.filter(predicate);
  if (found.length !== 1) throw new Error(`expected one demo vehicle, found ${found.length}`);
  return found[0]!;
}

const idFor = (predicate: (vehicle: DemoVehicle) => boolean) => idOf.get(demo(predicate))!;

describe.skipIf(!base)('catalogue search and listing', () => {
  beforeAll(async () => {
    const all = await getJson<VehiclePage>('/api/v1/vehicles?perPage=100');
    listing = all.items;
    expect(all.total).toBe(demoSaleVehicles.length);
    expect(listing).toHaveLength(demoSaleVehicles.length);
    const byKey = new Map(listing.map((vehicle) => [keyOf(vehicle), vehicle.id]));
    expect(byKey.size, 'every demo vehicle is told apart by make, model, variant, year and name').toBe(demoSaleVehicles.length);
    for (const vehicle of demoSaleVehicles) {
      const id = byKey.get(keyOf(vehicle));
      expect(id, keyOf(vehicle)).toBeDefined();
      idOf.set(vehicle, id!);
    }
  });

  describe('listing order', () => {
    it('lists every vehicle for sale, featured first, then newest first', () => {
      const featured = demoSaleVehicles.filter((vehicle) => vehicle.featured);
      const others = demoSaleVehicles.filter((vehicle) => !vehicle.featured);
      expect(featured.length).toBeGreaterThan(0);
      expect(listing.map((vehicle) => vehicle.id)).toEqual([...featured, ...others].map((vehicle) => idOf.get(vehicle)));
      expect(listing.slice(0, featured.length).every((vehicle) => vehicle.featured)).toBe(true);
    });

    it('shows the same first ten vehicles on the home page as the API', async () => {
      const html = await getHtml('/');
      expect(cardIds(html)).toEqual(listing.slice(0, 10).map((vehicle) => vehicle.id));
      const text = visibleText(mainOf(html));
      expect(text).toContain('Available Vehicles');
      expect(text).not.toContain('Search results for');
    });

    it('treats an empty or blank search as no search', async () => {
      for (const query of ['', '   ']) {
        const page = await getJson<VehiclePage>(`/api/v1/vehicles?q=${encodeURIComponent(query)}`);
        expect(page.total).toBe(demoSaleVehicles.length);
        const html = await getHtml(`/?q=${encodeURIComponent(query)}`);
        expect(visibleText(mainOf(html))).not.toContain('Search results for');
        expect(cardIds(html)).toEqual(listing.slice(0, 10).map((vehicle) => vehicle.id));
      }
    });
  });

  describe('search over every field', () => {
    // Each term is in exactly one searched field of its target vehicle, so finding the
    // target proves that field is searched.
    const cases: Array<{ field: SearchedField; term: string; target: (vehicle: DemoVehicle) => boolean }> = [
      { field: 'make', term: 'Maruti', target: (vehicle) => vehicle.model === 'WagonR' },
      { field: 'model', term: 'WagonR', target: (vehicle) => vehicle.model === 'WagonR' },
      { field: 'name', term: '(O) Diesel', target: (vehicle) => vehicle.name === 'Jeep Compass Limited (O) Diesel' },
      { field: 'variant', term: 'LXi', target: (vehicle) => vehicle.model === 'WagonR' },
      { field: 'year', term: '2018', target: (vehicle) => vehicle.model === 'Ciaz' },
      { field: 'category', term: 'Sedans', target: (vehicle) => vehicle.model === 'Ciaz' },
      { field: 'fuelType', term: 'Electric', target: (vehicle) => vehicle.name === 'MG ZS EV Exclusive' },
      { field: 'transmission', term: 'Automatic', target: (vehicle) => vehicle.name === 'Toyota Glanza V AMT' },
      { field: 'bodyType', term: 'Pickup', target: (vehicle) => vehicle.name === 'Toyota Hilux High 4x4 AT' },
      { field: 'registration', term: 'Gurugram', target: (vehicle) => vehicle.name === 'Volkswagen Virtus GT Plus DSG' },
      { field: 'description', term: 'Obsidian', target: (vehicle) => vehicle.model === 'C-Class' },
    ];

    it.each(cases)('finds a vehicle by its $field ("$term") through the API', async ({ field, term, target }) => {
      const vehicle = demo(target);
      const holding = searchedFields.filter((candidate) => fieldText(vehicle, candidate).includes(term.toLowerCase()));
      expect(holding, `"${term}" should be only in the ${field} of the target`).toEqual([field]);

      const result = await search(term);
      expect(result.items.map((item) => item.id)).toContain(idOf.get(vehicle));
      expect(result.items.map((item) => item.id)).toEqual(expectedIds(term));
      expect(result.total).toBe(expectedIds(term).length);
    });

    it.each(cases)('finds a vehicle by its $field ("$term") on the search page', async ({ term, target }) => {
      const expected = expectedIds(term);
      const html = await getHtml(`/?q=${encodeURIComponent(term)}`);
      const text = visibleText(mainOf(html));
      expect(text).toContain(`Search results for “${term}”`);
      expect(text).toContain(expected.length === 1 ? '1 vehicle found' : `${expected.length} vehicles found`);
      expect(cardIds(html)).toEqual(expected.slice(0, 10));
      if (expected.indexOf(idOf.get(demo(target))!) < 10) expect(cardIds(html)).toContain(idOf.get(demo(target)));
    });

    it('finds exactly the vehicles of a category by its name', async () => {
      const hatchbacks = demoSaleVehicles.filter((vehicle) => vehicle.category === 'Hatchbacks');
      const result = await search('Hatchbacks');
      expect(new Set(result.items.map((item) => item.id))).toEqual(new Set(hatchbacks.map((vehicle) => idOf.get(vehicle))));
      expect(result.items.every((item) => item.categoryName === 'Hatchbacks')).toBe(true);
    });

    it('says "1 vehicle found" for a single result', async () => {
      expect(expectedIds('Obsidian')).toHaveLength(1);
      const html = await getHtml('/?q=Obsidian');
      const text = visibleText(mainOf(html));
      expect(text).toContain('Search results for “Obsidian”');
      expect(text).toMatch(/(^|\s)1 vehicle found/);
      expect(text).not.toContain('1 vehicles found');
      expect(cardIds(html)).toEqual([idFor((vehicle) => vehicle.model === 'C-Class')]);
    });

    it('does not search fields that are not listed (registration, price)', async () => {
      // 'MH-02' is only ever a registration; '13,95,000'-style prices are not searched text.
      expect((await search('MH-02')).total).toBe(expectedIds('MH-02').length);
      expect((await search('1395000')).total).toBe(expectedIds('1395000').length);
    });
  });

  describe('matching rules', () => {
    const cretaIds = () => demoSaleVehicles.filter((vehicle) => vehicle.model === 'Creta').map((vehicle) => idOf.get(vehicle)!);

    it('ignores case in what is typed', async () => {
      const lower = await search('creta');
      expect(lower.items.map((item) => item.id).sort()).toEqual(expect.arrayContaining(cretaIds()));
      for (const variant of ['CRETA', 'Creta', 'cReTa']) {
        expect(
          (await search(variant)).items.map((item) => item.id),
          variant,
        ).toEqual(lower.items.map((item) => item.id));
      }
    });

    it('shows the term as typed in the heading, whatever its case', async () => {
      const html = await getHtml('/?q=CRETA');
      expect(visibleText(mainOf(html))).toContain('Search results for “CRETA”');
      expect(cardIds(html)).toEqual(expectedIds('creta'));
    });

    it('matches part of a word', async () => {
      const result = await search('cret');
      expect(result.items.map((item) => item.id)).toEqual(expect.arrayContaining(cretaIds()));
      expect(result.items.map((item) => item.id)).toEqual(expectedIds('cret'));
      const html = await getHtml('/?q=cret');
      expect(visibleText(mainOf(html))).toContain('Search results for “cret”');
      expect(cardIds(html)).toEqual(expectedIds('cret'));
    });

    it('needs every word, each in any field', async () => {
      const both = await search('hyundai creta');
      expect(both.items.map((item) => item.id).sort()).toEqual(cretaIds().sort());
      const year = await search('creta 2021');
      expect(year.items.map((item) => item.id)).toEqual([idFor((vehicle) => vehicle.name === 'Hyundai Creta SX 1.5 CRDi')]);
      expect((await search('creta zzz')).total).toBe(0);
    });

    it('never finds a car of the rental fleet, whatever is typed', async () => {
      const fleet = await getJson<{ items: Array<{ id: number; name: string }> }>('/api/v1/rentals/cars');
      expect(fleet.items.length).toBeGreaterThan(0);
      const fleetIds = new Set(fleet.items.map((car) => car.id));
      // "Self Drive" and "2022 Creta" are words of the fleet's Creta only; its name finds nothing for sale.
      for (const query of ['creta', 'self drive', 'Hyundai Creta S – Self Drive', 'Rental Cars']) {
        const result = await search(query);
        expect(
          result.items.filter((item) => fleetIds.has(item.id)),
          query,
        ).toEqual([]);
        expect(
          result.items.map((item) => item.id),
          query,
        ).toEqual(expectedIds(query));
      }
      expect(listing.filter((item) => fleetIds.has(item.id))).toEqual([]);
    });

    it('trims the term on the search page', async () => {
      const html = await getHtml(`/?q=${encodeURIComponent('   creta  ')}`);
      expect(visibleText(mainOf(html))).toContain('Search results for “creta”');
      expect(cardIds(html)).toEqual(expectedIds('creta'));
    });

    it.each([
      'creta',
      'hyundai creta',
      'HYUNDAI   Creta',
      'cret',
      'ev',
      'EV',
      'i2',
      'i20',
      'x',
      '4x4',
      'xz+',
      'sx(o)',
      'e:hev',
      'diesel at',
      'self drive',
      'self-drive',
      '2021',
      '20',
      '₹',
      '₹4,500',
      '–',
      '%',
      '_',
      '%%',
      'a_b',
      '100%',
      '"',
      '"creta"',
      "'",
      "' OR 1=1 --",
      "'; DROP TABLE vehicles; --",
      'creta OR nexon',
      'NEAR(creta nexon)',
      'creta*',
      '\\',
      'गाड़ी',
      'कार',
      '🚗',
      '🚗🚗🚗',
      'creta\u0000',
      '\u0000',
      'a\u0000b',
      'zzz',
    ])('gives the expected vehicles for %j', async (query) => {
      const result = await search(query);
      expect(result.items.map((item) => item.id)).toEqual(expectedIds(query));
      expect(result.total).toBe(expectedIds(query).length);
    });

    it('narrows a search to a category through the API', async () => {
      const categories = await getJson<Array<{ id: number; name: string; slug: string; vehicleCount: number }>>('/api/v1/categories');
      const suvs = categories.find((category) => category.slug === 'suvs');
      expect(suvs).toBeDefined();
      const result = await search('diesel', `&category=${suvs!.id}`);
      const expected = expectedIds('diesel').filter((id) => demoSaleVehicles.find((vehicle) => idOf.get(vehicle) === id)!.category === 'SUVs');
      expect(result.items.map((item) => item.id)).toEqual(expected);
    });
  });

  describe('empty result', () => {
    it('shows the no-results panel on the search page', async () => {
      const html = await getHtml('/?q=zzz');
      const text = visibleText(mainOf(html));
      expect(text).toContain('Search results for “zzz”');
      expect(text).toContain('0 vehicles found');
      expect(text).toContain('No vehicles found for “zzz”');
      expect(text).toContain('Try searching with different keywords or browse our available vehicles.');
      expect(text).not.toContain('Check back later for new vehicle listings.');
      expect(cardIds(html)).toEqual([]);
    });

    it('answers an empty page through the API', async () => {
      const page = await getJson<VehiclePage & { facets: Record<string, Array<{ count: number }>> }>('/api/v1/vehicles?q=zzz');
      expect(page).toMatchObject({ items: [], total: 0, page: 1, pageCount: 1, perPage: 10 });
      // Every option of every filter would give no car either.
      expect(
        Object.values(page.facets)
          .flat()
          .every((option) => option.count === 0),
      ).toBe(true);
    });
  });

  describe('a typo forgiven', () => {
    type SpelledPage = VehiclePage & { searchedFor: string | null; suggestions: string[] };
    const modelsOf = (page: VehiclePage) => [...new Set(page.items.map((item) => item.model))].sort();
    const demoIds = (model: RegExp) => demoSaleVehicles.filter((vehicle) => model.test(vehicle.model)).length;

    it('finds the cars a misspelt model names, says what it searched for, on the API and the page', async () => {
      for (const [typed, searchedFor, model] of [
        ['cretta', 'Creta', /^Creta$/],
        ['swfit', 'Swift', /^Swift$/],
        ['inova', 'Innova', /^Innova/],
        ['hyundai cretta', 'hyundai Creta', /^Creta$/],
      ] as const) {
        const page = await getJson<SpelledPage>(`/api/v1/vehicles?q=${encodeURIComponent(typed)}&perPage=100`);
        expect(page.searchedFor, typed).toBe(searchedFor);
        expect(page.total, typed).toBe(demoIds(model));
        expect(
          page.items.every((item) => model.test(item.model)),
          typed,
        ).toBe(true);
        expect(page.suggestions).toEqual([]);
        const text = visibleText(mainOf(await getHtml(`/?q=${encodeURIComponent(typed)}`)));
        expect(text).toContain(`Search results for “${typed}”`);
        expect(text).toContain(`Showing results for ${searchedFor}`);
      }
    });

    it('finds every model of the demo misspelt by one typo, with facet counts equal to its results; a word below five letters is not corrected', async () => {
      type FacetPage = SpelledPage & { facets: Record<string, Array<{ value: string; count: number }>> };
      const modelWords = [...new Set(demoSaleVehicles.map((vehicle) => vehicle.model.split(/[\s-]+/)[0]!.toLowerCase()))].filter((word) =>
        /^[a-z]{5,}$/.test(word),
      );
      expect(modelWords.length).toBeGreaterThan(15);
      for (const word of modelWords) {
        // Two neighbours swapped in the middle: one typo.
        const typo = word.slice(0, 2) + word[3] + word[2] + word.slice(4);
        if (typo === word) continue;
        const page = await getJson<FacetPage>(`/api/v1/vehicles?q=${typo}&perPage=100`);
        expect(page.total, typo).toBeGreaterThan(0);
        // The model first: a Verna whose description says "punchy" comes after every Punch.
        const named = page.items.map((item) => `${item.make} ${item.model}`.toLowerCase().includes(word));
        expect(named[0], typo).toBe(true);
        expect(named.indexOf(false) === -1 || named.slice(named.indexOf(false)).every((holds) => !holds), typo).toBe(true);
        expect(page.searchedFor?.toLowerCase(), typo).toBe(word);
        // Each car has one fuel: the fuel filter's counts add up to the cars found.
        expect(
          page.facets.fuel!.reduce((sum, option) => sum + option.count, 0),
          typo,
        ).toBe(page.total);
        expect(page.items).toHaveLength(page.total);
      }
      // 'crta' is four letters: searched as typed, and it finds nothing.
      expect(await getJson<SpelledPage>('/api/v1/vehicles?q=crta')).toMatchObject({ total: 0, searchedFor: null });
    });

    it('searches as typed first: a word the catalogue holds is never corrected', async () => {
      const page = await getJson<SpelledPage>('/api/v1/vehicles?q=creta&perPage=100');
      expect(page.searchedFor).toBeNull();
      expect(modelsOf(page)).toEqual(['Creta']);
      expect(visibleText(mainOf(await getHtml('/?q=creta')))).not.toContain('Showing results for');
    });

    it('searches as typed a word one typo from a catalogue word when the cars hold it as typed: audio is not Audi', async () => {
      // The corrected search is read beside the one as typed (listing.ts); the typed one wins when it finds cars.
      const expected = expectedIds('audio');
      expect(expected.length).toBeGreaterThan(0);
      const page = await getJson<SpelledPage>('/api/v1/vehicles?q=audio&perPage=100');
      expect(page).toMatchObject({ total: expected.length, searchedFor: null, suggestions: [] });
      expect(page.items.map((item) => item.id).sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
      expect(visibleText(mainOf(await getHtml('/?q=audio')))).not.toContain('Showing results for');
    });

    it('offers the nearest models when nothing matches even corrected, each a search of its own', async () => {
      const page = await getJson<SpelledPage>('/api/v1/vehicles?q=kretaa');
      expect(page).toMatchObject({ total: 0, searchedFor: null });
      expect(page.suggestions).toContain('Hyundai Creta');
      const html = await getHtml('/?q=kretaa');
      expect(visibleText(mainOf(html))).toContain('Did you mean');
      expect(html).toContain('href="/?q=Hyundai+Creta"');
      // Nothing near at all: no suggestion.
      expect((await getJson<SpelledPage>('/api/v1/vehicles?q=zzzzzzzz')).suggestions).toEqual([]);
    });
  });

  describe('pagination', () => {
    const pages = Math.ceil(demoSaleVehicles.length / 10);
    const lastPageSize = demoSaleVehicles.length - (pages - 1) * 10;

    it('gives ten vehicles a page with the total and page count', async () => {
      const first = await getJson<VehiclePage>('/api/v1/vehicles');
      expect(first).toMatchObject({ total: demoSaleVehicles.length, page: 1, pageCount: pages, perPage: 10 });
      expect(first.items.map((item) => item.id)).toEqual(listing.slice(0, 10).map((vehicle) => vehicle.id));
    });

    it('gives the next ten on page 2 and the rest on the last page', async () => {
      const second = await getJson<VehiclePage>('/api/v1/vehicles?page=2');
      expect(second.page).toBe(2);
      expect(second.items.map((item) => item.id)).toEqual(listing.slice(10, 20).map((vehicle) => vehicle.id));
      const last = await getJson<VehiclePage>(`/api/v1/vehicles?page=${pages}`);
      expect(last.items).toHaveLength(lastPageSize);
      expect(last.items.map((item) => item.id)).toEqual(listing.slice((pages - 1) * 10).map((vehicle) => vehicle.id));
    });

    it('covers every vehicle exactly once across the pages', async () => {
      const seen: number[] = [];
      for (let page = 1; page <= pages; page++) {
        seen.push(...(await getJson<VehiclePage>(`/api/v1/vehicles?page=${page}`)).items.map((item) => item.id));
      }
      expect(seen).toEqual(listing.map((vehicle) => vehicle.id));
    });

    it('clamps a page beyond the last to the last page', async () => {
      for (const page of [pages + 1, 99, 1_000_000]) {
        const result = await getJson<VehiclePage>(`/api/v1/vehicles?page=${page}`);
        expect(result.page).toBe(pages);
        expect(result.items).toHaveLength(lastPageSize);
      }
    });

    it('reads a missing, zero, negative or non-numeric page as the first', async () => {
      for (const page of ['0', '-3', 'abc', '']) {
        const result = await getJson<VehiclePage>(`/api/v1/vehicles?page=${page}`);
        expect(result.page, page).toBe(1);
        expect(result.items.map((item) => item.id)).toEqual(listing.slice(0, 10).map((vehicle) => vehicle.id));
      }
    });

    it('keeps perPage between 1 and 100', async () => {
      expect((await getJson<VehiclePage>('/api/v1/vehicles?perPage=5')).items).toHaveLength(5);
      expect((await getJson<VehiclePage>('/api/v1/vehicles?perPage=0')).items).toHaveLength(1);
      const huge = await getJson<VehiclePage>('/api/v1/vehicles?perPage=100000');
      expect(huge.perPage).toBe(100);
      expect(huge.items).toHaveLength(demoSaleVehicles.length);
    });

    it('paginates the home page with Previous and Next links', async () => {
      const first = await getHtml('/');
      expect(visibleText(mainOf(first))).toContain(`Page 1 of ${pages}`);
      expect(mainOf(first)).toMatch(/<a\b[^>]*href="\/\?page=2"[^>]*>Next<\/a>/);
      expect(mainOf(first)).not.toMatch(/>Previous</);

      const second = await getHtml('/?page=2');
      expect(cardIds(second)).toEqual(listing.slice(10, 20).map((vehicle) => vehicle.id));
      expect(visibleText(mainOf(second))).toContain(`Page 2 of ${pages}`);
      expect(mainOf(second)).toMatch(/<a\b[^>]*href="\/"[^>]*>Previous<\/a>/);
      expect(mainOf(second)).toMatch(/<a\b[^>]*href="\/\?page=3"[^>]*>Next<\/a>/);
    });

    it('clamps the home page beyond the last page', async () => {
      const html = await getHtml('/?page=99');
      expect(cardIds(html)).toEqual(listing.slice((pages - 1) * 10).map((vehicle) => vehicle.id));
      expect(visibleText(mainOf(html))).toContain(`Page ${pages} of ${pages}`);
      expect(mainOf(html)).not.toMatch(/>Next</);
    });

    it('keeps the search term on the pages of a search', async () => {
      const expected = expectedIds('diesel');
      expect(expected.length).toBeGreaterThan(10);
      const html = await getHtml('/?q=diesel&page=2');
      expect(visibleText(mainOf(html))).toContain(`${expected.length} vehicles found`);
      expect(cardIds(html)).toEqual(expected.slice(10, 20));
      expect(mainOf(html)).toMatch(/<a\b[^>]*href="\/\?q=diesel"[^>]*>Previous<\/a>/);
      const api = await getJson<VehiclePage>('/api/v1/vehicles?q=diesel&page=2');
      expect(api.items.map((item) => item.id)).toEqual(expected.slice(10, 20));
      expect(api.pageCount).toBe(Math.ceil(expected.length / 10));
    });
  });

  describe('what is typed is only ever text', () => {
    it('escapes a script in the search term everywhere on the page', async () => {
      const payload = '<script>alert(1)</script>';
      const html = await getHtml(`/?q=${encodeURIComponent(payload)}`);
      expect(html).not.toContain(payload);
      expect(html).not.toContain('<script>alert(1)');
      expect(mainOf(html)).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(visibleText(mainOf(html))).toContain(`Search results for “${payload}”`);
      expect(visibleText(mainOf(html))).toContain(`No vehicles found for “${payload}”`);
    });

    it('escapes markup that tries to break out of an attribute', async () => {
      const payload = '"><img src=x onerror=alert(1)>';
      const html = await getHtml(`/?q=${encodeURIComponent(payload)}`);
      expect(html).not.toContain('<img src=x');
      expect(html).not.toMatch(/<img\b[^>]*onerror/i);
      expect(visibleText(mainOf(html))).toContain(`Search results for “${payload}”`);
      const title = /<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '';
      expect(decodeEntities(title)).toContain(payload);
      expect(title).not.toContain('<');
    });

    it('answers a closing script tag in the term without ending the page data early', async () => {
      const payload = '</script><script>alert(1)</script>';
      const html = await getHtml(`/?q=${encodeURIComponent(payload)}`);
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('</script><script>alert');
    });
  });
});
