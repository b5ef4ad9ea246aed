import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import {
  FACET_BUCKETS,
  FILTER_COLUMNS,
  FILTER_NAMES,
  FILTERS,
  SORTS,
  filterMatches,
  offered,
  type FacetOption,
  type Facets,
  type FilterColumn,
  type FilterName,
  type ListingFilters,
  type Match,
  type Sort,
  type SortColumn,
} from '../../app/lib/listing-filters/catalogue.ts';
import { registrationState } from '../../app/lib/listing-filters/registration.ts';
import { dateLocale } from '../../app/lib/format.ts';
import { browseText as t } from '../../app/lib/i18n/browse.ts';
import { slugify } from '../../app/lib/slug.ts';
import { column } from '../db/columns.ts';
import type { DB } from '../db/schema.ts';
import { fuelKey, modelYear, ownerCount, transmissionKey } from './dealer-text.ts';
import type { Database } from '../db/connection.ts';

/**
 * The buyer's filters and sorts as SQL (decision 023): each filter's Match and each sort's keys
 * of the table app/lib/listing-filters/catalogue.ts read as conditions and orders on
 * `vehicles`. Every filter is a condition on one column that filterColumns fills from what the
 * dealer typed, so both databases compare plain values and an index on the column can serve it.
 */

/** The filter columns of a vehicle, read from what the dealer typed (kept in step on every save). */
export function filterColumns(input: {
  make: string;
  model: string;
  year: string;
  fuelType: string;
  transmission: string;
  owners: string;
  registration: string;
}) {
  return {
    make_slug: slugify(input.make),
    model_slug: slugify(input.model),
    model_year: modelYear(input.year),
    fuel_key: fuelKey(input.fuelType) ?? '',
    transmission_key: transmissionKey(input.transmission) ?? '',
    owner_count: ownerCount(input.owners),
    registration_state: registrationState(input.registration),
  };
}

// The table's filter columns are columns of `vehicles`, and its sort columns are copied to
// vehicle_search (typechecked here, where the database's types are known).
const _filterColumns: ReadonlyArray<keyof DB['vehicles']> = Object.keys(FILTER_COLUMNS) as FilterColumn[];
const _sortColumns: ReadonlyArray<keyof DB['vehicle_search'] & keyof DB['vehicles']> = [] as SortColumn[];

const col = (name: FilterColumn) => column('vehicles', name);

/**
 * The SQL condition of a Match: `column` within one of the ranges ([min, max), either end
 * open) or among the values; NULL is in none.
 */
export function matchCondition(match: Match): RawBuilder<SqlBool> {
  if ('values' in match) return sql<SqlBool>`${col(match.column)} IN (${sql.join(match.values)})`;
  const each = match.ranges.map((range) => {
    const parts: RawBuilder<SqlBool>[] = [];
    if (range.min !== null) parts.push(sql<SqlBool>`${col(match.column)} >= ${range.min}`);
    if (range.max !== null) parts.push(sql<SqlBool>`${col(match.column)} < ${range.max}`);
    return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
  });
  return sql<SqlBool>`(${sql.join(each, sql` OR `)})`;
}

/** The condition of each filter that is on (a filter with no values is absent). */
export function filterConditions(filters: ListingFilters): Partial<Record<FilterName, RawBuilder<SqlBool>>> {
  return Object.fromEntries(Object.entries(filterMatches(filters)).map(([name, match]) => [name, matchCondition(match)]));
}

/**
 * The listing's order (catalogue.ts SORTS), ties broken newest id first so pages never overlap.
 * `table`: where the columns are read: vehicles, PostgreSQL's vehicle_search (which copies
 * them) or the matches collected from it (server/catalog/vehicles.ts).
 */
