import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  bucketMatch,
  carMatches,
  chipLabel,
  FACET_BUCKETS,
  FILTER_COLUMNS,
  FILTER_NAMES,
  FILTERS,
  filterOf,
  SORT_NAMES,
  SORTS,
  sortLabel,
  type FilterCar,
  type Match,
} from '../../app/lib/listing-filters/catalogue.ts';
import { browseText } from '../../app/lib/i18n/browse.ts';
import { listingParameters, readListingQuery } from '../../app/features/listing/schemas.ts';
import { matchCondition, sortOrder } from '../../server/catalog/filters.ts';
import type { DB } from '../../server/db/schema.ts';

/**
 * The filter table (app/lib/listing-filters/catalogue.ts) walked entry by entry: every filter
 * and bucket has what the listing derives from it (its reader, its texts in both languages, a
 * SQL condition and an in-memory predicate on a column of the right kind), and the buckets
 * counted under do not overlap. tests/integration/listing-catalogue.test.ts runs the same walk
 * on both databases and the in-memory index.
 */

const compiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

/** A car with no value in any filter column. */
const blankCar = () => Object.fromEntries(Object.keys(FILTER_COLUMNS).map((column) => [column, null])) as FilterCar;

/** The values a filter is tried with: its buckets, or a value a car could have. */
const SAMPLES: Record<string, string[]> = {
  make: ['maruti-suzuki'],
  model: ['swift'],
  body: ['suv'],
  year: ['2019-', '2015-2019', '2020'],
  color: ['white'],
  state: ['mh'],
};
const samplesOf = (name: (typeof FILTER_NAMES)[number]) => [...FILTERS[name].buckets.map((bucket) => bucket.value), ...(SAMPLES[name] ?? [])];

describe('the filter table', () => {
  it('is what the listing URL reads, in its order, between the search and the sort (the page cache keys pages by these)', () => {
    expect(listingParameters).toEqual(['q', 'category', ...FILTER_NAMES, 'sort', 'page']);
  });

  for (const name of FILTER_NAMES) {
    describe(name, () => {
      const filter = filterOf(name);

      it('has a name and texts for its buckets in English and Hindi', () => {
        for (const key of [FILTERS[name].labelKey, ...FILTERS[name].buckets.map((bucket) => bucket.labelKey)]) {
          for (const language of ['en', 'hi'] as const) expect(browseText(key, {}, language), `${key} in ${language}`).not.toBe(key);
        }
      });

      it('reads each value it is tried with and writes it back as it was written; its chip is the bucket’s text', () => {
        const samples = samplesOf(name);
        expect(samples.length).toBeGreaterThan(0);
        for (const value of samples) {
          const read = readListingQuery(new URLSearchParams({ [name]: value }));
          expect(read.problems, `${name}=${value}`).toEqual([]);
          expect(filter.write(read.filters[name]), `${name}=${value}`).toEqual([name === 'state' ? value.toUpperCase() : value]);
        }
        for (const bucket of FILTERS[name].buckets) expect(chipLabel(name, bucket.value)).toBe(browseText(bucket.labelKey));
      });

      it('keeps cars by a SQL condition and an in-memory predicate on a column of the kind its match says', () => {
        for (const value of samplesOf(name)) {
          const match = filter.match(filter.read.parse(value).value);
          expect(match, `${name}=${value}`).not.toBeNull();
          const { column } = match!;
          expect(FILTER_COLUMNS[column], `${name}=${value} on ${column}`).toBe('values' in match! ? 'text' : 'number');
          // The SQL side: a condition on the column.
          expect(compiler.selectFrom('vehicles').select('id').where(matchCondition(match!)).compile().sql).toContain(`"vehicles"."${column}"`);
          // The in-memory side: a car without the value is kept by no filter.
          expect(carMatches(match!, blankCar()), `${name}=${value} keeps a car without ${column}`).toBe(false);
        }
        expect(filter.match(filter.off), `${name} off keeps every car`).toBeNull();
      });

      it('is counted within a filter of the table', () => {
        const { facet } = FILTERS[name];
        if ('within' in facet && facet.within) expect(FILTER_NAMES).toContain(facet.within);
      });
    });
  }

  it('counts a number under one bucket at most: the buckets of each filter counted by bucket do not overlap', () => {
    for (const [name, buckets] of Object.entries(FACET_BUCKETS)) {
      const edges = buckets
        .flatMap(({ match }) => ('ranges' in match ? match.ranges.flatMap((range) => [range.min, range.max]) : []))
        .filter((edge): edge is number => edge !== null);
      const numbers = [...new Set(edges.flatMap((edge) => [edge - 1, edge, edge + 1, edge - 0.5]))];
      for (const number of numbers) {
        const holding = buckets.filter(({ match }) => carMatches(match, { ...blankCar(), [(match as Match).column]: number }));
        expect(holding.length, `${name} ${number}`).toBeLessThanOrEqual(1);
      }
      for (const bucket of buckets) expect(bucketMatch(name as (typeof FILTER_NAMES)[number], bucket.value)).toEqual(bucket.match);
    }
  });

  it('orders by every sort with a text, `newest` exactly as the index vehicles_for_sale_idx', () => {
    for (const sort of SORT_NAMES) {
      expect(sortLabel(sort)).not.toBe(SORTS[sort].labelKey);
      expect(compiler.selectFrom('vehicles').select('id').orderBy(sortOrder(sort)).compile().sql).toMatch(/"vehicles"\."id" DESC$/);
    }
    expect(compiler.selectFrom('vehicles').select('id').orderBy(sortOrder('newest')).compile().sql).toMatch(
      /order by "vehicles"\."featured" DESC, "vehicles"\."created_at" DESC, "vehicles"\."id" DESC$/,
    );
    expect(compiler.selectFrom('vehicles').select('id').orderBy(sortOrder('price_asc')).compile().sql).toMatch(
      /order by "vehicles"\."price_rupees" ASC NULLS LAST, "vehicles"\."id" DESC$/,
    );
  });
});
