/**
 * The buyer's filters and sorts on the listing (home, category pages and GET /api/v1/vehicles),
 * each described once (decision 023, docs/decisions/108-listing-filters-described-once.md):
 * its URL parameter, how it is read, written and shown, its buckets and their texts, and the
 * cars it keeps. Everything else is derived from FILTERS and SORTS: the listing schema and the
 * page cache's parameters (../schemas/listing.ts), the URL and chips (url.ts), the filter panel
 * (../listing-view.ts), the SQL conditions, counts and orders (server/catalog/filters.ts) and
 * the in-memory index's tests and orders (server/catalog/catalogue-index.ts).
 *
 * Adding a filter is one entry here (and its texts): tests/unit/listing-catalogue.test.ts and
 * tests/integration/listing-catalogue.test.ts walk the table, so a filter whose SQL and
 * in-memory sides disagree on a car fails there.
 *
 * Values within one filter are ORed, different filters ANDed, and all of them ANDed with `q`.
 * Shared with the browser: no server code, no SQL; a filter's cars are described as a Match,
 * data both the database and the in-memory index read. It builds the filters' readers when it
 * is loaded, so a module a page's script imports does not import it: the listing's view is
 * worked out by the loaders (../listing-view.ts).
 */
import { z } from 'zod';
import { browseText as t } from '../i18n/browse.ts';
import { isSlug } from '../slug.ts';
import {
  BODY_TYPES,
  COLOURS,
  FUELS,
  TRANSMISSION_KEYS,
  bodyTypeLabel,
  colourLabel,
  fuelLabel,
  transmissionLabel,
  type BodyType,
  type Colour,
  type Fuel,
  type TransmissionKey,
} from './options.ts';
import { forgivingList, forgivingSingle, keyOf, type Forgiven } from './params.ts';
import { REGISTRATION_STATES, stateName } from './registration.ts';

/** A text of the browse namespace, by its key. */
type TextKey = Parameters<typeof t>[0];

/** Budgets are written in lakh (₹1,00,000) in URLs and chips. */
const LAKH = 100_000;

/** A range of numbers, [min, max): either end open (null). */
export type NumberRange = { min: number | null; max: number | null };

/**
 * The columns of `vehicles` the filters read, by kind: each filled from what the dealer typed
 * when a car is saved (server/catalog/filters.ts filterColumns), so both databases and the
 * in-memory index compare plain values.
 */
export const FILTER_COLUMNS = {
  price_rupees: 'number',
  odometer: 'number',
  model_year: 'number',
  owner_count: 'number',
  make_slug: 'text',
  model_slug: 'text',
  fuel_key: 'text',
  transmission_key: 'text',
  body_type: 'text',
  colour: 'text',
  registration_state: 'text',
  // The names as the dealer wrote them: the make and model options' labels.
  make: 'text',
  model: 'text',
} as const;
export type FilterColumn = keyof typeof FILTER_COLUMNS;
export type NumberColumn = { [Column in FilterColumn]: (typeof FILTER_COLUMNS)[Column] extends 'number' ? Column : never }[FilterColumn];
export type TextColumn = Exclude<FilterColumn, NumberColumn>;

/**
 * The cars a filter keeps: a number column within one of the ranges ([min, max)), or a text
 * column equal to one of the values. A car without the value (NULL) is kept by none.
 */
export type Match = { column: NumberColumn; ranges: readonly NumberRange[] } | { column: TextColumn; values: readonly string[] };

/** A car as the filters see it: its filter columns (null for NULL). */
export type FilterCar = { [Column in NumberColumn]: number | null } & { [Column in TextColumn]: string | null };

/** Whether `value` (null or NaN for NULL) is in one of the ranges. */
export function inRanges(value: number | null, ranges: readonly NumberRange[]): boolean {
  if (value === null || Number.isNaN(value)) return false;
  return ranges.some((range) => (range.min === null || value >= range.min) && (range.max === null || value < range.max));
}

/** The in-memory predicate of a Match: whether it keeps `car`. */
export function carMatches(match: Match, car: FilterCar): boolean {
  if ('values' in match) {
    const value = car[match.column];
    return value !== null && match.values.includes(value);
  }
  return inRanges(car[match.column], match.ranges);
}

/** One of a filter's fixed options: its value as the URL writes it, and its text's key. */
export type Bucket = { value: string; labelKey: TextKey };