export function sortOrder(sort: Sort, table: 'vehicles' | 'vehicle_search' | 'matches' = 'vehicles'): RawBuilder<unknown> {
  const keys = SORTS[sort].keys;
  const terms = keys.map(
    (key) => sql`${sql.ref(`${table}.${key.column}`)} ${sql.raw(key.direction === 'asc' ? 'ASC' : 'DESC')}${sql.raw('nullsLast' in key ? ' NULLS LAST' : '')}`,
  );
  return sql`${sql.join([...terms, sql`${sql.ref(`${table}.id`)} DESC`])}`;
}

// ---------------------------------------------------------------- facet counts

/**
 * The columns of the `candidates` CTE each filter's counts group by: `<filter>_value` (a
 * bucket's value, or the column's value as text) and `<filter>_label` when its options are
 * named by a column. The in-memory index groups by the same (catalogue-index.ts).
 */
const valueOf = (name: FilterName) => sql.ref(`${name}_value`);
const labelOf = (name: FilterName) => sql.ref(`${name}_label`);

/** What a car is counted under for filter `name`, as SQL: its first bucket that keeps it (NULL: none), or its column's value. */
function facetValue(name: FilterName): RawBuilder<unknown> {
  const { facet } = FILTERS[name];
  if (facet.by === 'bucket') {
    const whens = FACET_BUCKETS[name]!.map((bucket) => sql`WHEN ${matchCondition(bucket.match)} THEN ${sql.lit(bucket.value)}`);
    return sql`CASE ${sql.join(whens, sql` `)} END`;
  }
  return FILTER_COLUMNS[facet.by] === 'number' ? sql`CAST(${col(facet.by)} AS TEXT)` : col(facet.by);
}

export type FacetRow = { facet: FilterName; value: string | null; parent: string; label: string; count: number | string };

/**
 * How many cars each option of each filter would give with the other filters as they are (an
 * option's own filter left out, so choosing a second fuel shows what it adds), in one query:
 * the `candidates` CTE reads the cars that pass the search, the category and all filters but
 * at most one, noting which filters each passes; each facet then counts the candidates that
 * pass every filter but its own, grouped by its column. The CTE is MATERIALIZED: read once
 * into a narrow table, rather than the whole rows of `vehicles` scanned again for each of the
 * eleven facets (SQLite inlines a CTE unless told; at 100,000 cars the home listing's counts
 * took 4 s that way, 0.67 s materialized, decision 042).
 */
export async function listingFacetRows(database: Database, options: { base: Expression<SqlBool>[]; filters: ListingFilters }): Promise<FacetRow[]> {
  const conditions = filterConditions(options.filters);
  const active = FILTER_NAMES.filter((name) => conditions[name] !== undefined);
  const flag = (name: FilterName) => sql.ref(`passes_${name}`);
  const flags = active.map((name) => sql`CASE WHEN ${conditions[name]!} THEN 1 ELSE 0 END AS ${flag(name)}`);
  const where: Expression<SqlBool>[] = [...options.base];
  if (active.length > 1) {
    // A car failing two filters is counted by no facet.
    const passed = active.map((name) => sql`CASE WHEN ${conditions[name]!} THEN 1 ELSE 0 END`);
    where.push(sql<SqlBool>`(${sql.join(passed, sql` + `)}) >= ${sql.lit(active.length - 1)}`);
  }
  const grouped = FILTER_NAMES.flatMap((name) => {
    const { facet } = FILTERS[name];
    return [sql`${facetValue(name)} AS ${valueOf(name)}`, ...('label' in facet && facet.label ? [sql`${col(facet.label)} AS ${labelOf(name)}`] : [])];
  });
  const candidates = sql`SELECT
      ${sql.join([...grouped, ...flags])}
    FROM vehicles
    WHERE ${where.length > 0 ? sql.join(where, sql` AND `) : sql`1 = 1`}`;

  const facets = FILTER_NAMES.filter((name) => offered(name, options.filters));
  const selects = facets.map((name) => {
    const others = active.filter((other) => other !== name).map((other) => sql`${flag(other)} = 1`);
    const { facet } = FILTERS[name];
    const parent = 'within' in facet && facet.within ? valueOf(facet.within) : null;
    const label = 'label' in facet && facet.label ? labelOf(name) : null;
    const groupBy = parent ? sql`${valueOf(name)}, ${parent}` : valueOf(name);
    return sql`SELECT ${sql.lit(name)} AS facet, ${valueOf(name)} AS value, ${parent ?? sql.lit('')} AS parent,
        ${label ? sql`MIN(${label})` : sql.lit('')} AS label, COUNT(*) AS count
      FROM candidates
      ${others.length > 0 ? sql`WHERE ${sql.join(others, sql` AND `)}` : sql``}
      GROUP BY ${groupBy}`;
  });
  const { rows } = await sql<FacetRow>`WITH candidates AS MATERIALIZED (${candidates}) ${sql.join(selects, sql` UNION ALL `)}`.execute(database.db);
  return rows;
}

