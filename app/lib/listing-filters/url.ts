/**
 * The listing's URL parameters (decision 023) written back in a fixed order, so equal listings
 * have equal URLs. They are read by the listing query's schema (app/lib/schemas/listing.ts).
 */
import { DEFAULT_SORT, FILTER_NAMES, type FilterName, type ListingFilters, type NumberRange, type Sort } from './options.ts';

/** Budgets are written in lakh (₹1,00,000) in URLs and chips. */
export const LAKH = 100_000;

function writeRange(range: NumberRange, scale: number): string {
  const end = (value: number | null) => (value === null ? '' : String(value / scale));
  return `${end(range.min)}-${end(range.max)}`;
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

