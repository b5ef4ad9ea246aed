import { z } from 'zod';
import { parsePage, parseWholeNumber } from '../input.ts';
import {
  BODY_TYPES,
  COLOURS,
  DEFAULT_SORT,
  emptyFilters,
  FUELS,
  SORTS,
  TRANSMISSION_KEYS,
  type ListingFilters,
  type NumberRange,
  type OwnerOption,
  type Sort,
} from '../listing-filters/options.ts';
import { REGISTRATION_STATES } from '../listing-filters/registration.ts';
import { LAKH } from '../listing-filters/url.ts';
import { MAX_SEARCH_LENGTH } from '../search.ts';
import { isSlug } from '../slug.ts';

/**
 * What a listing URL accepts (decision 023), for the listing pages (home, a category) and
 * `GET /api/v1/vehicles` alike: the search text, the filters, the sort and the page.
 *
 * It never refuses (decision 065): listing URLs are shared and crawled, so a value that means
 * nothing is dropped, as an odd page number is, and named in `problems`. The pages ignore the
 * problems (the cars show without that filter); the API answers them with 400 so an app hears
 * about its mistake. The canonical URL is written back from the result (listingParams).
 */

/** At most this many values of one filter count (a crafted URL with thousands is cut). */
const MAX_VALUES = 20;
const MAX_PARAM_LENGTH = 600;
/** The most vehicles one page of the API holds (the listing's own limit). */
export const MAX_PER_PAGE = 100;

/** A query parameter: once, several times (`fuel=petrol&fuel=diesel`) or not at all. */
const param = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (value === undefined ? [] : typeof value === 'string' ? [value] : value));

/** A parameter read once: its first value, '' when absent. */
const single = param.transform((values) => values[0] ?? '');

/**
 * The values of a list parameter. A plain GET form's checkboxes repeat the parameter; a link
 * joins the values with commas. Both mean the same list: trimmed, lower-cased, each once.
 */
function listValues(values: string[]): string[] {
  const value = values.join(',');
  // A crafted list longer than any real one is cut at the last whole value within the limit
  // (a single value that long is no value at all and is refused whole).
  const cut = value.length > MAX_PARAM_LENGTH ? value.lastIndexOf(',', MAX_PARAM_LENGTH) : value.length;
  const text = cut < 0 ? value.slice(0, MAX_PARAM_LENGTH) : value.slice(0, cut);
  return [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].slice(0, MAX_VALUES);
}

type Forgiven<Value> = { value: Value; problem: string | null };

/** A list parameter whose values are each read by `item`: those it refuses are dropped, and `problem` says so. */
function forgivingList<Item>(item: z.ZodType<Item>, problem: string) {
  return param.transform((values): Forgiven<Item[]> => {
    const read = listValues(values).map((value) => item.safeParse(value));
    const good = read.flatMap((result) => (result.success ? [result.data] : []));
    return { value: good, problem: good.length < read.length ? problem : null };
  });
}

/** One of a record's keys (`Object.hasOwn`, so `constructor` is not a fuel). */
const keyOf = <Key extends string>(record: Record<Key, string>) => z.enum(Object.keys(record) as [Key, ...Key[]]);

/**
 * 'a-b', 'a-' or '-b', where a and b are numbers as `number` matches, multiplied by `scale`;
 * a before b. Whole rupees, kilometres and years stay within a 32-bit integer's reach.
 */
function rangeOf(number: string, scale: number) {
  return z
    .string()
    .regex(new RegExp(`^(?:${number})?-(?:${number})?$`))
    .refine((text) => text !== '-')
    .transform((text): NumberRange => {
      const [low = '', high = ''] = text.split('-');
      return { min: low ? Math.round(Number(low) * scale) : null, max: high ? Math.round(Number(high) * scale) : null };
    })
    .refine((range) => range.min === null || range.max === null || range.min < range.max);
}

