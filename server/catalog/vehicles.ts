import { SUMMARY_TEXT_FIELDS, type Category, type ImageRef, type Vehicle, type VehicleInput, type VehicleSummary } from '../../app/lib/vehicle.ts';
import { priceDigits } from '../../app/lib/format.ts';
import { hasControlCharacters } from '../../app/lib/input.ts';
import { isSlug, slugify } from '../../app/lib/slug.ts';
import { sql, type Expression, type SqlBool } from 'kysely';
import { DEFAULT_SORT, emptyFilters, type Facets, type ListingFilters, type Sort } from '../../app/lib/listing-filters.ts';
import type { Database } from '../db/connection.ts';
import { pageOf, pageWindow, type Page } from '../db/paging.ts';
import { textColumns, toCategory, toImageRef, toSummary, toVehicle, vehicleTextColumns } from './rows.ts';
import { buildSearchText, ftsMatch, searchCondition, searchTerms } from './search.ts';
import { filterColumns, filterConditions, listingFacets, sortOrder } from './filters.ts';
import { uncachedTotals, type ListingTotals } from './listing-totals.ts';

export type VehiclePage = Page<VehicleSummary>;

function mapOrNull(map: Record<string, unknown> | null): string | null {
  return map && Object.keys(map).length > 0 ? JSON.stringify(map) : null;
}

/** The columns a vehicle card needs (see toSummary), with the category's name. */
export const summaryColumns = [
  'vehicles.id',
  ...SUMMARY_TEXT_FIELDS.map((field) => `vehicles.${vehicleTextColumns[field]}` as const),
  'vehicles.price_rupees',
  'vehicles.odometer',
  'vehicles.featured',
  'vehicles.status',
  'categories.name as category_name',
] as const;

