import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import {
  BUDGET_BUCKETS,
  COLOURS,
  FILTER_NAMES,
  FUELS,
  KM_BUCKETS,
  OWNER_OPTIONS,
  TRANSMISSION_KEYS,
  bodyTypeLabel,
  budgetLabel,
  colourLabel,
  fuelLabel,
  kmLabel,
  ownerLabel,
  transmissionLabel,
  type FacetOption,
  type Facets,
  type FilterName,
  type ListingFilters,
  type NumberRange,
  type Sort,
} from '../../app/lib/listing-filters/options.ts';
import { registrationState, stateName } from '../../app/lib/listing-filters/registration.ts';
import { dateLocale } from '../../app/lib/format.ts';
import { browseText as t } from '../../app/lib/i18n/browse.ts';
import { slugify } from '../../app/lib/slug.ts';
import { column } from '../db/columns.ts';
import type { DB } from '../db/schema.ts';
import { fuelKey, modelYear, ownerCount, transmissionKey } from './dealer-text.ts';
import type { Database } from '../db/connection.ts';

/**
 * The buyer's filters and sort as SQL (decision 023). Every filter is a condition on one
 * column of `vehicles` that filterColumns fills from what the dealer typed, so both databases
 * compare plain values and an index on the column can serve it.
 */

