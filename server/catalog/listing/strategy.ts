import { sql, type AliasedSelectQueryBuilder, type Expression, type OperandExpression, type SqlBool } from 'kysely';
import type { Sort } from '../../../app/lib/listing-filters/catalogue.ts';
import type { Database } from '../../db/connection.ts';
import type { PageWindow } from '../../db/paging.ts';
import type { ListingOptions } from '../listing.ts';
import { searchCondition, searchTerms } from '../search.ts';
import { listedSql } from '../public-status.ts';

/**
 * How one database finds a listing's cars (server/catalog/listing.ts picks one when it is
 * built): SQLite's in sqlite.ts, PostgreSQL's in postgres.ts. Both answer the same listing with
 * the same cars in the same order; they differ in which index they start from.
 */
export type ListingStrategy = {
  /** The listing's matches, counted up to `cap` (past it the listing says "1,000+"). */
  count(listing: ListingQuery, cap: number): Promise<number>;
  /** The ids of one page's cars in the listing's order, as a subquery for the page's rows. */
  pageIds(listing: ListingQuery, page: ListingWindow): Promise<OperandExpression<number>>;
};

/** A listing as both strategies read it. */
export type ListingQuery = {
  options: Pick<ListingOptions, 'query' | 'categoryId' | 'filters'>;
  /** The search's words (search.ts searchTerms); none without a search. */
  terms: string[];
  /** One condition on `vehicles` per filter that is on (filters.ts filterConditions). */
  filters: Expression<SqlBool>[];
};

export type ListingWindow = {
  window: PageWindow;
  sort: Sort;
  /** The count of matches, which stops past the cap. */
  matches: number;
  /** There are more matches than the listing counts. */
  totalCapped: boolean;
};

/**
 * What every listing starts from: cars for sale, in the category, matching the search. The
 * options `walkInOrder` and `checkEachRow` are SQLite's (search.ts searchCondition).
 */
export function listingBase(
  database: Database,
  options: Pick<ListingOptions, 'query' | 'categoryId'>,
  walk: { walkInOrder?: boolean; checkEachRow?: boolean } = {},
): Expression<SqlBool>[] {
  // The public rule (public-status.ts), written as the partial index vehicles_for_sale_idx says it.
  const base: Expression<SqlBool>[] = [listedSql];
  // The rental fleet is never sale stock (docs/decisions/020): it has its own pages under /rent.
  base.push(sql<SqlBool>`vehicles.purpose = 'sale'`);
  if (options.categoryId !== undefined) base.push(sql<SqlBool>`vehicles.category_id = ${options.categoryId}`);
  const condition = searchCondition(database.dialect, searchTerms(options.query ?? ''), walk);
  if (condition) base.push(condition);
  return base;
}

/**
 * The cars whose make or model holds every one of `words` (lower-case letters and digits: a
 * corrected search's catalogue words, decision 079), which such a search lists first. The
 * in-memory index marks the same cars (catalogue-index.ts titleMarks).
 */
export function titleHolds(words: string[]): Expression<SqlBool> {
  const each = words.map((word) => sql<SqlBool>`(lower(vehicles.make) LIKE ${`%${word}%`} OR lower(vehicles.model) LIKE ${`%${word}%`})`);
  return sql<SqlBool>`(${sql.join(each, sql` AND `)})`;
}

/**
 * The key a listing's kept figures are filed under (`kind`: its count of matches, the planner's
 * estimate past the cap, its filter counts): the sort and the page do not change them.
 */
export function keptKey(kind: 'count' | 'estimate' | 'facets', options: Pick<ListingOptions, 'query' | 'categoryId' | 'filters'>): string {
  return JSON.stringify([kind, searchTerms(options.query ?? ''), options.categoryId ?? null, options.filters ?? null]);
}

/** The rows of `matching` (each source as `SELECT 1 … LIMIT cap`, so the count stops at the cap), counted around it. */
export async function countRows(database: Database, matching: AliasedSelectQueryBuilder<{ one: unknown }, 'matches'>): Promise<number> {
  const counted = await database.db
    .selectFrom(matching)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirst();
  return Number(counted?.count ?? 0);
}

/** The selection of countRows' sources. */
export const one = sql`1`.as('one');
