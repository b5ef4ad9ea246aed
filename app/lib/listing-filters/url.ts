/**
 * The listing's URL parameters (decision 023): read forgivingly into a filter set and a sort,
 * and written back in a fixed order so equal listings have equal URLs.
 */
import { isSlug } from '../slug.ts';
import {
  BODY_TYPES,
  COLOURS,
  DEFAULT_SORT,
  emptyFilters,
  FILTER_NAMES,
  FUELS,
  SORTS,
  TRANSMISSION_KEYS,
  type FilterName,
  type ListingFilters,
  type NumberRange,
  type OwnerOption,
  type Sort,
} from './options.ts';
import { REGISTRATION_STATES } from './registration.ts';

const LAKH = 100_000;

/** At most this many values of one filter count (a crafted URL with thousands is cut). */
const MAX_VALUES = 20;
const MAX_PARAM_LENGTH = 600;

export type ParsedListingQuery = { filters: ListingFilters; sort: Sort; problems: string[] };

function list(values: string[]): string[] {
  // A plain GET form's checkboxes repeat the parameter (fuel=petrol&fuel=diesel); a link joins
  // the values with commas. Both mean the same list.
  const value = values.join(',');
  if (!value) return [];
  // A crafted list longer than any real one is cut at the last whole value within the limit.
  const text = value.length > MAX_PARAM_LENGTH ? value.slice(0, value.lastIndexOf(',', MAX_PARAM_LENGTH)) : value;
  return [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].slice(0, MAX_VALUES);
}

/** 'a-b', 'a-' or '-b' with a and b numbers of at most `digits` digits; null when it is not one. */
function parseRange(text: string, scale: number, decimals: boolean): NumberRange | null {
  const number = decimals ? '(\\d{1,4}(?:\\.\\d{1,2})?)' : '(\\d{1,9})';
  const match = new RegExp(`^${number}?-${number}?$`).exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined)) return null;
  const min = match[1] === undefined ? null : Math.round(Number(match[1]) * scale);
  const max = match[2] === undefined ? null : Math.round(Number(match[2]) * scale);
  if (min !== null && max !== null && min >= max) return null;
  return { min, max };
}

function writeRange(range: NumberRange, scale: number): string {
  const end = (value: number | null) => (value === null ? '' : String(value / scale));
  return `${end(range.min)}-${end(range.max)}`;
}

/**
 * The filters and sort in a listing URL. Forgiving, as paging is (decision 012): a value that
 * means nothing is left out and named in `problems`, which the API answers with 400 and the
 * pages simply ignore (the visitor sees the cars without that filter, and its chip is absent).
 */
