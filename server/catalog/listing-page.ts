import { emptyFilters, type ListingFilters, type Sort } from '../../app/lib/listing-filters/catalogue.ts';
import { listingIndexable, listingPageHref, listingPath, listingView, type ListingScope } from '../../app/features/listing/listing-view.ts';
import type { VehicleListing } from './listing.ts';

/**
 * Everything a listing page shows, for the home listing and a category's page alike: a page of
 * cars, the filter form with its counts, the chips, the canonical path, whether search engines
 * may index it and the links to the pages before and after.
 */
export async function loadListingPage(
  deps: { listing: VehicleListing },
  input: { scope: ListingScope; categoryId?: number; term: string; filters: ListingFilters; sort: Sort; page: number; perPage: number },
) {
  const { scope, term, filters, sort } = input;
  const listing = { query: term, filters, ...(input.categoryId !== undefined ? { categoryId: input.categoryId } : {}) };
  const { facets, searchedFor, suggestions, ...result } = await deps.listing.pageWithFacets({ ...listing, sort, page: input.page, perPage: input.perPage });
  const state = { scope, term, filters, sort };
  return {
    ...result,
    // A search found by correcting its spelling, or the models to try when nothing was found
    // (each a plain search of this listing: the filters that found nothing are left behind).
    spelling: {
      searchedFor,
      suggestions: suggestions.map((model) => ({ model, href: listingPath({ scope, term: model, filters: emptyFilters(), page: 1 }) })),
    },
    filtersView: listingView({ scope, q: term, filters, sort, facets }),
    canonicalPath: listingPath({ scope, term, filters, page: result.page }),
    indexable: listingIndexable({ term, filters, total: result.total, page: result.page }),
    pageHrefs: { previous: listingPageHref(state, result.page - 1), next: listingPageHref(state, result.page + 1) },
  };
}
