import {
  chipLabel,
  filterLabel,
  FILTER_NAMES,
  filterValues,
  offered,
  SORT_NAMES,
  sortLabel,
  takesSeveral,
  type Facets,
  type FilterName,
  type ListingFilters,
  type Sort,
} from '../../lib/listing-filters/catalogue.ts';
import { activeFilterCount, listingParams, withoutFilter } from './filter-url.ts';
import { paths } from '../../lib/paths.ts';

/**
 * What a listing page (home, or one category's page) shows of the buyer's filters, worked out
 * by its loader so the page's script carries none of the filter rules: the form's groups with
 * their counts, the chips with their remove links, the sort choices, and whether search engines
 * may index the page.
 */

/**
 * Where a listing lives: the home listing, or one category's page, whose URLs carry the
 * category's slug before the filters (`/categories?category=suvs&fuel=diesel`).
 */
export type ListingScope = { path: string; category?: string };
export const HOME_LISTING: ListingScope = { path: paths.home };
export const categoryListing = (slug: string): ListingScope => ({ path: paths.categories(), category: slug });

/** Pages of a listing after this one are deep: crawlers follow their links but do not index them. */
export const LAST_INDEXED_PAGE = 5;

export type FilterGroup = {
  name: FilterName;
  label: string;
  /** Year is one choice ("2019 or newer"); the other filters take several. */
  multiple: boolean;
  options: Array<{ value: string; label: string; count: number; checked: boolean }>;
};
export type FilterChip = { label: string; href: string };
export type ListingView = {
  groups: FilterGroup[];
  chips: FilterChip[];
  /** The listing without any filter (search and sort kept). */
  clearHref: string;
  sort: Sort;
  sorts: Array<{ value: Sort; label: string }>;
  /** Where the filter and sort forms send the buyer: the listing's own path. */
  action: string;
  /** The parameters the search and sort forms carry along as hidden fields. */
  hidden: Array<{ name: string; value: string }>;
  activeCount: number;
};

const hrefOf = (scope: ListingScope, params: URLSearchParams) => {
  const text = params.toString();
  return text ? `${scope.path}?${text}` : scope.path;
};

export function listingView(state: { scope: ListingScope; q: string; filters: ListingFilters; sort: Sort; facets: Facets }): ListingView {
  const { scope, q, filters, sort, facets } = state;
  const { category } = scope;
  const values = filterValues(filters);
  const names = {
    make: Object.fromEntries(facets.make.map((option) => [option.value, option.label])),
    model: Object.fromEntries(facets.model.map((option) => [option.value, option.label])),
  };
  const chips = FILTER_NAMES.flatMap((name) =>
    values[name].map((value) => ({
      label: chipLabel(name, value, names),
      href: hrefOf(scope, listingParams({ category, q, filters: withoutFilter(filters, name, value), sort })),
    })),
  );
  const groups = FILTER_NAMES.filter((name) => offered(name, filters)).map((name) => ({
    name,
    label: filterLabel(name),
    multiple: takesSeveral(name),
    // An option no car has is left out unless it is chosen (so it can be unticked).
    options: facets[name].map((option) => ({ ...option, checked: values[name].includes(option.value) })).filter((option) => option.count > 0 || option.checked),
  }));
  const hidden = [...listingParams({ category, q, filters, sort }).entries()].map(([name, value]) => ({ name, value }));
  return {
    groups: groups.filter((group) => group.options.length > 0),
    chips,
    clearHref: hrefOf(scope, listingParams({ category, q, filters: withoutAll(filters), sort })),
    sort,
    sorts: SORT_NAMES.map((value) => ({ value, label: sortLabel(value) })),
    action: scope.path,
    hidden,
    activeCount: activeFilterCount(filters),
  };
}

function withoutAll(filters: ListingFilters): ListingFilters {
  return FILTER_NAMES.reduce((rest, name) => withoutFilter(rest, name), filters);
}

/**
 * Which listing pages search engines index: the plain listing and a listing narrowed by one
 * filter value (a landing page such as "diesel cars"), each with its own canonical URL; a
 * search that found cars, as before. Several filters (a search with a filter counts as two), a
 * search or filter with no result and pages after
 * LAST_INDEXED_PAGE are `noindex,follow`: thin or endless variations, whose cars crawlers still
 * reach through their links and the sitemap.
 */
export function listingIndexable(state: { term: string; filters: ListingFilters; total: number; page: number }): boolean {
  if (state.page > LAST_INDEXED_PAGE) return false;
  const filterCount = activeFilterCount(state.filters);
  // A search narrowed by a filter is as much a variation as two filters.
  if (filterCount > 1 || (filterCount > 0 && state.term !== '')) return false;
  if (state.total === 0 && (state.term !== '' || filterCount > 0)) return false;
  return true;
}

/**
 * The canonical path of a listing page: its parameters in the one fixed order, without the sort
 * (a sorted listing holds the same cars as its default order).
 */
export function listingPath(state: { scope: ListingScope; term: string; filters: ListingFilters; page: number }): string {
  return hrefOf(state.scope, listingParams({ category: state.scope.category, q: state.term, filters: state.filters, page: state.page }));
}

/** A page of the same listing (search, filters and sort kept), for the pagination links. */
export function listingPageHref(state: { scope: ListingScope; term: string; filters: ListingFilters; sort: Sort }, page: number): string {
  return hrefOf(state.scope, listingParams({ category: state.scope.category, q: state.term, filters: state.filters, sort: state.sort, page }));
}
