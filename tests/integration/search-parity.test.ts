import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createVehicle } from '../../server/catalog/vehicles.ts';
import { openDatabase } from '../../server/db/connection.ts';
import { demoCategories, demoFitnessCertificate, demoInsuranceValidity, demoVehicles } from '../../server/db/demo/inventory.ts';
import { indiaDay } from '../../app/lib/india-time.ts';
import { postgresAvailable, startTestServer, type TestServer } from '../support/server.ts';
import { searchFinds } from '../support/search-rule.ts';
import { filterQueries, passes } from '../support/filter-rule.ts';
import { mainOf, tags } from '../support/html.ts';

/**
 * Search gives the same vehicles on SQLite (FTS5 trigram + LIKE) and on PostgreSQL (pg_trgm
 * LIKE) for the same data. This file starts its own pair of servers and loads both with the
 * demo inventory, so it runs once: vitest.config.ts leaves it out of the integration-postgres project.
 *
 * The inventory goes in through the catalogue services the demo seed uses, in the seed's order
 * (so ids are equal on both), but without drawing the photos: search does not read them, and
 * drawing them twice more takes minutes on a busy two-core machine.
 */

// Outside CI an unreachable PostgreSQL skips this file; under CI postgresAvailable() throws,
// so the file fails instead of passing unnoticed.
const postgresReachable = await postgresAvailable();

type Summary = {
  id: number;
  name: string;
  make: string;
  model: string;
  variant: string;
  year: string | number | null;
  categoryName: string;
  featured: boolean;
  price: string;
};
type VehiclePage = { items: Summary[]; total: number; page: number; pageCount: number; perPage: number; facets: unknown };

const queries: string[] = [
  // single words
  'creta',
  'swift',
  'hyundai',
  'maruti',
  'toyota',
  'innova',
  'thar',
  'diesel',
  'petrol',
  'hybrid',
  'sunroof',
  'warranty',
  'suvs',
  'luxury',
  'rental',
  'hatchbacks',
  '2018',
  '2021',
  '2023',
  // several words, in one field or across fields
  'hyundai creta',
  'maruti suzuki swift',
  'toyota innova crysta',
  'creta 2022',
  'diesel 2021',
  'bmw luxury',
  'self drive',
  'with driver',
  'suvs diesel automatic',
  'creta zzz',
  // short words that no trigram can index
  'ev',
  'i2',
  'gt',
  'ac',
  'xz',
  'cr',
  '20',
  '4x',
  'a',
  'x',
  '7',
  'ev max',
  'i2 hyundai',
  // case
  'CRETA',
  'Creta',
  'cReTa',
  'EV',
  'Ev',
  'I20',
  'HYUNDAI CRETA',
  'SUVs',
  // parts of words
  'cret',
  'ret',
  'ndai',
  'uzuk',
  'ortun',
  // characters that mean something to LIKE, FTS5 or SQL
  '%',
  '_',
  '%%',
  '%_%',
  'a%',
  '_a',
  '100%',
  '\\',
  '\\%',
  '"',
  '""',
  '"creta"',
  '"creta',
  "'",
  "''",
  "it's",
  "' OR 1=1 --",
  "'; DROP TABLE vehicles; --",
  '1=1',
  '--',
  '/*',
  ';',
  '*',
  'creta*',
  'creta OR nexon',
  'NOT creta',
  'creta AND nexon',
  'NEAR(creta nexon)',
  '^creta',
  'search_text:creta',
  'vehicles_fts',
  '(',
  ')',
  '[',
  '{',
  '+',
  '-',
  'xz+',
  'sx(o)',
  'e:hev',
  '4x4',
  '2.0',
  '1.5',
  '7-seater',
  'b&o',
  '&',
  '<script>',
  // text beyond ASCII
  '₹',
  '₹4,500',
  '–',
  'गाड़ी',
  'कार',
  'क',
  'é',
  'ÉV',
  'İ',
  'ß',
  'ｃｒｅｔａ',
  '🚗',
  '🚗🚗',
  '🚗🚗🚗',
  '🚗 creta',
  'a🚗',
  // empty, blank and odd white space
  '',
  ' ',
  '  creta  ',
  '\tcreta\n',
  'creta\u00a0hyundai',
  // long
  'creta '.repeat(20),
  'x'.repeat(200),
  // control characters
  '\u0000',
  'a\u0000b',
  'creta\u0000',
  '\u0007',
];

/** The rule both must follow: every word typed is a case-insensitive substring of the searched fields. */
function ruleMatches(query: string): Set<string> {
  const found = demoVehicles.filter((vehicle) => searchFinds(vehicle, query));
  return new Set(found.map((vehicle) => [vehicle.make, vehicle.model, vehicle.variant, vehicle.year, vehicle.name].join('|')));
}