/** The images of these vehicles, each vehicle's in its order: the first one is its cover. */
export async function storedImagesOf(database: Database, vehicleIds: number[]) {
  if (vehicleIds.length === 0) return [];
  return database.db
    .selectFrom('vehicle_images')
    .select(['id', 'vehicle_id', 'position', 'key', 'width', 'height', 'variant_widths'])
    .where('vehicle_id', 'in', vehicleIds)
    .orderBy('vehicle_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Each vehicle's cover: the image in its first position. */
export async function coversFor(database: Database, vehicleIds: number[]): Promise<Map<number, ImageRef>> {
  const covers = new Map<number, ImageRef>();
  for (const row of await storedImagesOf(database, vehicleIds)) {
    if (!covers.has(row.vehicle_id)) covers.set(row.vehicle_id, toImageRef(row));
  }
  return covers;
}

export type ListingOptions = {
  query?: string;
  categoryId?: number;
  /** The buyer's filters (app/lib/listing-filters.ts); none when absent. */
  filters?: ListingFilters;
  sort?: Sort;
  page?: number;
  perPage: number;
};

/** What every listing starts from: cars for sale, in the category, matching the search. */
function listingBase(database: Database, options: Pick<ListingOptions, 'query' | 'categoryId'>, walk: { walkInOrder?: boolean; checkEachRow?: boolean } = {}): Expression<SqlBool>[] {
  // Written as in the partial index vehicles_for_sale_idx, with the literal (a bound parameter
  // would keep the planner from proving the index applies).
  const base: Expression<SqlBool>[] = [sql<SqlBool>`vehicles.status <> 'sold'`];
  // The rental fleet is never sale stock (docs/decisions/020): it has its own pages under /rent.
  base.push(sql<SqlBool>`vehicles.purpose = 'sale'`);
  if (options.categoryId !== undefined) base.push(sql<SqlBool>`vehicles.category_id = ${options.categoryId}`);
  const condition = searchCondition(database.dialect, searchTerms(options.query ?? ''), walk);
  if (condition) base.push(condition);
  return base;
}

/**
 * A listing counts its matches up to this many and then says "1,000+ vehicles found", and pages
 * no deeper than these: counting or skipping every one of 90,000 matches costs time that grows
 * with the inventory (docs/decisions/028-listing-at-scale.md).
 */
export const LISTING_COUNT_CAP = 1000;

/**
 * SQLite, many matches: a page ending within this many matches walks the listing's order and
 * checks each car's text, reading about (this many ÷ the share of cars matching) rows; a deeper
 * page asks the search index for the matches first (docs/decisions/033-search-at-100k.md).
 */
const CHECK_EACH_ROW_DEPTH = 50;

/**
 * PostgreSQL, a search from vehicle_search: collect every match from the trigram index and sort
 * them (reading `matches` rows, each a random heap read), rather than walk the order's index and
 * check each car's text until the page is full (about depth × cars ÷ matches rows, read in
 * order). The planner prices that text check far below its cost and walks even for `creta`'s
 * last page (25,000 rows instead of 3,400); a collected row costs about two walked ones
 * (docs/decisions/040-search-side-table.md).
 */
async function collectBeforeSorting(database: Database, totals: ListingTotals, { depth, matches }: { depth: number; matches: number }): Promise<boolean> {
  // The table's size from the statistics, kept with the listing totals: not a query per search.
  const analysed = await totals.read('vehicle_search size', async () => {
    const { rows } = await sql<{ cars: number }>`SELECT reltuples AS cars FROM pg_class WHERE oid = 'vehicle_search'::regclass`.execute(database.db);
    return Number(rows[0]?.cars ?? 0);
  });
  // reltuples is -1 until the table is first analysed.
  const cars = Math.max(analysed, matches);
  return 2 * matches * matches <= depth * cars;
}

/** The number of rows PostgreSQL's planner expects `query` to return (EXPLAIN, nothing run). */
async function plannedRows(query: { explain: (format: 'json') => Promise<unknown[]> }): Promise<number> {
  const [row] = (await query.explain('json')) as Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>;
  return row?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
}

/** A page of the listing; `totalCapped`: there are more than `total` (= LISTING_COUNT_CAP) matches. */
export type ListingPage = VehiclePage & { totalCapped: boolean };

/**
 * The key a listing's kept figures are filed under (`kind`: its count of matches, the planner's
 * estimate past the cap, its filter counts): the sort and the page do not change them.
 */
function keptKey(kind: 'count' | 'estimate' | 'facets', options: Pick<ListingOptions, 'query' | 'categoryId' | 'filters'>): string {
  return JSON.stringify([kind, searchTerms(options.query ?? ''), options.categoryId ?? null, options.filters ?? null]);
}

/**
 * One page of vehicles for sale (sold ones leave the listing), featured first then newest
 * unless another sort is asked for, optionally narrowed by a search, a category and filters.
 */
export async function listVehicles(database: Database, options: ListingOptions, totals: ListingTotals = uncachedTotals): Promise<ListingPage> {
  const perPage = Math.max(1, Math.min(100, options.perPage));
  const filters = Object.values(filterConditions(options.filters ?? emptyFilters()));
  const sqlite = database.dialect === 'sqlite';
  // Walking in order, SQLite must not start from a filter's index either: `+(…)` keeps a
  // condition a check on each row (PostgreSQL's planner weighs both ways by itself).
  const where = (walkInOrder: boolean, checkEachRow = false) => [
    ...listingBase(database, options, { walkInOrder, checkEachRow }),
    ...(walkInOrder && sqlite ? filters.map((condition) => sql<SqlBool>`+(${condition})`) : filters),
  ];

  const terms = searchTerms(options.query ?? '');
  // PostgreSQL answers a search from vehicle_search (migration 016): a narrow row per car for
  // sale with the text and the order's columns, so matching and sorting thousands of matches
  // does not read their whole rows. A category or filters narrow it through vehicles.
  const searchRows = () => {
    const conditions = [searchCondition('postgres', terms, { table: 'vehicle_search' })!];
    if (options.categoryId !== undefined || filters.length > 0) {
      const narrowed = database.db
        .selectFrom('vehicles')
        .where((eb) => eb.and([...listingBase(database, { categoryId: options.categoryId }), ...filters]))
        .select('vehicles.id');
      conditions.push(sql<SqlBool>`vehicle_search.id IN (${narrowed})`);
    }
    return database.db.selectFrom('vehicle_search').where((eb) => eb.and(conditions));
  };
  const fromSearchTable = !sqlite && terms.length > 0;

  // Counted without the category join (every vehicle has a category, and the join would make
  // the database read whole rows instead of the index), and only up to the cap. A plain search
  // on SQLite is counted in its index alone, which holds exactly the vehicles for sale.
  const ftsOnly = sqlite && options.categoryId === undefined && filters.length === 0 && terms.length > 0 && terms.every((term) => term.length >= 3 && searchCondition(database.dialect, [term]) !== null && !hasControlCharacters(term, { layout: false }));
  const count = async () => {
    // Each source as `SELECT 1 … LIMIT cap + 1`, counted around it.
    const one = sql`1`.as('one');
    const cap = LISTING_COUNT_CAP + 1;
    const matching = ftsOnly
      ? database.db.selectFrom(sql`vehicles_fts`.as('vehicles_fts')).where(sql<SqlBool>`vehicles_fts MATCH ${ftsMatch(terms)}`).select(one).limit(cap).as('matches')
      : fromSearchTable
        ? searchRows().select(one).limit(cap).as('matches')
        : database.db
            .selectFrom('vehicles')
            .where((eb) => eb.and(where(false)))
            .select(one)
            .limit(cap)
            .as('matches');
    const counted = await database.db
      .selectFrom(matching)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirst();
    return Number(counted?.count ?? 0);
  };
  const matches = await totals.read(keptKey('count', options), count);
  const totalCapped = matches > LISTING_COUNT_CAP;
  const total = Math.min(matches, LISTING_COUNT_CAP);
  const window = pageWindow(total, options.page ?? 1, perPage);

  // Many matches: walk the order's index and stop after the page; few: read them and sort.
  const checkEachRow = totalCapped && sqlite && window.offset + window.limit <= CHECK_EACH_ROW_DEPTH;
  const sort = options.sort ?? DEFAULT_SORT;
  const collect =
    fromSearchTable &&
    (await collectBeforeSorting(database, totals, {
      depth: window.offset + window.limit,
      // Past the cap the count stops: the planner's estimate from pg_trgm's statistics stands in.
      matches: totalCapped ? await totals.read(keptKey('estimate', options), () => plannedRows(searchRows().select('vehicle_search.id'))) : matches,
    }));
  // The page's ids first, then their rows: the cars skipped to reach a deep page are read from
  // the order's index alone (it holds the id), not each joined to its category.
  const pageIds = collect
    ? database.db
        .with(
          (cte) => cte('matches').materialized(),
          () => searchRows().select(['vehicle_search.id', 'vehicle_search.featured', 'vehicle_search.created_at', 'vehicle_search.price_rupees', 'vehicle_search.model_year', 'vehicle_search.odometer']),
        )
        .selectFrom('matches')
        .select('matches.id')
        .orderBy(sortOrder(sort, 'matches'))
        .limit(window.limit)
        .offset(window.offset)
    : fromSearchTable
    ? searchRows().select('vehicle_search.id').orderBy(sortOrder(sort, 'vehicle_search')).limit(window.limit).offset(window.offset)
    : database.db
        .selectFrom('vehicles')
        .where((eb) => eb.and(where(totalCapped, checkEachRow)))
        .select('vehicles.id')
        .orderBy(sortOrder(sort))
        .limit(window.limit)
        .offset(window.offset);
  const rows = await database.db
    .selectFrom('vehicles')
    .innerJoin('categories', 'categories.id', 'vehicles.category_id')
    .where('vehicles.id', 'in', pageIds)
    .select(summaryColumns)
    .orderBy(sortOrder(sort))
    .execute();

  const covers = await coversFor(
    database,
    rows.map((row) => row.id),
  );
  return {
    ...pageOf(
      rows.map((row) => toSummary(row, covers.get(row.id) ?? null)),
      total,
      window,
    ),
    totalCapped,
  };
}

/** How many cars each filter option would give on this listing (see listingFacets). */
async function listVehicleFacets(database: Database, options: Pick<ListingOptions, 'query' | 'categoryId' | 'filters'>, totals: ListingTotals = uncachedTotals): Promise<Facets> {
  return totals.read(keptKey('facets', options), () => listingFacets(database, { base: listingBase(database, options), filters: options.filters ?? emptyFilters() }));
}

/** What a listing shows: a page of its cars and its filter counts, asked for side by side (on PostgreSQL they run at once). */
export async function listVehiclesWithFacets(database: Database, options: ListingOptions, totals: ListingTotals = uncachedTotals): Promise<ListingPage & { facets: Facets }> {
  const [page, facets] = await Promise.all([listVehicles(database, options, totals), listVehicleFacets(database, options, totals)]);
  return { ...page, facets };
}

/** The vehicle with all its images in order, or null. Sold vehicles are still found. */
export async function getVehicle(database: Database, id: number): Promise<Vehicle | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const row = await database.db
    .selectFrom('vehicles')
    .innerJoin('categories', 'categories.id', 'vehicles.category_id')
    .selectAll('vehicles')
    .select(['categories.name as category_name', 'categories.slug as category_slug'])
    .where('vehicles.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const images = await database.db
    .selectFrom('vehicle_images')
    .select(['key', 'width', 'height', 'variant_widths'])
    .where('vehicle_id', '=', id)
    .orderBy('position')
    .execute();
  return toVehicle(row, images.map(toImageRef));
}

/** What a category card shows (see toCategory), besides its count. */
const categoryColumns = [
  'categories.id',
  'categories.name',
  'categories.slug',
  'categories.image_key',
  'categories.image_width',
  'categories.image_height',
  'categories.image_widths',
] as const;

export async function listCategories(database: Database): Promise<Category[]> {
  const rows = await database.db
    .selectFrom('categories')
    .leftJoin('vehicles', (join) => join.onRef('vehicles.category_id', '=', 'categories.id').on('vehicles.status', '!=', 'sold'))
    .select(categoryColumns)
    // Sale stock and rental fleet counted apart: a category may hold only rental cars (the demo's "Rental Cars").
    .select([sql<number | string>`count(case when vehicles.purpose = 'sale' then 1 end)`.as('vehicle_count'), sql<number | string>`count(case when vehicles.purpose = 'rental' then 1 end)`.as('fleet_count')])
    .groupBy(categoryColumns)
    .orderBy('categories.created_at')
    .orderBy('categories.id')
    .execute();
  return rows.map(toCategory);
}

/** The id of the category with this slug, or null (also for text no slug could be). */
export async function categoryIdBySlug(database: Database, slug: string): Promise<number | null> {
  if (!isSlug(slug, 80)) return null;
  const row = await database.db.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirst();
  return row?.id ?? null;
}

/** A category's slug: its name's, or 'category' for a name with no letter or digit in it. */
export const categorySlug = (name: string): string => slugify(name, 'category');

export async function createCategory(database: Database, input: { name: string; image?: ImageRef | null }, nowMs: number): Promise<number> {
  const now = new Date(nowMs).toISOString();
  const row = await database.db
    .insertInto('categories')
    .values({
      name: input.name.trim(),
      slug: categorySlug(input.name),
      image_key: input.image?.key ?? null,
      image_width: input.image?.width ?? null,
      image_height: input.image?.height ?? null,
      image_widths: input.image ? input.image.widths.join(',') : null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function categoryName(database: Database, categoryId: number): Promise<string> {
  const category = await database.db.selectFrom('categories').select('name').where('id', '=', categoryId).executeTakeFirst();
  if (!category) throw new Error(`No category ${categoryId}`);
  return category.name;
}

/** The stored columns for what an admin typed: trimmed, price digits, maps as JSON, search text. */
export function vehicleColumns(input: VehicleInput, categoryName: string) {
  return {
    ...textColumns(input),
    category_id: input.categoryId,
    price_rupees: priceDigits(input.price),
    odometer: input.odometer,
    featured: input.featured ? 1 : 0,
    inspection: mapOrNull(input.inspection),
    refurbishment: mapOrNull(input.refurbishment),
    financial: mapOrNull(input.financial),
    search_text: buildSearchText({ ...input, categoryName }),
    ...filterColumns(input),
  };
}

/** Rows of vehicle_images for `images`, numbered from `firstPosition`. */
export function imageRows(vehicleId: number, images: ImageRef[], firstPosition: number, now: string) {
  return images.map((image, index) => ({
    vehicle_id: vehicleId,
    position: firstPosition + index,
    key: image.key,
    width: image.width,
    height: image.height,
    variant_widths: image.widths.join(','),
    created_at: now,
  }));
}

export async function createVehicle(database: Database, input: VehicleInput, images: ImageRef[], nowMs: number): Promise<number> {
  const now = new Date(nowMs).toISOString();
  const category = await categoryName(database, input.categoryId);
  return database.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('vehicles')
      .values({ ...vehicleColumns(input, category), status: 'available', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (images.length > 0) await trx.insertInto('vehicle_images').values(imageRows(row.id, images, 0, now)).execute();
    return row.id;
  });
}

/** Everything the sitemap lists: categories, every sale vehicle's page and every rental car's page. */
export async function sitemapEntries(database: Database) {
  const [categories, vehicles, rentals] = await Promise.all([
    database.db.selectFrom('categories').select(['slug', 'updated_at']).orderBy('id').execute(),
    database.db.selectFrom('vehicles').select(['id', 'updated_at']).where('status', '!=', 'sold').where('purpose', '=', 'sale').orderBy('id').execute(),
    database.db.selectFrom('vehicles').select(['id', 'updated_at']).where('status', '!=', 'sold').where('purpose', '=', 'rental').orderBy('id').execute(),
  ]);
  return { categories, vehicles, rentals };
}
