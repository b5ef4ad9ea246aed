import { sql, type SqlBool } from 'kysely';
import { hasControlCharacters } from '../../../app/lib/input.ts';
import type { Database } from '../../db/connection.ts';
import { sortOrder } from '../filters.ts';
import { ftsMatch } from '../search.ts';
import { countRows, listingBase, one, type ListingQuery, type ListingStrategy } from './strategy.ts';

/**
 * SQLite, many matches: a page ending within this many matches walks the listing's order and
 * checks each car's text, reading about (this many ÷ the share of cars matching) rows; a deeper
 * page asks the search index for the matches first (docs/decisions/033-search-at-100k.md).
 */
const CHECK_EACH_ROW_DEPTH = 50;

/**
 * SQLite's listing: the cars from `vehicles` with the search answered by the FTS5 trigram
 * index. Past the count's cap it walks the listing's order index and stops after the page
 * rather than collect and sort every match (docs/decisions/028-listing-at-scale.md).
 */
export function sqliteListing(database: Database): ListingStrategy {
  /**
   * The listing's conditions. Walking in order, SQLite must not start from a filter's index
   * either: `+(…)` keeps a condition a check on each row.
   */
  const where = ({ options, filters }: ListingQuery, walkInOrder: boolean, checkEachRow = false) => [
    ...listingBase(database, options, { walkInOrder, checkEachRow }),
    ...(walkInOrder ? filters.map((condition) => sql<SqlBool>`+(${condition})`) : filters),
  ];

  return {
    count(listing, cap) {
      const { options, terms, filters } = listing;
      // A plain search is counted in its index alone, which holds exactly the vehicles for sale.
      const indexOnly =
        options.categoryId === undefined &&
        filters.length === 0 &&
        terms.length > 0 &&
        terms.every((term) => term.length >= 3 && !hasControlCharacters(term, { layout: false }));
      // Counted without the category join (every vehicle has a category, and the join would make
      // the database read whole rows instead of the index).
      const matching = indexOnly
        ? database.db
            .selectFrom(sql`vehicles_fts`.as('vehicles_fts'))
            .where(sql<SqlBool>`vehicles_fts MATCH ${ftsMatch(terms)}`)
            .select(one)
            .limit(cap)
            .as('matches')
        : database.db
            .selectFrom('vehicles')
            .where((eb) => eb.and(where(listing, false)))
            .select(one)
            .limit(cap)
            .as('matches');
      return countRows(database, matching);
    },

    async pageIds(listing, { window, sort, totalCapped }) {
      // Many matches: walk the order's index and stop after the page; few: read them and sort.
      const checkEachRow = totalCapped && window.offset + window.limit <= CHECK_EACH_ROW_DEPTH;
      return database.db
        .selectFrom('vehicles')
        .where((eb) => eb.and(where(listing, totalCapped, checkEachRow)))
        .select('vehicles.id')
        .orderBy(sortOrder(sort))
        .limit(window.limit)
        .offset(window.offset);
    },
  };
}