/** The makes' and models' names among the cars, for their chips (slug → name). */
export type ChipNames = { make?: Record<string, string>; model?: Record<string, string> };

/**
 * How the filter panel offers a filter's options, from the counted cars: `buckets`, its fixed
 * buckets in their order; `cars`, the values the cars have (and the chosen ones), by name;
 * `within`, as `cars` but within the chosen values of another filter (models of the chosen
 * makes); `orNewer`, a choice per model year counting every newer year too.
 */
export type OptionsRule =
  | { from: 'buckets' }
  | { from: 'cars'; label: (value: string, named: string) => string; only?: (value: string) => boolean }
  | { from: 'within' }
  | { from: 'orNewer' };

/**
 * What a car is counted under for the filter's option counts: the first of the filter's buckets
 * that keeps it, or a column's value (a number column's as text), optionally per value of
 * another filter (`within`) and named by a `label` column.
 */
export type FacetRule = { by: 'bucket' } | { by: FilterColumn; within?: WithinName; label?: TextColumn };
/** The filter another is counted within (a name of FILTERS; declared apart, since FILTERS's type is read from its entries). */
type WithinName = 'make';

export type FilterDescription<Value> = {
  /** The filter's name in the form, the API's facets and the texts; the entry's key is its URL parameter. */
  labelKey: TextKey;
  /** Reads its URL parameter (the zod piece of the listing schema): never refuses, names what it dropped. */
  read: z.ZodType<Forgiven<Value>, string | string[] | undefined>;
  /** The filter when off. A list filter takes several values (checkboxes); the others one (a radio group). */
  off: Value;
  /** Its values as its URL parameter writes them, one per chip; none when off. */
  write(value: Value): string[];
  /** The cars it keeps; null when off. */
  match(value: Value): Match | null;
  /** Its fixed options, in the order the panel shows them (none when the options come from the cars). */
  buckets: readonly Bucket[];
  options: OptionsRule;
  facet: FacetRule;
  /** A chip's text for one value as written. */
  chip(value: string, names: ChipNames): string;
};

function described<Value>(description: FilterDescription<Value>): FilterDescription<Value> {
  return description;
}

/**
 * Buckets whose text keys are `${prefix}_${value}`, each checked to be a text of the namespace.
 */
function bucketsOf<const Values extends readonly string[], const Prefix extends string>(
  prefix: Prefix,
  values: Values & ([`${Prefix}_${Values[number]}`] extends [TextKey] ? unknown : never),
): Bucket[] {
  return values.map((value) => ({ value, labelKey: `${prefix}_${value}` as TextKey }));
}

/**
 * 'a-b', 'a-' or '-b', where a and b are numbers as `number` matches, multiplied by `scale`;
 * a before b. Whole rupees, kilometres and years stay within a 32-bit integer's reach.
 */
function rangeOf(number: string, scale: number) {
  return z
    .string()
    .regex(new RegExp(`^(?:${number})?-(?:${number})?$`))
    .refine((text) => text !== '-')
    .transform((text): NumberRange => {
      const [low = '', high = ''] = text.split('-');
      return { min: low ? Math.round(Number(low) * scale) : null, max: high ? Math.round(Number(high) * scale) : null };
    })
    .refine((range) => range.min === null || range.max === null || range.min < range.max);
}

function writeRange(range: NumberRange, scale: number): string {
  const end = (value: number | null) => (value === null ? '' : String(value / scale));
  return `${end(range.min)}-${end(range.max)}`;
}

/** Lakh with up to two decimals ('4.5-9'). */
const budgetRange = rangeOf('\\d{1,4}(?:\\.\\d{1,2})?', LAKH);
const wholeRange = rangeOf('\\d{1,9}', 1);
/** A model year a car can have. */
const isModelYear = (year: number | null) => year === null || (year >= 1950 && year <= 2100);
/** Model years, both ends included: '2015-2019' is five years; '2019' alone is one. */
const yearRange = z
  .string()
  .trim()
  .pipe(
    z.union([
      wholeRange,
      z
        .string()
        .regex(/^\d{4}$/)
        .transform((year): NumberRange => ({ min: Number(year), max: Number(year) })),
    ]),
  )
  .refine((range) => isModelYear(range.min) && isModelYear(range.max));
const slug = z.string().refine((text) => isSlug(text));

const oneOf = (name: string, options: object) => `${name} must be one or more of ${Object.keys(options).join(', ')}, separated by commas`;