/**
 * The options of each filter from the grouped counts, as its entry of the table says (buckets
 * in their order, the cars' own values by name, models within makes, model years "or newer").
 * Labelled in the language of the request (the counts are kept for every language; the labels are not).
 */
export function facetsFrom(rows: FacetRow[], filters: ListingFilters): Facets {
  const counted = new Map<FilterName, Map<string, { count: number; label: string; parent: string }>>();
  for (const row of rows) {
    if (row.value === null || row.value === '') continue;
    const facet = counted.get(row.facet) ?? new Map();
    const key = 'within' in FILTERS[row.facet].facet ? `${row.parent}/${row.value}` : row.value;
    const before = facet.get(key);
    facet.set(key, { count: (before?.count ?? 0) + Number(row.count), label: before?.label || row.label, parent: row.parent });
    counted.set(row.facet, facet);
  }
  const countOf = (name: FilterName, value: string) => counted.get(name)?.get(value)?.count ?? 0;
  const locale = dateLocale();
  const byLabel = (a: FacetOption, b: FacetOption) => a.label.localeCompare(b.label, locale);

  const optionsOf = (name: FilterName): FacetOption[] => {
    const { options, buckets, facet } = FILTERS[name];
    switch (options.from) {
      case 'buckets':
        return buckets.map((bucket) => ({ value: bucket.value, label: t(bucket.labelKey), count: countOf(name, bucket.value) }));
      case 'cars': {
        // Options present among the cars (or chosen), by name for people to scan.
        const chosen = filters[name] as readonly string[];
        const values = new Set([...(counted.get(name)?.keys() ?? []), ...chosen]);
        return [...values]
          .filter((value) => !options.only || options.only(value))
          .map((value) => ({ value, label: options.label(value, counted.get(name)?.get(value)?.label ?? ''), count: countOf(name, value) }))
          .sort(byLabel);
      }
      case 'within': {
        // Named with the value it is within ('Maruti Suzuki Swift').
        const parents = 'within' in facet && facet.within ? counted.get(facet.within) : undefined;
        return [...(counted.get(name)?.entries() ?? [])]
          .map(([key, entry]) => ({
            value: key.slice(key.indexOf('/') + 1),
            label: `${parents?.get(entry.parent)?.label ?? ''} ${entry.label}`.trim(),
            count: entry.count,
          }))
          .sort(byLabel);
      }
      case 'orNewer': {
        // "2019 or newer" for each model year among the cars, counting every newer one too.
        const years = [...(counted.get(name)?.entries() ?? [])]
          .map(([year, entry]) => ({ year: Number(year), count: entry.count }))
          .sort((a, b) => b.year - a.year);
        let running = 0;
        return years.map(({ year, count }) => {
          running += count;
          return { value: `${year}-`, label: t('yearOrNewer', { year }), count: running };
        });
      }
    }
  };
  return Object.fromEntries(FILTER_NAMES.map((name) => [name, optionsOf(name)])) as Facets;
}