export function parseListingQuery(params: URLSearchParams): ParsedListingQuery {
  const filters = emptyFilters();
  const problems: string[] = [];
  const known = <Key extends string>(name: FilterName, options: Record<Key, string>, values: string[]): Key[] => {
    const good = values.filter((value): value is Key => Object.hasOwn(options, value));
    if (good.length < values.length) problems.push(`${name} must be one or more of ${Object.keys(options).join(', ')}, separated by commas`);
    return good;
  };

  for (const value of list(params.getAll('budget'))) {
    const range = parseRange(value, LAKH, true);
    if (range) filters.budget.push(range);
    else problems.push('budget must be lakh ranges such as 5-8, -3 or 20-, separated by commas');
  }
  const slugs = (name: 'make' | 'model') => {
    const values = list(params.getAll(name));
    const good = values.filter((value) => isSlug(value));
    if (good.length < values.length) problems.push(`${name} must be slugs such as maruti-suzuki, separated by commas`);
    return good;
  };
  filters.make = slugs('make');
  filters.model = slugs('model');
  filters.fuel = known('fuel', FUELS, list(params.getAll('fuel')));
  filters.trans = known('trans', TRANSMISSION_KEYS, list(params.getAll('trans')));
  filters.body = known('body', BODY_TYPES, list(params.getAll('body')));
  const year = params.get('year');
  if (year) {
    const range = parseRange(year.trim(), 1, false);
    if (range && (range.min === null || range.min >= 1950) && (range.max === null || range.max <= 2100)) {
      // Both ends included for years: '2015-2019' is five model years.
      filters.year = range;
    } else if (/^\d{4}$/.test(year.trim())) {
      filters.year = { min: Number(year.trim()), max: Number(year.trim()) };
    } else {
      problems.push('year must be a range of years such as 2019-, -2015 or 2015-2019');
    }
  }
  for (const value of list(params.getAll('km'))) {
    const range = parseRange(value, 1, false);
    if (range) filters.km.push(range);
    else problems.push('km must be kilometre ranges such as -50000 or 25000-50000, separated by commas');
  }
  for (const value of list(params.getAll('owners'))) {
    if (value === '1' || value === '2' || value === '3') filters.owners.push(Number(value) as OwnerOption);
    else problems.push('owners must be 1, 2 or 3 (3 meaning three or more), separated by commas');
  }
  filters.color = known('color', COLOURS, list(params.getAll('color')));
  const states = list(params.getAll('state')).map((value) => value.toUpperCase());
  filters.state = states.filter((value) => value in REGISTRATION_STATES);
  if (filters.state.length < states.length) problems.push('state must be registration state codes such as MH, KA or DL, separated by commas');

  const sortParam = params.get('sort');
  let sort: Sort = DEFAULT_SORT;
  if (sortParam && Object.hasOwn(SORTS, sortParam)) sort = sortParam as Sort;
  else if (sortParam) problems.push(`sort must be one of ${Object.keys(SORTS).join(', ')}`);
  return { filters, sort, problems: [...new Set(problems)] };
}

/** Each filter's values as its URL parameter writes them (empty when the filter is off). */
export function filterValues(filters: ListingFilters): Record<FilterName, string[]> {
  return {
    budget: filters.budget.map((range) => writeRange(range, LAKH)),
    make: filters.make,
    model: filters.model,
    fuel: filters.fuel,
    trans: filters.trans,
    body: filters.body,
    year: filters.year ? [filters.year.min !== null && filters.year.min === filters.year.max ? String(filters.year.min) : writeRange(filters.year, 1)] : [],
    km: filters.km.map((range) => writeRange(range, 1)),
    owners: filters.owners.map(String),
    color: filters.color,
    state: filters.state,
  };
}

/** How many filter values are on: the SEO rule (one is a landing page, more are not) counts these. */
export function activeFilterCount(filters: ListingFilters): number {
  return Object.values(filterValues(filters)).reduce((sum, values) => sum + values.length, 0);
}

/** The URL parameters of a listing, in a fixed order so equal listings have equal URLs. */
export function listingParams(state: { q?: string; category?: string; filters: ListingFilters; sort?: Sort; page?: number }): URLSearchParams {
  const params = new URLSearchParams();
  if (state.category) params.set('category', state.category);
  if (state.q?.trim()) params.set('q', state.q.trim());
  const values = filterValues(state.filters);
  for (const name of FILTER_NAMES) if (values[name].length > 0) params.set(name, values[name].join(','));
  if (state.sort && state.sort !== DEFAULT_SORT) params.set('sort', state.sort);
  if (state.page && state.page > 1) params.set('page', String(state.page));
  return params;
}

/** `filters` without one value of one filter (a chip's link), or without the whole filter. */
export function withoutFilter(filters: ListingFilters, name: FilterName, value?: string): ListingFilters {
  const next: ListingFilters = { ...filters };
  if (name === 'year') next.year = null;
  else if (value === undefined) (next[name] as unknown[]) = [];
  else {
    const written = filterValues(filters)[name];
    (next[name] as unknown[]) = (filters[name] as unknown[]).filter((_, index) => written[index] !== value);
  }
  return next;
}