/** The filter columns of a vehicle, read from what the dealer typed (kept in step on every save). */
export function filterColumns(input: { make: string; model: string; year: string; fuelType: string; transmission: string; owners: string; registration: string }) {
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

/** `column` within one of `ranges` ([min, max), either end open); NULL is in none. */
function inRanges(column: RawBuilder<unknown>, ranges: NumberRange[]): RawBuilder<SqlBool> {
  const each = ranges.map((range) => {
    const parts: RawBuilder<SqlBool>[] = [];
    if (range.min !== null) parts.push(sql<SqlBool>`${column} >= ${range.min}`);
    if (range.max !== null) parts.push(sql<SqlBool>`${column} < ${range.max}`);
    return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
  });
  return sql<SqlBool>`(${sql.join(each, sql` OR `)})`;
}

function inList(column: RawBuilder<unknown>, values: ReadonlyArray<string | number>): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} IN (${sql.join(values)})`;
}

const col = <Name extends keyof DB['vehicles'] & string>(name: Name) => column('vehicles', name);

/** The condition of each filter that is on (a filter with no values is absent). */
export function filterConditions(filters: ListingFilters): Partial<Record<FilterName, RawBuilder<SqlBool>>> {
  const conditions: Partial<Record<FilterName, RawBuilder<SqlBool>>> = {};
  if (filters.budget.length > 0) conditions.budget = inRanges(col('price_rupees'), filters.budget);
  if (filters.make.length > 0) conditions.make = inList(col('make_slug'), filters.make);
  if (filters.model.length > 0) conditions.model = inList(col('model_slug'), filters.model);
  if (filters.fuel.length > 0) conditions.fuel = inList(col('fuel_key'), filters.fuel);
  if (filters.trans.length > 0) conditions.trans = inList(col('transmission_key'), filters.trans);
  if (filters.body.length > 0) conditions.body = inList(col('body_type'), filters.body);
  if (filters.year) {
    // Both ends of a year range are included: 2015-2019 is five model years.
    const { min, max } = filters.year;
    conditions.year = inRanges(col('model_year'), [{ min, max: max === null ? null : max + 1 }]);
  }
  if (filters.km.length > 0) conditions.km = inRanges(col('odometer'), filters.km);
  if (filters.owners.length > 0) {
    // 3 means three or more.
    const exact = filters.owners.filter((owners) => owners < 3);
    const parts: RawBuilder<SqlBool>[] = [];
    if (exact.length > 0) parts.push(inList(col('owner_count'), exact));
    if (filters.owners.includes(3)) parts.push(sql<SqlBool>`${col('owner_count')} >= 3`);
    conditions.owners = sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
  }
  if (filters.color.length > 0) conditions.color = inList(col('colour'), filters.color);
  if (filters.state.length > 0) conditions.state = inList(col('registration_state'), filters.state);
  return conditions;
}

/**
 * The listing's order. `newest` is the order of the partial index vehicles_for_sale_idx
 * (featured first, then newest); the others put cars without the value (a price in words, no
 * odometer reading) last, and break ties newest first so pages never overlap. `table`: where
 * the columns are read: vehicles, PostgreSQL's vehicle_search (which copies them) or the
 * matches collected from it (server/catalog/vehicles.ts).
 */
export function sortOrder(sort: Sort, table: 'vehicles' | 'vehicle_search' | 'matches' = 'vehicles'): RawBuilder<unknown> {
  // `matches` holds columns of vehicle_search, which holds the order's columns of vehicles.
  const column = (name: keyof DB['vehicle_search'] & keyof DB['vehicles']) => sql.ref(`${table}.${name}`);
  switch (sort) {
    case 'newest':
      return sql`${column('featured')} DESC, ${column('created_at')} DESC, ${column('id')} DESC`;
    case 'price_asc':
      return sql`${column('price_rupees')} ASC NULLS LAST, ${column('id')} DESC`;
    case 'price_desc':
      return sql`${column('price_rupees')} DESC NULLS LAST, ${column('id')} DESC`;
    case 'year_desc':
      return sql`${column('model_year')} DESC NULLS LAST, ${column('id')} DESC`;
    case 'km_asc':
      return sql`${column('odometer')} ASC NULLS LAST, ${column('id')} DESC`;
  }
}

// ---------------------------------------------------------------- facet counts

/** Lakh and km buckets as CASE expressions: each car falls in one bucket (or none: NULL). */
function bucketCase(column: RawBuilder<unknown>, buckets: ReadonlyArray<{ value: string }>, scale: number): RawBuilder<string> {
  const whens = buckets.map((bucket) => {
    const [, max] = bucket.value.split('-');
    return max ? sql`WHEN ${column} < ${sql.lit(Math.round(Number(max) * scale))} THEN ${sql.lit(bucket.value)}` : sql`ELSE ${sql.lit(bucket.value)}`;
  });
  return sql<string>`CASE WHEN ${column} IS NULL THEN NULL ${sql.join(whens, sql` `)} END`;
}

/** The columns of `vehicles` the `candidates` CTE copies as they are. */
export const CANDIDATE_VEHICLE_COLUMNS = ['make', 'model', 'make_slug', 'model_slug', 'fuel_key', 'transmission_key', 'body_type', 'colour', 'registration_state'] as const satisfies ReadonlyArray<keyof DB['vehicles']>;
export type CandidateColumn = (typeof CANDIDATE_VEHICLE_COLUMNS)[number] | 'budget_bucket' | 'km_bucket' | 'model_year_text' | 'owner_bucket';

/** What each facet groups the candidates by, as columns of the `candidates` CTE. */
export const FACET_VALUES: Record<FilterName, { value: CandidateColumn; parent?: CandidateColumn; label?: CandidateColumn }> = {
  budget: { value: 'budget_bucket' },
  make: { value: 'make_slug', label: 'make' },
  model: { value: 'model_slug', parent: 'make_slug', label: 'model' },
  fuel: { value: 'fuel_key' },
  trans: { value: 'transmission_key' },
  body: { value: 'body_type' },
  year: { value: 'model_year_text' },
  km: { value: 'km_bucket' },
  owners: { value: 'owner_bucket' },
  color: { value: 'colour' },
  state: { value: 'registration_state' },
};

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
export async function listingFacetRows(
  database: Database,
  options: { base: Expression<SqlBool>[]; filters: ListingFilters },
): Promise<FacetRow[]> {
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
  const candidates = sql`SELECT
      ${bucketCase(col('price_rupees'), BUDGET_BUCKETS, 100_000)} AS budget_bucket,
      ${bucketCase(col('odometer'), KM_BUCKETS, 1)} AS km_bucket,
      CAST(${col('model_year')} AS TEXT) AS model_year_text,
      CASE WHEN ${col('owner_count')} >= 3 THEN '3' ELSE CAST(${col('owner_count')} AS TEXT) END AS owner_bucket,
      ${sql.join(CANDIDATE_VEHICLE_COLUMNS.map((name) => col(name)))}
      ${flags.length > 0 ? sql`, ${sql.join(flags)}` : sql``}
    FROM vehicles
    WHERE ${where.length > 0 ? sql.join(where, sql` AND `) : sql`1 = 1`}`;

  // Models are offered within the chosen makes only.
  const facets = FILTER_NAMES.filter((name) => name !== 'model' || options.filters.make.length > 0);
  const selects = facets.map((name) => {
    const others = active.filter((other) => other !== name).map((other) => sql`${flag(other)} = 1`);
    const { value, parent, label } = FACET_VALUES[name];
    const groupBy = parent ? sql`${sql.ref(value)}, ${sql.ref(parent)}` : sql.ref(value);
    return sql`SELECT ${sql.lit(name)} AS facet, ${sql.ref(value)} AS value, ${parent ? sql.ref(parent) : sql.lit('')} AS parent,
        ${label ? sql`MIN(${sql.ref(label)})` : sql.lit('')} AS label, COUNT(*) AS count
      FROM candidates
      ${others.length > 0 ? sql`WHERE ${sql.join(others, sql` AND `)}` : sql``}
      GROUP BY ${groupBy}`;
  });
  const { rows } = await sql<FacetRow>`WITH candidates AS MATERIALIZED (${candidates}) ${sql.join(selects, sql` UNION ALL `)}`.execute(database.db);
  return rows;
}

/**
 * The options of each filter from the grouped counts: fixed lists in their order, the rest by name.
 * Labelled in the language of the request (the counts are kept for every language; the labels are not).
 */
export function facetsFrom(rows: FacetRow[], filters: ListingFilters): Facets {
  const counted = new Map<FilterName, Map<string, { count: number; label: string; parent: string }>>();
  for (const row of rows) {
    if (row.value === null || row.value === '') continue;
    const facet = counted.get(row.facet) ?? new Map();
    const key = row.facet === 'model' ? `${row.parent}/${row.value}` : row.value;
    const before = facet.get(key);
    facet.set(key, { count: (before?.count ?? 0) + Number(row.count), label: before?.label || row.label, parent: row.parent });
    counted.set(row.facet, facet);
  }
  const countOf = (name: FilterName, value: string) => counted.get(name)?.get(value)?.count ?? 0;
  const fixed = (name: FilterName, values: readonly string[], labelOf: (value: string) => string | null): FacetOption[] =>
    values.map((value) => ({ value, label: labelOf(value) ?? value, count: countOf(name, value) }));
  const locale = dateLocale();
  /** Options present among the cars (or chosen), by name for people to scan. */
  const present = (name: FilterName, labelOf: (value: string) => string, chosen: readonly string[]): FacetOption[] => {
    const values = new Set([...(counted.get(name)?.keys() ?? []), ...chosen]);
    return [...values]
      .map((value) => ({ value, label: labelOf(value), count: countOf(name, value) }))
      .sort((a, b) => a.label.localeCompare(b.label, locale));
  };

  const makes = counted.get('make');
  const models: FacetOption[] = [...(counted.get('model')?.entries() ?? [])]
    .map(([key, entry]) => ({ value: key.slice(key.indexOf('/') + 1), label: `${makes?.get(entry.parent)?.label ?? ''} ${entry.label}`.trim(), count: entry.count }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
  // Years: "2019 or newer" for each model year among the cars, counting every newer one too.
  const years = [...(counted.get('year')?.entries() ?? [])].map(([year, entry]) => ({ year: Number(year), count: entry.count })).sort((a, b) => b.year - a.year);
  let running = 0;
  const yearOptions = years.map(({ year, count }) => {
    running += count;
    return { value: `${year}-`, label: t('yearOrNewer', { year }), count: running };
  });

  return {
    budget: fixed('budget', BUDGET_BUCKETS.map((bucket) => bucket.value), budgetLabel),
    make: present('make', (value) => makes?.get(value)?.label || value, filters.make),
    model: models,
    fuel: fixed('fuel', Object.keys(FUELS), fuelLabel),
    trans: fixed('trans', Object.keys(TRANSMISSION_KEYS), transmissionLabel),
    body: present('body', bodyTypeLabel, filters.body),
    year: yearOptions,
    km: fixed('km', KM_BUCKETS.map((bucket) => bucket.value), kmLabel),
    owners: fixed('owners', Object.keys(OWNER_OPTIONS), ownerLabel),
    color: present('color', colourLabel, filters.color).filter((option) => option.value in COLOURS),
    state: present('state', (value) => t('stateOption', { name: stateName(value), code: value }), filters.state),
  };
}