/** A list filter on a text column: the values as written are the column's values. */
function valuesOf<Value extends string>(column: TextColumn) {
  return {
    off: [] as Value[],
    write: (values: Value[]) => values,
    match: (values: Value[]): Match | null => (values.length > 0 ? { column, values } : null),
  };
}

/** A list filter of number ranges on a column, written with `scale` ('5-8' lakh). */
function rangesOn(column: NumberColumn, scale: number) {
  return {
    off: [] as NumberRange[],
    write: (ranges: NumberRange[]) => ranges.map((range) => writeRange(range, scale)),
    match: (ranges: NumberRange[]): Match | null => (ranges.length > 0 ? { column, ranges } : null),
  };
}

/** A bucket's text, or null for a value that is not one of the filter's buckets. */
function bucketText(buckets: readonly Bucket[], value: string): string | null {
  const bucket = buckets.find((known) => known.value === value);
  return bucket ? t(bucket.labelKey) : null;
}

const BUDGET_BUCKETS = bucketsOf('budget', ['-3', '3-5', '5-8', '8-12', '12-20', '20-']);
const KM_BUCKETS = bucketsOf('km', ['-25000', '25000-50000', '50000-75000', '75000-100000', '100000-']);
/** Owners: 1, 2, or 3 meaning three or more. */
const OWNER_BUCKETS = bucketsOf('owners', ['1', '2', '3']);
export type OwnerOption = 1 | 2 | 3;

