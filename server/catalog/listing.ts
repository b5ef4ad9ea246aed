import { sql, type OperandExpression, type SqlBool } from 'kysely';
import { DEFAULT_SORT, emptyFilters, type Facets, type ListingFilters, type Sort } from '../../app/lib/listing-filters/catalogue.ts';
import type { VehicleSummary } from '../../app/lib/vehicle.ts';
import type { Database } from '../db/connection.ts';
import { pageOf, pageWindow, type Page, type PageWindow } from '../db/paging.ts';
import { facetsFrom, filterConditions, listingFacetRows, sortOrder } from './filters.ts';
import type { CatalogueIndex } from './catalogue-index.ts';
import { uncachedTotals, type ListingTotals } from './listing-totals.ts';
import { postgresListing } from './listing/postgres.ts';
import { sqliteListing } from './listing/sqlite.ts';
import { keptKey, listingBase, titleHolds, type ListingQuery } from './listing/strategy.ts';
import { searchTerms } from './search.ts';
import { catalogueVocabulary, correctedSearch, nearestModels } from './spelling.ts';
import { carCatalogue, searchInEnglishNames } from './car-models.ts';
import { hasDevanagari } from '../../app/lib/name-matching.ts';
import { toSummary } from './rows.ts';
import { coversFor, summaryColumns } from './vehicles.ts';

export type ListingOptions = {
  query?: string;
  categoryId?: number;
  /** The buyer's filters (app/lib/listing-filters/); none when absent. */
  filters?: ListingFilters;
  sort?: Sort;
  page?: number;
  perPage: number;
  /** Words whose cars come first: those whose make or model holds them all (a corrected search's, decision 079). */
  prefer?: string[];
};

/** A page of the listing; `totalCapped`: there are more than `total` (= LISTING_COUNT_CAP) matches. */
export type ListingPage = Page<VehicleSummary> & { totalCapped: boolean };

/**
 * A listing counts its matches up to this many and then says "1,000+ vehicles found", and pages
 * no deeper than these: counting or skipping every one of 90,000 matches costs time that grows
 * with the inventory (docs/decisions/028-listing-at-scale.md).
 */
export const LISTING_COUNT_CAP = 1000;

/** The listing of cars for sale: the home page, a category's page and GET /api/v1/vehicles. */
export type VehicleListing = {
  /**
   * One page of vehicles for sale (sold ones leave the listing), featured first then newest
   * unless another sort is asked for, optionally narrowed by a search, a category and filters.
   */
  page(options: ListingOptions): Promise<ListingPage>;
  /**
   * What a listing shows: a page of its cars and its filter counts, asked for side by side (on
   * PostgreSQL they run at once). A search that finds nothing is tried again with its typos
   * corrected (server/catalog/spelling.ts): `searchedFor` is then the search that was run;
   * when that finds nothing either, `suggestions` names the nearest models.
   */
  pageWithFacets(options: ListingOptions): Promise<ListingPage & { facets: Facets } & SpellingHelp>;
};

/** What the listing says about the buyer's spelling. */
export type SpellingHelp = {
  /** The corrected search whose cars are shown ('hyundai Creta' for 'hyundai cretta'), or null when the search ran as typed. */
  searchedFor: string | null;
  /** When nothing matched even corrected: models near a word typed ('Toyota Innova'). */
  suggestions: string[];
};

/**
 * The listing over `database`, its way of finding the cars chosen here once for the database
 * (listing/sqlite.ts, listing/postgres.ts); counts are kept in `totals`.
 */
