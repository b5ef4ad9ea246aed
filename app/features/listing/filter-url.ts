/**
 * The listing's URL parameters (decision 023) written back in a fixed order, so equal listings
 * have equal URLs. They are read by the listing query's schema (app/features/listing/schemas.ts);
 * each filter's own writing is its entry in catalogue.ts.
 */
import { DEFAULT_SORT, FILTER_NAMES, filterOf, filterValues, type FilterName, type ListingFilters, type Sort } from '../../lib/listing-filters/catalogue.ts';

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

/**
 * `filters` without one value of one filter (a chip's link), or without the whole filter. A
 * list filter writes one value per item, so the value's place among the written ones is the
 * item's; a filter of one value is then off.
 */
export function withoutFilter(filters: ListingFilters, name: FilterName, value?: string): ListingFilters {
  const current = filters[name];
  const { off } = filterOf(name);
  if (!Array.isArray(current) || value === undefined) return { ...filters, [name]: Array.isArray(off) ? [] : off };
  const written = filterValues(filters)[name];
  return { ...filters, [name]: current.filter((_, index) => written[index] !== value) };
}
