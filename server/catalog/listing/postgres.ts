import { sql, type SqlBool } from 'kysely';
import type { Database } from '../../db/connection.ts';
import { sortOrder } from '../filters.ts';
import type { ListingTotals } from '../listing-totals.ts';
import { searchCondition } from '../search.ts';
import { countRows, keptKey, listingBase, one, type ListingQuery, type ListingStrategy } from './strategy.ts';

/**
 * PostgreSQL's listing. Without a search, the cars come from `vehicles` (the planner weighs
 * the order's index against a filter's by itself). A search is answered from vehicle_search
 * (migration 016): a narrow row per car for sale with the text and the order's columns, so
 * matching and sorting thousands of matches does not read their whole rows; a category or
 * filters narrow it through `vehicles`.
 */
export function postgresListing(database: Database, totals: ListingTotals): ListingStrategy {
  const fromVehicles = ({ options, filters }: ListingQuery) =>
    database.db.selectFrom('vehicles').where((eb) => eb.and([...listingBase(database, options), ...filters]));

  const searchRows = ({ options, terms, filters }: ListingQuery) => {
    const conditions = [searchCondition('postgres', terms, { table: 'vehicle_search' })!];
    if (options.categoryId !== undefined || filters.length > 0) {
      const narrowed = database.db
        .selectFrom('vehicles')
        .where((eb) => eb.and([...listingBase(database, { categoryId: options.categoryId }), ...filters]))
        .select('vehicles.id');
      conditions.push(sql<SqlBool>`vehicle_search.id IN (${narrowed})`);
    }
    return database.db.selectFrom('vehicle_search').where((eb) => eb.and(conditions));
  };

  /**
   * A search from vehicle_search: collect every match from the trigram index and sort them
   * (reading `matches` rows, each a random heap read), rather than walk the order's index and
   * check each car's text until the page is full (about depth × cars ÷ matches rows, read in
   * order). The planner prices that text check far below its cost and walks even for `creta`'s
   * last page (25,000 rows instead of 3,400); a collected row costs about two walked ones
   * (docs/decisions/040-search-side-table.md).
   */
  async function collectBeforeSorting({ depth, matches }: { depth: number; matches: number }): Promise<boolean> {
    // The table's size from the statistics, kept with the listing totals: not a query per search.
    const analysed = await totals.read('vehicle_search size', async () => {
      const { rows } = await sql<{ cars: number }>`SELECT reltuples AS cars FROM pg_class WHERE oid = 'vehicle_search'::regclass`.execute(database.db);
      return Number(rows[0]?.cars ?? 0);
    });
    // reltuples is -1 until the table is first analysed.
    const cars = Math.max(analysed, matches);
    return 2 * matches * matches <= depth * cars;
  }

  return {
    count(listing, cap) {
      const matching =
        listing.terms.length > 0 ? searchRows(listing).select(one).limit(cap).as('matches') : fromVehicles(listing).select(one).limit(cap).as('matches');
      return countRows(database, matching);
    },

    async pageIds(listing, { window, sort, matches, totalCapped }) {
      if (listing.terms.length === 0) {
        return fromVehicles(listing).select('vehicles.id').orderBy(sortOrder(sort)).limit(window.limit).offset(window.offset);
      }
      const collect = await collectBeforeSorting({
        depth: window.offset + window.limit,
        // Past the cap the count stops: the planner's estimate from pg_trgm's statistics stands in.
        matches: totalCapped
          ? await totals.read(keptKey('estimate', listing.options), () => plannedRows(searchRows(listing).select('vehicle_search.id')))
          : matches,
      });
      if (!collect) {
        return searchRows(listing).select('vehicle_search.id').orderBy(sortOrder(sort, 'vehicle_search')).limit(window.limit).offset(window.offset);
      }
      return database.db
        .with(
          (cte) => cte('matches').materialized(),
          () =>
            searchRows(listing).select([
              'vehicle_search.id',
              'vehicle_search.featured',
              'vehicle_search.created_at',
              'vehicle_search.price_rupees',
              'vehicle_search.model_year',
              'vehicle_search.odometer',
            ]),
        )
        .selectFrom('matches')
        .select('matches.id')
        .orderBy(sortOrder(sort, 'matches'))
        .limit(window.limit)
        .offset(window.offset);
    },
  };
}

/** The number of rows PostgreSQL's planner expects `query` to return (EXPLAIN, nothing run). */
async function plannedRows(query: { explain: (format: 'json') => Promise<unknown[]> }): Promise<number> {
  const [row] = (await query.explain('json')) as Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>;
  return row?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
}
