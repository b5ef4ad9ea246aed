import { describe, expect, it } from 'vitest';
import { emptyFilters } from '../../app/lib/listing-filters/catalogue.ts';
import { readListingQuery } from '../../app/features/listing/schemas.ts';
import { LAST_INDEXED_PAGE, listingIndexable } from '../../app/features/listing/listing-view.ts';

/** Which listing pages search engines may index (decision 023); the HTML side is in listing-filters-pages. */
describe('listingIndexable', () => {
  const plain = { term: '', filters: emptyFilters(), total: 500 };

  it(`indexes the plain listing up to page ${LAST_INDEXED_PAGE} and no page after it`, () => {
    expect(listingIndexable({ ...plain, page: 1 })).toBe(true);
    expect(listingIndexable({ ...plain, page: LAST_INDEXED_PAGE })).toBe(true);
    expect(listingIndexable({ ...plain, page: LAST_INDEXED_PAGE + 1 })).toBe(false);
  });

  it('indexes one filter value, not two, nor a search with a filter, nor an empty result', () => {
    const filters = (query: string) => readListingQuery(new URLSearchParams(query)).filters;
    expect(listingIndexable({ ...plain, filters: filters('fuel=diesel'), page: 1 })).toBe(true);
    expect(listingIndexable({ ...plain, filters: filters('fuel=diesel,petrol'), page: 1 })).toBe(false);
    expect(listingIndexable({ ...plain, term: 'creta', filters: filters('fuel=diesel'), page: 1 })).toBe(false);
    expect(listingIndexable({ ...plain, filters: filters('fuel=diesel'), total: 0, page: 1 })).toBe(false);
    expect(listingIndexable({ ...plain, term: 'zzzz', total: 0, page: 1 })).toBe(false);
  });
});