/** The filters, in the order their parameters are written, their chips shown and their groups offered. */
export const FILTERS = {
  budget: described<NumberRange[]>({
    labelKey: 'filter_budget',
    read: forgivingList(budgetRange, 'budget must be lakh ranges such as 5-8, -3 or 20-, separated by commas'),
    ...rangesOn('price_rupees', LAKH),
    buckets: BUDGET_BUCKETS,
    options: { from: 'buckets' },
    facet: { by: 'bucket' },
    chip: (value) => bucketText(BUDGET_BUCKETS, value) ?? t('budgetLakh', { range: value.replace('-', '–') }),
  }),
  make: described<string[]>({
    labelKey: 'filter_make',
    read: forgivingList(slug, 'make must be slugs such as maruti-suzuki, separated by commas'),
    ...valuesOf<string>('make_slug'),
    buckets: [],
    options: { from: 'cars', label: (value, named) => named || value },
    facet: { by: 'make_slug', label: 'make' },
    chip: (value, names) => names.make?.[value] ?? value,
  }),
  model: described<string[]>({
    labelKey: 'filter_model',
    read: forgivingList(slug, 'model must be slugs such as maruti-suzuki, separated by commas'),
    ...valuesOf<string>('model_slug'),
    buckets: [],
    // Models are offered within the chosen makes only.
    options: { from: 'within' },
    facet: { by: 'model_slug', within: 'make', label: 'model' },
    chip: (value, names) => names.model?.[value] ?? value,
  }),
  fuel: described<Fuel[]>({
    labelKey: 'filter_fuel',
    read: forgivingList(keyOf(FUELS), oneOf('fuel', FUELS)),
    ...valuesOf<Fuel>('fuel_key'),
    buckets: bucketsOf('fuel', Object.keys(FUELS) as Fuel[]),
    options: { from: 'buckets' },
    facet: { by: 'fuel_key' },
    chip: fuelLabel,
  }),
  trans: described<TransmissionKey[]>({
    labelKey: 'filter_trans',
    read: forgivingList(keyOf(TRANSMISSION_KEYS), oneOf('trans', TRANSMISSION_KEYS)),
    ...valuesOf<TransmissionKey>('transmission_key'),
    buckets: bucketsOf('trans', Object.keys(TRANSMISSION_KEYS) as TransmissionKey[]),
    options: { from: 'buckets' },
    facet: { by: 'transmission_key' },
    chip: transmissionLabel,
  }),
  body: described<BodyType[]>({
    labelKey: 'filter_body',
    read: forgivingList(keyOf(BODY_TYPES), oneOf('body', BODY_TYPES)),
    ...valuesOf<BodyType>('body_type'),
    buckets: [],
    options: { from: 'cars', label: bodyTypeLabel },
    facet: { by: 'body_type' },
    chip: bodyTypeLabel,
  }),
  year: described<NumberRange | null>({
    labelKey: 'filter_year',
    read: forgivingSingle(yearRange, 'year must be a range of years such as 2019-, -2015 or 2015-2019'),
    off: null,
    write: (range) => (range ? [range.min !== null && range.min === range.max ? String(range.min) : writeRange(range, 1)] : []),
    // Both ends of a year range are included: 2015-2019 is five model years.
    match: (range) => (range ? { column: 'model_year', ranges: [{ min: range.min, max: range.max === null ? null : range.max + 1 }] } : null),
    buckets: [],
    options: { from: 'orNewer' },
    facet: { by: 'model_year' },
    chip: (value) => {
      if (!value.includes('-')) return value;
      const [from, to] = value.split('-');
      if (from && to) return `${from}–${to}`;
      return from ? t('yearOrNewer', { year: from }) : t('yearOrOlder', { year: to });
    },
  }),
  km: described<NumberRange[]>({
    labelKey: 'filter_km',
    read: forgivingList(wholeRange, 'km must be kilometre ranges such as -50000 or 25000-50000, separated by commas'),
    ...rangesOn('odometer', 1),
    buckets: KM_BUCKETS,
    options: { from: 'buckets' },
    facet: { by: 'bucket' },
    chip: (value) => bucketText(KM_BUCKETS, value) ?? t('kmRange', { range: value.replace('-', '–') }),
  }),
  owners: described<OwnerOption[]>({
    labelKey: 'filter_owners',
    read: forgivingList(
      z.enum(['1', '2', '3']).transform((owners) => Number(owners) as OwnerOption),
      'owners must be 1, 2 or 3 (3 meaning three or more), separated by commas',
    ),
    off: [],
    write: (owners) => owners.map(String),
    // 3 means three or more.
    match: (owners) =>
      owners.length > 0 ? { column: 'owner_count', ranges: owners.map((count) => ({ min: count, max: count === 3 ? null : count + 1 })) } : null,
    buckets: OWNER_BUCKETS,
    options: { from: 'buckets' },
    facet: { by: 'bucket' },
    chip: (value) => bucketText(OWNER_BUCKETS, value) ?? value,
  }),
  color: described<Colour[]>({
    labelKey: 'filter_color',
    read: forgivingList(keyOf(COLOURS), oneOf('color', COLOURS)),
    ...valuesOf<Colour>('colour'),
    buckets: [],
    // A colour typed before the list was fixed is counted, never offered.
    options: { from: 'cars', label: colourLabel, only: (value) => Object.hasOwn(COLOURS, value) },
    facet: { by: 'colour' },
    chip: colourLabel,
  }),
  state: described<string[]>({
    labelKey: 'filter_state',
    read: forgivingList(
      z
        .string()
        .transform((code) => code.toUpperCase())
        .refine((code) => Object.hasOwn(REGISTRATION_STATES, code)),
      'state must be registration state codes such as MH, KA or DL, separated by commas',
    ),
    ...valuesOf<string>('registration_state'),
    buckets: [],
    options: { from: 'cars', label: (value) => t('stateOption', { name: stateName(value), code: value }) },
    facet: { by: 'registration_state' },
    chip: (value) => t('stateChip', { code: value, name: stateName(value) }),
  }),
};

export type FilterName = keyof typeof FILTERS;
type ValueOf<Description> = Description extends FilterDescription<infer Value> ? Value : never;
/** The buyer's filters as read from a listing URL. */
export type ListingFilters = { [Name in FilterName]: ValueOf<(typeof FILTERS)[Name]> };

/** The filters in the order their parameters are written and their chips shown. */
export const FILTER_NAMES = Object.keys(FILTERS) as FilterName[];

/** One filter's description, its value's type forgotten, for code that walks every filter alike. */
export function filterOf(name: FilterName): FilterDescription<unknown> {
  return FILTERS[name];
}

/** A list filter takes several values (checkboxes); the others one. */
export const takesSeveral = (name: FilterName) => Array.isArray(FILTERS[name].off);

export function emptyFilters(): ListingFilters {
  return Object.fromEntries(FILTER_NAMES.map((name) => [name, takesSeveral(name) ? [] : filterOf(name).off])) as ListingFilters;
}

/** Each filter's values as its URL parameter writes them (empty when the filter is off). */
export function filterValues(filters: ListingFilters): Record<FilterName, string[]> {
  return Object.fromEntries(FILTER_NAMES.map((name) => [name, filterOf(name).write(filters[name])])) as Record<FilterName, string[]>;
}