/** Lakh with up to two decimals ('4.5-9'). */
const budgetRange = rangeOf('\\d{1,4}(?:\\.\\d{1,2})?', LAKH);
const wholeRange = rangeOf('\\d{1,9}', 1);
/** A model year a car can have. */
const isModelYear = (year: number | null) => year === null || (year >= 1950 && year <= 2100);
/** Model years, both ends included: '2015-2019' is five years; '2019' alone is one. */
const yearRange = z
  .string()
  .trim()
  .pipe(
    z.union([
      wholeRange,
      z
        .string()
        .regex(/^\d{4}$/)
        .transform((year): NumberRange => ({ min: Number(year), max: Number(year) })),
    ]),
  )
  .refine((range) => isModelYear(range.min) && isModelYear(range.max));
const slug = z.string().refine((text) => isSlug(text));

const messages = {
  budget: 'budget must be lakh ranges such as 5-8, -3 or 20-, separated by commas',
  slugs: (name: string) => `${name} must be slugs such as maruti-suzuki, separated by commas`,
  oneOf: (name: string, options: object) => `${name} must be one or more of ${Object.keys(options).join(', ')}, separated by commas`,
  year: 'year must be a range of years such as 2019-, -2015 or 2015-2019',
  km: 'km must be kilometre ranges such as -50000 or 25000-50000, separated by commas',
  owners: 'owners must be 1, 2 or 3 (3 meaning three or more), separated by commas',
  state: 'state must be registration state codes such as MH, KA or DL, separated by commas',
  sort: `sort must be one of ${Object.keys(SORTS).join(', ')}`,
} as const;

/** One parameter read once by `schema`; blank means not given. */
function forgivingSingle<Value>(schema: z.ZodType<Value>, problem: string) {
  return single.transform((text): Forgiven<Value | null> => {
    if (!text) return { value: null, problem: null };
    const result = schema.safeParse(text);
    return result.success ? { value: result.data, problem: null } : { value: null, problem };
  });
}

/** The parameters every listing reads, in the order their problems are named. */
const listingShape = {
  // Not cleaned: a search with a control character matches nothing (server/catalog/search.ts).
  q: single.transform((text) => text.trim().slice(0, MAX_SEARCH_LENGTH)),
  category: single,
  budget: forgivingList(budgetRange, messages.budget),
  make: forgivingList(slug, messages.slugs('make')),
  model: forgivingList(slug, messages.slugs('model')),
  fuel: forgivingList(keyOf(FUELS), messages.oneOf('fuel', FUELS)),
  trans: forgivingList(keyOf(TRANSMISSION_KEYS), messages.oneOf('trans', TRANSMISSION_KEYS)),
  body: forgivingList(keyOf(BODY_TYPES), messages.oneOf('body', BODY_TYPES)),
  year: forgivingSingle(yearRange, messages.year),
  km: forgivingList(wholeRange, messages.km),
  owners: forgivingList(
    z.enum(['1', '2', '3']).transform((owners) => Number(owners) as OwnerOption),
    messages.owners,
  ),
  color: forgivingList(keyOf(COLOURS), messages.oneOf('color', COLOURS)),
  state: forgivingList(
    z
      .string()
      .transform((code) => code.toUpperCase())
      .refine((code) => Object.hasOwn(REGISTRATION_STATES, code)),
    messages.state,
  ),
  sort: forgivingSingle(keyOf(SORTS), messages.sort),
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
  const filters: ListingFilters = {
    ...emptyFilters(),
    budget: read.budget.value,
    make: read.make.value,
    model: read.model.value,
    fuel: read.fuel.value,
    trans: read.trans.value,
    body: read.body.value,
    year: read.year.value,
    km: read.km.value,
    owners: read.owners.value,
    color: read.color.value,
    state: read.state.value,
  };
  const problems = [read.budget, read.make, read.model, read.fuel, read.trans, read.body, read.year, read.km, read.owners, read.color, read.state, read.sort].flatMap(
    (field) => (field.problem ? [field.problem] : []),
  );
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