/** The demo inventory, as server/db/demo/seed.ts inserts it (oldest first), without photos. */
async function loadDemoInventory(server: TestServer) {
  const database = openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  try {
    const categoryIds = new Map<string, number>();
    for (const category of demoCategories) categoryIds.set(category.name, await createCategory(database, { name: category.name }, Date.now()));
    const seedDay = indiaDay(Date.now());
    for (const vehicle of [...demoVehicles].reverse()) {
      await createVehicle(
        database,
        {
          ...vehicle,
          categoryId: categoryIds.get(vehicle.category)!,
          insuranceValidity: demoInsuranceValidity(vehicle, seedDay),
          fitnessFC: demoFitnessCertificate(vehicle, seedDay),
        },
        [],
        Date.now(),
      );
    }
  } finally {
    await database.close();
  }
}

const summaryKey = (item: Summary) => [item.make, item.model, item.variant, String(item.year), item.name].join('|');

describe('search parity between SQLite and PostgreSQL', () => {
  describe.skipIf(!postgresReachable)('on the same demo inventory', () => {
    let sqlite: TestServer | undefined;
    let postgres: TestServer | undefined;

    beforeAll(async () => {
      const started = await Promise.allSettled([startTestServer({ dialect: 'sqlite', seed: false }), startTestServer({ dialect: 'postgres', seed: false })]);
      [sqlite, postgres] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
      const failed = started.find((result) => result.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      expect(sqlite?.dialect).toBe('sqlite');
      expect(postgres?.dialect).toBe('postgres');
      await loadDemoInventory(sqlite!);
      await loadDemoInventory(postgres!);
    }, 360_000);

    afterAll(async () => {
      await Promise.all([sqlite?.stop(), postgres?.stop()]);
    }, 60_000);

    async function both(pathAndQuery: string): Promise<[{ status: number; body: unknown }, { status: number; body: unknown }]> {
      const read = async (server: TestServer) => {
        const response = await fetch(server.url + pathAndQuery);
        const text = await response.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: compared as text
        }
        return { status: response.status, body };
      };
      return Promise.all([read(sqlite!), read(postgres!)]);
    }

    it('holds the same vehicles under the same ids in the same order', async () => {
      const [onSqlite, onPostgres] = await both('/api/v1/vehicles?perPage=100');
      expect(onSqlite.status).toBe(200);
      expect(onPostgres.status).toBe(200);
      const strip = (page: VehiclePage) =>
        page.items.map(({ id, name, make, model, variant, year, categoryName, featured, price }) => ({
          id,
          name,
          make,
          model,
          variant,
          year,
          categoryName,
          featured,
          price,
        }));
      expect(strip(onPostgres.body as VehiclePage)).toEqual(strip(onSqlite.body as VehiclePage));
      expect((onSqlite.body as VehiclePage).total).toBe(demoVehicles.length);
    });

    it('answers every vehicle alike, types included', async () => {
      const [listing] = await both('/api/v1/vehicles?perPage=100');
      for (const { id } of (listing.body as VehiclePage).items) {
        const [onSqlite, onPostgres] = await both(`/api/v1/vehicles/${id}`);
        expect(onSqlite.status).toBe(200);
        expect(onPostgres.status).toBe(200);
        // Timestamps differ between the two loads; everything else is equal.
        const comparable = (body: unknown) => {
          const {
            createdAt: _createdAt,
            updatedAt: _updatedAt,
            images,
            ...rest
          } = body as Record<string, unknown> & { images: Array<{ width: number; height: number; widths: number[] }> };
          return { ...rest, images: images.map(({ width, height, widths }) => ({ width, height, widths })) };
        };
        expect(comparable(onPostgres.body), `vehicle ${id}`).toEqual(comparable(onSqlite.body));
      }
    });

    it('lists the same categories with the same counts', async () => {
      const [onSqlite, onPostgres] = await both('/api/v1/categories');
      const strip = (body: unknown) =>
        (body as Array<{ id: number; name: string; slug: string; vehicleCount: number }>).map(({ id, name, slug, vehicleCount }) => ({
          id,
          name,
          slug,
          vehicleCount,
        }));
      expect(strip(onPostgres.body)).toEqual(strip(onSqlite.body));
      expect(strip(onSqlite.body)).toHaveLength(demoCategories.length);
    });

    it.each(queries)('finds the same vehicles for %j', async (query) => {
      const [onSqlite, onPostgres] = await both(`/api/v1/vehicles?q=${encodeURIComponent(query)}&perPage=100`);
      expect({ sqlite: onSqlite.status, postgres: onPostgres.status }).toEqual({ sqlite: 200, postgres: 200 });
      const sqlitePage = onSqlite.body as VehiclePage;
      const postgresPage = onPostgres.body as VehiclePage;
      const rows = (page: VehiclePage) => page.items.map((item) => `${item.id} ${item.make} ${item.model} ${item.name}`);
      expect(rows(postgresPage), 'PostgreSQL against SQLite').toEqual(rows(sqlitePage));
      expect(postgresPage.total).toBe(sqlitePage.total);
      expect(new Set(sqlitePage.items.map(summaryKey)), 'both against the search rule').toEqual(ruleMatches(query));
    });

    it.each(['creta', 'diesel', 'ev', '20'])('pages through %j alike', async (query) => {
      for (const page of [1, 2, 3, 99]) {
        const [onSqlite, onPostgres] = await both(`/api/v1/vehicles?q=${encodeURIComponent(query)}&page=${page}&perPage=5`);
        expect(onSqlite.status).toBe(200);
        expect(onPostgres.body).toEqual(onSqlite.body);
      }
    });

    const sorts = ['', '&sort=price_asc', '&sort=price_desc', '&sort=year_desc', '&sort=km_asc'];
    it.each(filterQueries.flatMap((query) => sorts.map((sort) => query + sort)))('filters and sorts %s alike, with the same facet counts', async (query) => {
      const [onSqlite, onPostgres] = await both(`/api/v1/vehicles?perPage=100&${query}`);
      expect({ sqlite: onSqlite.status, postgres: onPostgres.status }).toEqual({ sqlite: 200, postgres: 200 });
      const sqlitePage = onSqlite.body as VehiclePage;
      const postgresPage = onPostgres.body as VehiclePage;
      expect(
        postgresPage.items.map((item) => item.id),
        'PostgreSQL against SQLite',
      ).toEqual(sqlitePage.items.map((item) => item.id));
      expect(postgresPage.total).toBe(sqlitePage.total);
      expect(postgresPage.facets).toEqual(sqlitePage.facets);
      const params = new URLSearchParams(query);
      const expected = new Set(
        demoVehicles
          .filter((vehicle) => passes(vehicle, params))
          .map((vehicle) => [vehicle.make, vehicle.model, vehicle.variant, vehicle.year, vehicle.name].join('|')),
      );
      expect(new Set(sqlitePage.items.map(summaryKey)), 'both against the filter rule').toEqual(expected);
    });

    it.each([
      '/?fuel=diesel',
      '/?budget=5-8,8-12&fuel=diesel&sort=price_asc',
      '/?make=hyundai,maruti-suzuki&model=creta&sort=price_desc',
      '/?q=suv&body=suv&sort=km_asc',
      '/?year=2019-&owners=1&sort=year_desc&page=2',
      '/?color=white,silver&state=MH,KA&trans=automatic',
      '/?km=-25000,100000-&fuel=electric,hybrid',
      '/?fuel=electric&budget=-3',
      '/categories?category=suvs&fuel=diesel&sort=price_asc',
      '/categories?category=suvs&trans=manual,automatic&sort=km_asc&page=2',
    ])('shows the same filtered listing page for %s: cards, counts, form, chips, robots and canonical', async (pathAndQuery) => {
      const [onSqlite, onPostgres] = await both(pathAndQuery);
      expect({ sqlite: onSqlite.status, postgres: onPostgres.status }).toEqual({ sqlite: 200, postgres: 200 });
      // The whole <main> (the two servers' origins differ only in the head's absolute links).
      const main = (html: unknown) => mainOf(String(html));
      const head = (html: unknown, server: TestServer) =>
        tags(String(html), 'meta')
          .concat(tags(String(html), 'link'))
          .filter((tag) => tag.name === 'robots' || tag.rel === 'canonical')
          .map((tag) => (tag.href ?? tag.content)!.replace(server.url, ''));
      expect(main(onPostgres.body)).toEqual(main(onSqlite.body));
      expect(main(onSqlite.body)).toMatch(/vehicles? found/);
      expect(head(onPostgres.body, postgres!)).toEqual(head(onSqlite.body, sqlite!));
    });

    it.each(['creta', 'CRETA', '%', "' OR 1=1 --", 'गाड़ी', 'zzz'])('shows the same search page for %j', async (query) => {
      const [onSqlite, onPostgres] = await both(`/?q=${encodeURIComponent(query)}`);
      expect(onSqlite.status).toBe(200);
      expect(onPostgres.status).toBe(200);
      const cards = (html: unknown) => [...String(html).matchAll(/<a\b[^>]*href="\/vehicle\/(\d+)"/g)].map((match) => Number(match[1]));
      const heading = (html: unknown) =>
        /Search results for[\s\S]*?vehicles? found/.exec(String(html).replace(/<!--[\s\S]*?-->/g, ''))?.[0].replace(/<[^>]+>/g, ' ');
      expect(cards(onPostgres.body)).toEqual(cards(onSqlite.body));
      expect(heading(onPostgres.body)).toEqual(heading(onSqlite.body));
    });
  });
});
