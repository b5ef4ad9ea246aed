import { z } from 'zod';
import { parsePage, parseWholeNumber } from '../../lib/input.ts';
import { DEFAULT_SORT, FILTER_NAMES, filterReaders, readSort, type ListingFilters, type Sort } from '../../lib/listing-filters/catalogue.ts';
import { single } from '../../lib/listing-filters/params.ts';
import { MAX_SEARCH_LENGTH } from '../search/search.ts';

/**
 * What a listing URL accepts (decision 023), for the listing pages (home, a category) and
 * `GET /api/v1/vehicles` alike: the search text, the filters, the sort and the page.
 *
 * It never refuses (decision 065): listing URLs are shared and crawled, so a value that means
 * nothing is dropped, as an odd page number is, and named in `problems`. The pages ignore the
 * problems (the cars show without that filter); the API answers them with 400 so an app hears
 * about its mistake. The canonical URL is written back from the result (listingParams).
 */

/** The most vehicles one page of the API holds (the listing's own limit). */
export const MAX_PER_PAGE = 100;

/** The parameters every listing reads, in the order their problems are named. */
const listingShape = {
  // Not cleaned: a search with a control character matches nothing (server/catalog/search.ts).
  q: single.transform((text) => text.trim().slice(0, MAX_SEARCH_LENGTH)),
  category: single,
  // The filters' parameters, in the table's order (app/lib/listing-filters/catalogue.ts).
  ...filterReaders,
  sort: readSort,
  /** A positive whole number; anything else is page 1. */
  page: single.transform((text) => parsePage(text)),
};

type ListingShape = z.output<z.ZodObject<typeof listingShape>>;

/** The query parameters a listing page (home, a category) reads: its search, filters, order and page (app/lib/page-query.ts). */
export const listingParameters: readonly string[] = Object.keys(listingShape);

export type ListingQuery = {
  /** The search text, trimmed and cut to the search box's length. */
  term: string;
  /** The category's slug (pages) or id (the API) as written; '' for none. */
  category: string;
  filters: ListingFilters;
  sort: Sort;
  page: number;
  /** What was dropped and why, one sentence per parameter. */
  problems: string[];
};

function listingQuery(read: ListingShape): ListingQuery {
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, read[name].value])) as ListingFilters;
  const problems = [...FILTER_NAMES.map((name) => read[name]), read.sort].flatMap((field) => (field.problem ? [field.problem] : []));
  return { term: read.q, category: read.category, filters, sort: read.sort.value ?? DEFAULT_SORT, page: read.page, problems };
}

/** A listing page's query (home, a category). */
export const listingQuerySchema = z.object(listingShape).transform(listingQuery);

/** `GET /api/v1/vehicles`: the listing's query and how many cars a page holds (null: the dealer's setting). */
export const vehiclesQuerySchema = z
  .object({ ...listingShape, perPage: single.transform((text) => parseWholeNumber(text, { min: 1, max: MAX_PER_PAGE })) })
  .transform(({ perPage, ...read }) => ({ ...listingQuery(read), perPage }));

/**
 * A URL's parameters as the schemas take them: each name with all its values. Own properties
 * only (`fromEntries`), so a parameter named `__proto__` is just an unknown name.
 */
export function queryObject(params: URLSearchParams): Record<string, string[]> {
  return Object.fromEntries([...new Set(params.keys())].map((name) => [name, params.getAll(name)]));
}

/** What a listing URL asks for. Never throws: every parameter's input is text. */
export function readListingQuery(params: URLSearchParams): ListingQuery {
  return listingQuerySchema.parse(queryObject(params));
}