/** The cars each filter that is on keeps (a filter with no values is absent). */
export function filterMatches(filters: ListingFilters): Partial<Record<FilterName, Match>> {
  const matches: Partial<Record<FilterName, Match>> = {};
  for (const name of FILTER_NAMES) {
    const match = filterOf(name).match(filters[name]);
    if (match) matches[name] = match;
  }
  return matches;
}

/** The cars one of a filter's buckets keeps: the bucket's value read as its URL parameter would be. */
export function bucketMatch(name: FilterName, bucket: string): Match {
  const filter = filterOf(name);
  const match = filter.match(filter.read.parse(bucket).value);
  if (!match) throw new Error(`the ${name} bucket ${bucket} keeps no car`);
  return match;
}

/** Each bucket of the filters counted by bucket, with the cars it keeps, in order (a car is counted under the first that keeps it). */
export const FACET_BUCKETS: Partial<Record<FilterName, ReadonlyArray<{ value: string; match: Match }>>> = Object.fromEntries(
  FILTER_NAMES.filter((name) => FILTERS[name].facet.by === 'bucket').map((name) => [
    name,
    FILTERS[name].buckets.map((bucket) => ({ value: bucket.value, match: bucketMatch(name, bucket.value) })),
  ]),
);

/** Whether a filter's options are offered with these filters on (a filter within another needs that one on). */
export function offered(name: FilterName, filters: ListingFilters): boolean {
  const { facet } = FILTERS[name];
  return !('within' in facet) || facet.within === undefined || filterOf(facet.within).write(filters[facet.within]).length > 0;
}

/** A filter's name as the form's group and the API's facets show it. */
export function filterLabel(name: FilterName): string {
  return t(FILTERS[name].labelKey);
}

/** A chip's text for one value of one filter. */
export function chipLabel(name: FilterName, value: string, names: ChipNames = {}): string {
  return filterOf(name).chip(value, names);
}

/** The parameter readers of the filters, by parameter, in order: the filters' part of the listing schema. */
export const filterReaders = Object.fromEntries(FILTER_NAMES.map((name) => [name, FILTERS[name].read])) as {
  [Name in FilterName]: (typeof FILTERS)[Name]['read'];
};

// ---------------------------------------------------------------- sorts

/** A column the listing is ordered by: featured and created_at besides the filter columns. */
export type SortColumn = 'featured' | 'created_at' | 'price_rupees' | 'model_year' | 'odometer';
/** One key of an order; ties are then broken newest car (highest id) first, so pages never overlap. */
export type SortKey = { column: SortColumn; direction: 'asc' | 'desc'; nullsLast?: true };

/**
 * The listing's orders. `newest` is the order of the partial index vehicles_for_sale_idx
 * (featured first, then newest); the others put cars without the value (a price in words, no
 * odometer reading) last.
 */
export const SORTS = {
  newest: {
    labelKey: 'sort_newest',
    keys: [
      { column: 'featured', direction: 'desc' },
      { column: 'created_at', direction: 'desc' },
    ],
  },
  price_asc: { labelKey: 'sort_price_asc', keys: [{ column: 'price_rupees', direction: 'asc', nullsLast: true }] },
  price_desc: { labelKey: 'sort_price_desc', keys: [{ column: 'price_rupees', direction: 'desc', nullsLast: true }] },
  year_desc: { labelKey: 'sort_year_desc', keys: [{ column: 'model_year', direction: 'desc', nullsLast: true }] },
  km_asc: { labelKey: 'sort_km_asc', keys: [{ column: 'odometer', direction: 'asc', nullsLast: true }] },
} as const satisfies Record<string, { labelKey: TextKey; keys: readonly SortKey[] }>;
export type Sort = keyof typeof SORTS;
export const SORT_NAMES = Object.keys(SORTS) as Sort[];
export const DEFAULT_SORT: Sort = 'newest';

/** The `sort` parameter's reader. */
export const readSort = forgivingSingle(keyOf(SORTS), `sort must be one of ${SORT_NAMES.join(', ')}`);

export function sortLabel(sort: Sort): string {
  return t(SORTS[sort].labelKey);
}

// ---------------------------------------------------------------- counts

export type FacetOption = { value: string; label: string; count: number };
/** Each filter's options, each with the number of cars it would give with the other filters as they are. */
export type Facets = Record<FilterName, FacetOption[]>;