export function createVehicleListing(database: Database, totals: ListingTotals = uncachedTotals, index?: CatalogueIndex): VehicleListing {
  const strategy = database.dialect === 'sqlite' ? sqliteListing(database) : postgresListing(database, totals);

  /** The page's rows, in the listing's order, from their ids. */
  async function pageRows(pageIds: OperandExpression<number> | number[], sort: Sort): Promise<VehicleSummary[]> {
    if (Array.isArray(pageIds) && pageIds.length === 0) return [];
    const rows = await database.db
      .selectFrom('vehicles')
      .innerJoin('categories', 'categories.id', 'vehicles.category_id')
      .where('vehicles.id', 'in', pageIds)
      .select(summaryColumns)
      .orderBy(sortOrder(sort))
      .execute();
    // Ids given as a list are already in the listing's order (the index's, with preferred cars first).
    if (Array.isArray(pageIds)) {
      const rank = new Map(pageIds.map((id, position) => [id, position]));
      rows.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
    }
    const covers = await coversFor(
      database,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toSummary(row, covers.get(row.id) ?? null));
  }

  /** A listing from the in-memory index: its page and, when asked, its filter counts, in one pass. */
  async function fromIndex(catalogue: CatalogueIndex, options: ListingOptions, withFacets: boolean) {
    const perPage = Math.max(1, Math.min(100, options.perPage));
    const filters = options.filters ?? emptyFilters();
    const sort = options.sort ?? DEFAULT_SORT;
    let window = pageWindow(0, 1, perPage);
    let total = 0;
    const answer = await catalogue.answer({
      terms: searchTerms(options.query ?? ''),
      ...(options.prefer?.length ? { prefer: options.prefer } : {}),
      ...(options.categoryId !== undefined ? { categoryId: options.categoryId } : {}),
      filters,
      sort,
      facets: withFacets,
      windowFor: (matches) => {
        total = Math.min(matches, LISTING_COUNT_CAP);
        window = pageWindow(total, options.page ?? 1, perPage);
        return window;
      },
    });
    const listed: ListingPage = { ...pageOf(await pageRows(answer.pageIds, sort), total, window), totalCapped: answer.matches > LISTING_COUNT_CAP };
    return { listed, facets: answer.facets ? facetsFrom(answer.facets, filters) : null };
  }

  async function page(options: ListingOptions): Promise<ListingPage> {
    if (index) return (await fromIndex(index, options, false)).listed;
    const perPage = Math.max(1, Math.min(100, options.perPage));
    const listing: ListingQuery = {
      options,
      terms: searchTerms(options.query ?? ''),
      filters: Object.values(filterConditions(options.filters ?? emptyFilters())),
    };
    const matches = await totals.read(keptKey('count', options), () => strategy.count(listing, LISTING_COUNT_CAP + 1));
    const totalCapped = matches > LISTING_COUNT_CAP;
    const total = Math.min(matches, LISTING_COUNT_CAP);
    const window = pageWindow(total, options.page ?? 1, perPage);
    const sort = options.sort ?? DEFAULT_SORT;
    if (options.prefer?.length)
      return { ...pageOf(await preferredFirst(listing, options.prefer, { window, sort, matches, totalCapped }), total, window), totalCapped };
    // The page's ids first, then their rows: the cars skipped to reach a deep page are read from
    // the order's index alone (it holds the id), not each joined to its category.
    const pageIds = await strategy.pageIds(listing, { window, sort, matches, totalCapped });
    return { ...pageOf(await pageRows(pageIds, sort), total, window), totalCapped };
  }

  /**
   * The window of a listing whose cars holding `prefer` come first, each part in the listing's
   * order: the preferred part and the rest are two listings, the window cut across them.
   */
  async function preferredFirst(
    listing: ListingQuery,
    prefer: string[],
    place: { window: PageWindow; sort: Sort; matches: number; totalCapped: boolean },
  ): Promise<VehicleSummary[]> {
    const holds = titleHolds(prefer);
    const first: ListingQuery = { ...listing, filters: [...listing.filters, holds] };
    const rest: ListingQuery = { ...listing, filters: [...listing.filters, sql<SqlBool>`NOT ${holds}`] };
    const firstCount = await strategy.count(first, LISTING_COUNT_CAP + 1);
    const { offset, limit } = place.window;
    const end = offset + limit;
    const items: VehicleSummary[] = [];
    if (offset < firstCount) {
      const window = { ...place.window, offset, limit: Math.min(end, firstCount) - offset };
      items.push(...(await pageRows(await strategy.pageIds(first, { ...place, window, matches: firstCount, totalCapped: false }), place.sort)));
    }
    if (end > firstCount) {
      const window = { ...place.window, offset: Math.max(0, offset - firstCount), limit: end - Math.max(offset, firstCount) };
      items.push(...(await pageRows(await strategy.pageIds(rest, { ...place, window, matches: Math.max(0, place.matches - firstCount) }), place.sort)));
    }
    return items;
  }

  /** How many cars each filter option would give on this listing (see listingFacetRows): the counts are kept, labelled per request in its language. */
  async function facets(options: ListingOptions): Promise<Facets> {
    const filters = options.filters ?? emptyFilters();
    return facetsFrom(
      await totals.read(keptKey('facets', options), () => listingFacetRows(database, { base: listingBase(database, options), filters })),
      filters,
    );
  }

  async function pageWithFacets(options: ListingOptions) {
    if (index) {
      const { listed, facets: counted } = await fromIndex(index, options, true);
      return { ...listed, facets: counted! };
    }
    const [listed, counted] = await Promise.all([page(options), facets(options)]);
    return { ...listed, facets: counted };
  }

  /**
   * The cars' makes, models, variants and fuels: from the listing index's cars when there is one
   * (made once per change), otherwise by SQL kept with the counts (an admin's change empties both).
   */
  const vocabulary = () => (index ? index.vocabulary() : totals.read('spelling-vocabulary', () => catalogueVocabulary(database)));

  /** The listing with its spelling forgiven (decision 079). */
  async function spelledPage(options: ListingOptions): Promise<ListingPage & { facets: Facets } & SpellingHelp> {
    const terms = searchTerms(options.query ?? '');
    if (terms.length === 0) return { ...(await pageWithFacets(options)), searchedFor: null, suggestions: [] };
    const known = await vocabulary();
    const corrected = correctedSearch(terms, known);
    // The cars the corrected words name come first: 'pucnh' lists the Punch before a Verna whose description says "punchy".
    const prefer = corrected === null ? [] : searchTerms(corrected).filter((word) => !terms.includes(word));
    // A word the catalogue does not know but is one typo from a word it does is nearly always
    // that typo, and the search as typed then finds nothing: the corrected search is read beside
    // it, so a buyer who mistyped waits for one search, not two in a row (on PostgreSQL each
    // first read of a word rechecks its matches, 10–40 ms at 100k). It is shown only when the
    // search as typed finds nothing, so exact matches always come first.
    const [asTyped, found] = await Promise.all([pageWithFacets(options), corrected === null ? null : pageWithFacets({ ...options, query: corrected, prefer })]);
    if (asTyped.total > 0) return { ...asTyped, searchedFor: null, suggestions: [] };
    if (found && found.total > 0) return { ...found, searchedFor: corrected, suggestions: [] };
    return { ...asTyped, searchedFor: null, suggestions: nearestModels(terms, known) };
  }

  return {
    page,
    async pageWithFacets(options) {
      const typed = searchTerms(options.query ?? '');
      // Hindi names of makes and models are searched as the cars are written (decision 098):
      // 'क्रेटा' is searched as Creta, and the page says "Showing results for Creta". The
      // catalogue is kept with the counts, so an admin's addition is read within their life.
      const inEnglish = typed.some(hasDevanagari) ? searchInEnglishNames(typed, await totals.read('car-catalogue', () => carCatalogue(database))) : null;
      if (!inEnglish) return spelledPage(options);
      const found = await spelledPage({ ...options, query: inEnglish.join(' ') });
      return { ...found, searchedFor: found.searchedFor ?? inEnglish.join(' ') };
    },
  };
}
