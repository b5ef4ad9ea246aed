import {
  carMatches,
  FACET_BUCKETS,
  FILTER_COLUMNS,
  FILTER_NAMES,
  FILTERS,
  filterMatches,
  inRanges,
  offered,
  SORT_NAMES,
  SORTS,
  type FilterCar,
  type FilterColumn,
  type FilterName,
  type ListingFilters,
  type Match,
  type NumberColumn,
  type Sort,
  type SortKey,
  type TextColumn,
} from '../../app/lib/listing-filters/catalogue.ts';
import type { Database } from '../db/connection.ts';
import type { FacetRow } from './filters.ts';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { hasControlCharacters } from '../../app/lib/input.ts';
import { ftsMatch, indexedByTrigrams, searchCondition, searchTerms } from './search.ts';
import { listedUnqualifiedSql } from './public-status.ts';
import { vocabularyOf, type Vocabulary } from './spelling.ts';

/**
 * The cars for sale held in memory, column by column, for the listing (issue 30,
 * docs/decisions/082-listing-index-in-memory.md). Counting a listing's matches and each filter
 * option's cars by SQL reads every matching row (100,000 for the plain listing); here one pass
 * over a few typed arrays does it in a millisecond or two, and a page is the first matches
 * along an order computed once. The database stays the truth: `catalogue_version`
 * (migration 026) grows with every write to `vehicles`, from any instance or writer, and a
 * listing asked after a change waits for the index to be read again. Search words are still
 * answered by the database's text indexes (FTS5, pg_trgm), each word's cars kept as a set of
 * positions until the next change.
 */

/** The columns the filters read, by kind (app/lib/listing-filters/catalogue.ts). */
const COLUMNS = Object.keys(FILTER_COLUMNS) as FilterColumn[];
const NUMBER_COLUMNS = COLUMNS.filter((name): name is NumberColumn => FILTER_COLUMNS[name] === 'number');
const TEXT_COLUMNS = COLUMNS.filter((name): name is TextColumn => FILTER_COLUMNS[name] === 'text');

/** A column of strings as small codes: `values[code]`; code 0 is NULL. */
type Dictionary = { codes: Uint16Array | Uint32Array; values: Array<string | null> };

type Snapshot = {
  version: string;
  size: number;
  ids: Int32Array;
  category: Int32Array;
  /** The filters' number columns; NaN for NULL. */
  numbers: Record<NumberColumn, Float64Array>;
  /** The filters' text columns. */
  coded: Record<TextColumn, Dictionary>;
  /** What each filter counts a car under (its facet): a text column's own codes, or its bucket's or model year's. */
  facetValues: Record<FilterName, Dictionary>;
  featured: Uint8Array;
  created: string[];
  /** Positions of the cars in each listing order (catalogue.ts SORTS, filters.ts sortOrder). */
  orders: Record<Sort, Uint32Array>;
  /** Positions by car id. */
  positionOf: Map<number, number>;
  /** The variant and fuel of each car: with make and model, the words a typo is matched to (spelling.ts). */
  named: { variant: Dictionary; fuel_type: Dictionary };
  /** Each search word's cars, as a mark per position; emptied with the snapshot. */
  words: Map<string, Uint8Array>;
  /** Words being read now: a word asked again meanwhile waits for the same read. */
  readingWords: Map<string, Promise<Uint8Array>>;
  /** The spelling vocabulary of these cars, made when a search first needs it. */
  vocabulary: Vocabulary | null;
  /** The latest listings' passes (countMatches), by what they ask; emptied with the snapshot. */
  counted: Map<string, Counted>;
};

/** A listing's pass over the cars: how many match, which (a mark per position), and its filter counts when asked. */
type Counted = { matches: number; passing: Uint8Array; facets: FacetRow[] | null };

export type ListingAnswer = { matches: number; pageIds: number[]; facets: FacetRow[] | null };

export type CatalogueIndex = {
  /**
   * One listing: how many cars match (all of them, uncapped), the ids of the window along
   * `sort`, and when asked the rows of the filter counts (filters.ts facetsFrom reads them).
   */
  answer(input: {
    terms: string[];
    /** Words whose cars come first along `sort`: those whose make or model holds them all (a corrected search's words, decision 079). */
    prefer?: string[];
    categoryId?: number;
    filters: ListingFilters;
    sort: Sort;
    facets: boolean;
    windowFor: (matches: number) => { offset: number; limit: number };
  }): Promise<ListingAnswer>;
  /** The makes, models, variants and fuels of the cars for sale (spelling.ts), as of the latest change. */
  vocabulary(): Promise<Vocabulary>;
  /** Reads the cars now (at start), so the first visitor does not wait. */
  warm(): Promise<void>;
  /** What it holds: cars and bytes (the bench reports them). */
  size(): { cars: number; bytes: number };
};

/** Word marks kept per snapshot, at most (a crafted query cannot grow memory without end). */
const MAX_WORDS = 64;
/**
 * Listings' passes kept per snapshot, at most: the plain listing of the home page and a few
 * popular filters are asked by most visitors, and a pass over 90,000 cars costs 9 ms where
 * the kept one costs nothing. Each holds a mark per car (90 KB at 100k).
 */
const MAX_COUNTED = 16;
/**
 * Common words read with the cars, at most: a catalogue word held by at least a twentieth of
 * the cars (`diesel`, `automatic`, a popular make) is among the words visitors type most and
 * the dearest to read first (pg_trgm: 40–60 ms at 100k, every match rechecked on its row).
 */
const MAX_COMMON_WORDS = 16;
/** Below this many cars a word's first read costs a few milliseconds: nothing is read ahead. */
const COMMON_WORDS_FROM = 5000;

/**
 * A column of strings coded as it is read: each value is given a code when first seen, and
 * `done()` renumbers them in sorted order (code 0 is NULL), so the strings of 100,000 rows are
 * never all held at once.
 */
function dictionaryBuilder() {
  const seen = new Map<string, number>();
  const firstSeen: string[] = [];
  const codes: number[] = [];
  return {
    add(value: string | null | undefined) {
      if (value === null || value === undefined) return void codes.push(0);
      let code = seen.get(value);
      if (code === undefined) {
        firstSeen.push(value);
        seen.set(value, (code = firstSeen.length));
      }
      codes.push(code);
    },
    done(): Dictionary {
      const sorted = [...firstSeen].sort();
      const renumbered = new Uint32Array(firstSeen.length + 1);
      sorted.forEach((value, index) => (renumbered[seen.get(value)!] = index + 1));
      const values: Array<string | null> = [null, ...sorted];
      const coded = values.length < 65_536 ? new Uint16Array(codes.length) : new Uint32Array(codes.length);
      codes.forEach((code, index) => (coded[index] = renumbered[code]!));
      return { codes: coded, values };
    },
  };
}

/** The cars whose make or model holds every word (lower-case), marked 1: listing/strategy.ts titleHolds, read from the dictionaries. */
function titleMarks(held: Snapshot, words: string[]): Uint8Array {
  const holding = (dictionary: Dictionary, word: string) =>
    new Set(dictionary.values.flatMap((value, code) => (value?.toLowerCase().includes(word) ? [code] : [])));
  const marks = new Uint8Array(held.size).fill(1);
  for (const word of words) {
    const makes = holding(held.coded.make, word);
    const models = holding(held.coded.model, word);
    for (let position = 0; position < held.size; position++) {
      if (marks[position] && !makes.has(held.coded.make.codes[position]!) && !models.has(held.coded.model.codes[position]!)) marks[position] = 0;
    }
  }
  return marks;
}

/** Each distinct make, model, variant and fuel of the snapshot's cars once, from their codes. */
function namedCars(held: Snapshot): Array<{ make: string; model: string; variant: string; fuel_type: string }> {
  const { make, model } = held.coded;
  const { variant, fuel_type: fuel } = held.named;
  // The four codes as one number (the dictionaries hold a few thousand values at most, so the
  // product stays far below 2^53): a set of numbers, not 100,000 joined strings.
  const [models, variants, fuels] = [model.values.length, variant.values.length, fuel.values.length];
  const seen = new Map<number, number>();
  for (let position = 0; position < held.size; position++) {
    const key = ((make.codes[position]! * models + model.codes[position]!) * variants + variant.codes[position]!) * fuels + fuel.codes[position]!;
    if (!seen.has(key)) seen.set(key, position);
  }
  const text = (dictionary: Dictionary, position: number) => dictionary.values[dictionary.codes[position]!] ?? '';
  return [...seen.values()].map((position) => ({
    make: text(make, position),
    model: text(model, position),
    variant: text(variant, position),
    fuel_type: text(fuel, position),
  }));
}

const num = (value: unknown) => (value === null || value === undefined ? Number.NaN : Number(value));

async function readVersion(database: Database): Promise<string> {
  // PostgreSQL spreads the version over many rows (migration 040); SQLite has one.
  const row = await database.db
    .selectFrom('catalogue_version')
    .select((eb) => eb.fn.sum<string | number>('version').as('version'))
    .executeTakeFirst();
  return String(row?.version ?? 0);
}

/**
 * Cars read per query. Read whole, 100,000 cars were 100,000 row objects and 1.3 million
 * strings at once; the heap grew by about 130 MB to hold them and the process kept 56 MB of
 * it after they were gone (RSS at rest 293 MB against 237 MB read in chunks).
 */
const READ_CHUNK = 5000;

/** The cars for sale, read after `version` (a change made while they are read makes the next listing read them again). */
async function readSnapshot(database: Database, version: string, chunk: number): Promise<Snapshot> {
  const idList: number[] = [];
  const categoryList: number[] = [];
  const numberLists = Object.fromEntries(NUMBER_COLUMNS.map((name) => [name, [] as number[]])) as Record<NumberColumn, number[]>;
  const featuredList: number[] = [];
  const created: string[] = [];
  const text = Object.fromEntries(TEXT_COLUMNS.map((name) => [name, dictionaryBuilder()])) as Record<TextColumn, ReturnType<typeof dictionaryBuilder>>;
  // The facets not counted by a text column as it is: by bucket, or by a number column as text.
  const facetText = FILTER_NAMES.flatMap((name) => {
    const { facet } = FILTERS[name];
    return facet.by !== 'bucket' && FILTER_COLUMNS[facet.by] === 'text' ? [] : [{ name, by: facet.by, builder: dictionaryBuilder() }];
  });
  const variants = dictionaryBuilder();
  const fuels = dictionaryBuilder();
  for (let after = 0; ;) {
    const rows = await database.db
      .selectFrom('vehicles')
      .where(listedUnqualifiedSql)
      .where('purpose', '=', 'sale')
      .where('id', '>', after)
      .orderBy('id')
      .limit(chunk)
      .select(['id', 'category_id', 'featured', 'created_at', 'variant', 'fuel_type', ...COLUMNS])
      .execute();
    for (const row of rows) {
      const car = {} as Record<FilterColumn, number | string | null>;
      for (const name of NUMBER_COLUMNS) {
        const value = num(row[name]);
        numberLists[name].push(value);
        car[name] = Number.isNaN(value) ? null : value;
      }
      for (const name of TEXT_COLUMNS) {
        text[name].add(row[name]);
        car[name] = row[name] ?? null;
      }
      for (const { name, by, builder } of facetText) {
        if (by === 'bucket') builder.add(FACET_BUCKETS[name]!.find((bucket) => carMatches(bucket.match, car as FilterCar))?.value ?? null);
        else builder.add(car[by] === null ? null : String(car[by]));
      }
      idList.push(Number(row.id));
      categoryList.push(Number(row.category_id));
      featuredList.push(Number(row.featured));
      created.push(row.created_at);
      variants.add(row.variant);
      fuels.add(row.fuel_type);
    }
    if (rows.length < chunk) break;
    after = Number(rows.at(-1)!.id);
  }
  const size = idList.length;
  const ids = Int32Array.from(idList);
  const category = Int32Array.from(categoryList);
  const numbers = Object.fromEntries(NUMBER_COLUMNS.map((name) => [name, Float64Array.from(numberLists[name])])) as Record<NumberColumn, Float64Array>;
  const featured = Uint8Array.from(featuredList);
  const coded = Object.fromEntries(TEXT_COLUMNS.map((name) => [name, text[name].done()])) as Record<TextColumn, Dictionary>;
  const built = new Map(facetText.map(({ name, builder }) => [name, builder.done()]));
  const facetValues = Object.fromEntries(
    FILTER_NAMES.map((name) => {
      const { facet } = FILTERS[name];
      return [name, built.get(name) ?? coded[facet.by as TextColumn]];
    }),
  ) as Record<FilterName, Dictionary>;

  const orders = Object.fromEntries(SORT_NAMES.map((sort) => [sort, orderOf(SORTS[sort].keys, { size, ids, numbers, featured, created })])) as Record<
    Sort,
    Uint32Array
  >;
  const positionOf = new Map<number, number>();
  ids.forEach((id, index) => positionOf.set(id, index));
  const named = { variant: variants.done(), fuel_type: fuels.done() };
  return {
    version,
    size,
    ids,
    category,
    numbers,
    coded,
    facetValues,
    featured,
    created,
    orders,
    positionOf,
    named,
    words: new Map(),
    readingWords: new Map(),
    vocabulary: null,
    counted: new Map(),
  };
}

/**
 * The positions of the cars along an order's keys, ties newest id first: the order filters.ts
 * sortOrder gives the database. NULL (NaN) goes last; a key without `nullsLast` is on a column
 * that is never NULL.
 */
function orderOf(keys: readonly SortKey[], held: Pick<Snapshot, 'size' | 'ids' | 'numbers' | 'featured' | 'created'>): Uint32Array {
  const { ids } = held;
  const compare = keys.map((key): ((a: number, b: number) => number) => {
    const direction = key.direction === 'asc' ? 1 : -1;
    if (key.column === 'created_at') {
      const { created } = held;
      return (a, b) => (created[a]! < created[b]! ? -direction : created[a]! > created[b]! ? direction : 0);
    }
    const values: ArrayLike<number> = key.column === 'featured' ? held.featured : held.numbers[key.column];
    return (a, b) => {
      const [x, y] = [values[a]!, values[b]!];
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? 0 : Number.isNaN(x) ? 1 : -1;
      return x === y ? 0 : (x - y) * direction;
    };
  });
  return Uint32Array.from({ length: held.size }, (_, index) => index).sort((a, b) => {
    for (const by of compare) {
      const order = by(a, b);
      if (order !== 0) return order;
    }
    return ids[b]! - ids[a]!;
  });
}

/** A Match as a test on a car's position, read from the snapshot's columns (codes compared, not strings). */
function positionTest(snapshot: Snapshot, match: Match): (position: number) => boolean {
  if ('values' in match) {
    const { codes, values: dictionaryValues } = snapshot.coded[match.column];
    const allowed = new Uint8Array(dictionaryValues.length);
    const wanted = new Set(match.values);
    dictionaryValues.forEach((value, code) => (allowed[code] = value !== null && wanted.has(value) ? 1 : 0));
    return (position) => allowed[codes[position]!] === 1;
  }
  const values = snapshot.numbers[match.column];
  const { ranges } = match;
  return (position) => inRanges(values[position]!, ranges);
}

/** A test per active filter, on a car's position. */
function filterTests(snapshot: Snapshot, filters: ListingFilters): Array<{ name: FilterName; passes: (position: number) => boolean }> {
  return Object.entries(filterMatches(filters)).map(([name, match]) => ({ name: name as FilterName, passes: positionTest(snapshot, match) }));
}

/**
 * One pass over the cars: which pass the search, category and filters, how many, and with
 * `facets` each filter option's cars (a car failing only one filter counts for that filter's
 * options alone, as filters.ts listingFacetRows counts).
 */
function countMatches(held: Snapshot, searched: Uint8Array | null, categoryId: number | undefined, filters: ListingFilters, facets: boolean): Counted {
  const tests = filterTests(held, filters);
  // A filter within another is offered only with that one on (filters.ts listingFacetRows).
  const counted = FILTER_NAMES.filter((name) => offered(name, filters));
  // Per facet: cars per value (per value and make, for models) and the smallest label code among them, in typed arrays.
  const plans = counted.map((name) => {
    const { facet } = FILTERS[name];
    const values = held.facetValues[name];
    const parents = 'within' in facet && facet.within ? held.facetValues[facet.within] : null;
    const labels = 'label' in facet && facet.label ? held.coded[facet.label] : null;
    const width = parents ? parents.values.length : 1;
    const slots = values.values.length * width;
    return {
      name,
      values,
      parents,
      labels,
      codes: values.codes,
      parentCodes: parents?.codes ?? null,
      width,
      counts: new Uint32Array(slots),
      labelCodes: labels?.codes ?? null,
      minLabel: labels ? new Uint32Array(slots).fill(0xffffffff) : null,
    };
  });
  type Plan = (typeof plans)[number];
  const planOf = new Map<FilterName, Plan>(plans.map((plan) => [plan.name, plan]));
  const tally = (plan: Plan, position: number) => {
    const key = plan.codes[position]! * plan.width + (plan.parentCodes ? plan.parentCodes[position]! : 0);
    plan.counts[key] = plan.counts[key]! + 1;
    if (plan.minLabel) {
      const label = plan.labelCodes![position]!;
      if (label < plan.minLabel[key]!) plan.minLabel[key] = label;
    }
  };
  const passing = new Uint8Array(held.size);
  let matches = 0;
  for (let position = 0; position < held.size; position++) {
    if (categoryId !== undefined && held.category[position] !== categoryId) continue;
    if (searched && searched[position] !== 1) continue;
    let failed: FilterName | null = null;
    let failures = 0;
    for (const test of tests) {
      if (!test.passes(position)) {
        failures += 1;
        failed = test.name;
        if (failures > 1) break;
      }
    }
    if (failures > 1) continue;
    if (failures === 0) {
      passing[position] = 1;
      matches += 1;
      if (facets) for (const plan of plans) tally(plan, position);
    } else if (facets) {
      // Failing only its own filter: counted by that filter's options alone.
      const plan = planOf.get(failed!);
      if (plan) tally(plan, position);
    }
  }
  if (!facets) return { matches, passing, facets: null };
  const rows: FacetRow[] = [];
  for (const plan of plans) {
    const { values, parents, labels, width } = plan;
    plan.counts.forEach((count, key) => {
      if (count === 0) return;
      const code = Math.floor(key / width);
      const parent = parents ? (parents.values[key % width] ?? '') : '';
      const labelCode = plan.minLabel?.[key];
      const label = labels && labelCode !== undefined ? (labels.values[labelCode] ?? '') : '';
      rows.push({ facet: plan.name, value: values.values[code] ?? null, parent, label, count });
    });
  }
  return { matches, passing, facets: rows };
}

/**
 * The words of the catalogue's own names (make, model, variant, fuel, transmission) held by at
 * least a twentieth of the cars, most held first: those whose first search costs the most.
 * Counted from the dictionaries; a word in two names counts both, an estimate that only
 * chooses what to read ahead (each word is then read by the database's own rule).
 */
export function commonWords(held: { size: number; coded: Pick<Snapshot['coded'], 'make' | 'model' | 'transmission_key'>; named: Snapshot['named'] }): string[] {
  const carsOf = new Map<string, number>();
  for (const dictionary of [held.coded.make, held.coded.model, held.coded.transmission_key, held.named.variant, held.named.fuel_type]) {
    const perCode = new Uint32Array(dictionary.values.length);
    for (const code of dictionary.codes) perCode[code]! += 1;
    dictionary.values.forEach((value, code) => {
      for (const word of new Set(searchTerms(value ?? ''))) if (indexedByTrigrams(word)) carsOf.set(word, (carsOf.get(word) ?? 0) + perCode[code]!);
    });
  }
  return [...carsOf]
    .filter(([, cars]) => cars >= held.size / 20)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_COMMON_WORDS)
    .map(([word]) => word);
}

/**
 * `readChunk`: cars read per query (tests read a small inventory in several); `commonWordsFrom`:
 * the inventory from which the common words are read ahead (tests lower it).
 */
export function createCatalogueIndex(
  database: Database,
  { readChunk = READ_CHUNK, commonWordsFrom = COMMON_WORDS_FROM }: { readChunk?: number; commonWordsFrom?: number } = {},
): CatalogueIndex {
  let latest: { version: string; reading: Promise<Snapshot> } | null = null;
  let lastRead: Snapshot | null = null;

  /**
   * The cars as the database has them now: one primary-key read of the version per listing,
   * and the cars read again after any change. Listings asked at once after a change share one
   * reading; one that fails is not kept.
   */
  async function snapshot(): Promise<Snapshot> {
    const version = await readVersion(database);
    if (latest?.version !== version) {
      const reading = readSnapshot(database, version, readChunk);
      latest = { version, reading };
      reading.then(
        (snapshot) => {
          lastRead = snapshot;
          void readCommonWords(snapshot);
        },
        () => {
          if (latest?.reading === reading) latest = null;
        },
      );
    }
    return latest.reading;
  }

  /**
   * The ids of the cars for sale holding `word`, by search.ts's own rule. On SQLite a word of
   * three letters or more is read straight from the trigram index: its rowids are the cars'
   * ids, and joining them back to `vehicles` cost four times the index read for a common word
   * (`diesel`, 32,000 cars at 100k: 34 ms against 7). The index holds only cars for sale
   * (migration 011), the snapshot's own cars.
   */
  async function carsHolding(word: string): Promise<number[]> {
    if (database.dialect === 'sqlite' && indexedByTrigrams(word) && !hasControlCharacters(word, { layout: false })) {
      return idsOf(sql`SELECT group_concat(rowid) AS ids FROM vehicles_fts WHERE vehicles_fts MATCH ${ftsMatch([word])}`);
    }
    return carsWhere(searchCondition(database.dialect, [word], database.dialect === 'postgres' ? { table: 'vehicle_search' } : {})!);
  }

  /**
   * The ids of the cars meeting `condition` (on `vehicle_search` on PostgreSQL, `vehicles` on
   * SQLite), as one string of numbers: a common word's 42,000 cars read as rows cost SQLite
   * three times the index's own work (`automatic` at 100k: 71–105 ms against 37 ms).
   */
  function carsWhere(condition: Expression<SqlBool>): Promise<number[]> {
    return database.dialect === 'postgres'
      ? idsOf(sql`SELECT string_agg(vehicle_search.id::text, ',') AS ids FROM vehicle_search WHERE ${condition}`)
      : idsOf(sql`SELECT group_concat(vehicles.id) AS ids FROM vehicles WHERE ${condition}`);
  }

  async function idsOf(query: RawBuilder<{ ids: string | null }>): Promise<number[]> {
    const ids = (await query.execute(database.db)).rows[0]?.ids;
    return ids ? ids.split(',').map(Number) : [];
  }

  /**
   * The common words' cars are read one after another once the cars are read, so the first
   * visitor to search `diesel` after a change does not wait for them (on PostgreSQL 40–60 ms
   * at 100k, every match rechecked on its row; on SQLite 7–12 ms, with the event loop held:
   * node:sqlite is synchronous, so requests waiting meanwhile go before each word). Stops when
   * newer cars were read, or at the first failure (the word is then read when asked).
   */
  async function readCommonWords(held: Snapshot): Promise<void> {
    if (held.size < commonWordsFrom) return;
    for (const word of commonWords(held)) {
      // Requests waiting meanwhile go first: on SQLite each read holds the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (lastRead !== held) return;
      try {
        await wordMarks(held, word);
      } catch {
        return;
      }
    }
  }

  /** The cars holding a search word, by the database's own text index (search.ts). */
  function wordMarks(held: Snapshot, word: string): Promise<Uint8Array> {
    const kept = held.words.get(word);
    if (kept) return Promise.resolve(kept);
    let reading = held.readingWords.get(word);
    if (!reading) {
      reading = carsHolding(word)
        .then((ids) => {
          const marks = new Uint8Array(held.size);
          for (const id of ids) {
            const position = held.positionOf.get(id);
            if (position !== undefined) marks[position] = 1;
          }
          if (held.words.size >= MAX_WORDS) held.words.delete(held.words.keys().next().value!);
          held.words.set(word, marks);
          return marks;
        })
        .finally(() => held.readingWords.delete(word));
      held.readingWords.set(word, reading);
    }
    return reading;
  }

  /**
   * The cars holding every word, marked 1 (null without words). Each word's cars are read over
   * the whole inventory once and kept. A word under three letters is the exception when other
   * words leave few cars: no trigram index holds it, so reading it alone scans every car (`ev`:
   * 38,000 of 100,000 on PostgreSQL in about 90 ms), while `tata nexon` leaves a few thousand to
   * check it on (docs/decisions/082-listing-index-in-memory.md).
   */
  async function searchMarks(held: Snapshot, words: string[]): Promise<Uint8Array | null> {
    if (words.length === 0) return null;
    const unindexed = (word: string) => !indexedByTrigrams(word) && !held.words.has(word);
    const read = words.some((word) => !unindexed(word)) ? words.filter((word) => !unindexed(word)) : words;
    // A new array: the kept marks of each word stay as read.
    const marks = new Uint8Array(held.size).fill(1);
    const holdAlso = (own: Uint8Array) => {
      for (let position = 0; position < held.size; position++) marks[position]! &= own[position]!;
    };
    for (const own of await Promise.all(read.map((word) => wordMarks(held, word)))) holdAlso(own);
    const checked = words.filter((word) => !read.includes(word));
    if (checked.length === 0) return marks;
    const candidates: number[] = [];
    marks.forEach((mark, position) => mark === 1 && candidates.push(held.ids[position]!));
    if (candidates.length > held.size / 4) {
      for (const word of checked) holdAlso(await wordMarks(held, word));
      return marks;
    }
    marks.fill(0);
    for (const id of await carsHoldingAmong(checked, candidates)) {
      const position = held.positionOf.get(id);
      if (position !== undefined) marks[position] = 1;
    }
    return marks;
  }

  /** Which of the cars `ids` hold every word (search.ts's rule, checked on each car's text). */
  async function carsHoldingAmong(words: string[], ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const condition = searchCondition(database.dialect, words, database.dialect === 'postgres' ? { table: 'vehicle_search' } : { checkEachRow: true })!;
    return carsWhere(
      database.dialect === 'postgres'
        ? sql<SqlBool>`${condition} AND vehicle_search.id = ANY(${ids}::int[])`
        : sql<SqlBool>`${condition} AND vehicles.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
    );
  }

  return {
    async warm() {
      await snapshot();
    },

    async vocabulary() {
      const held = await snapshot();
      held.vocabulary ??= vocabularyOf(namedCars(held));
      return held.vocabulary;
    },

    size() {
      const held = lastRead;
      if (!held) return { cars: 0, bytes: 0 };
      // A facet counted by a text column shares that column's dictionary.
      const dictionaries = [...new Set([...Object.values(held.coded), ...Object.values(held.facetValues), ...Object.values(held.named)])];
      const arrays = [
        held.ids,
        held.category,
        held.featured,
        ...Object.values(held.numbers),
        ...Object.values(held.orders),
        ...dictionaries.map((entry) => entry.codes),
        ...held.words.values(),
      ];
      // The dictionaries' strings, the creation times and the id map are small beside the columns; counted roughly.
      const strings = dictionaries.reduce((sum, entry) => sum + entry.values.reduce((total, value) => total + (value?.length ?? 0) * 2 + 16, 0), 0);
      return { cars: held.size, bytes: arrays.reduce((sum, array) => sum + array.byteLength, 0) + strings + held.size * 16 };
    },

    async answer({ terms, prefer = [], categoryId, filters, sort, facets, windowFor }) {
      const held = await snapshot();
      const words = [...new Set(terms)];
      // What the listing asks, whatever its order and page: the same counts and matches.
      const key = JSON.stringify([words, categoryId ?? null, filters]);
      let counted = held.counted.get(key);
      if (!counted || (facets && !counted.facets)) counted = countMatches(held, await searchMarks(held, words), categoryId, filters, facets);
      // Kept as the latest asked; past MAX_COUNTED the least recently asked goes.
      held.counted.delete(key);
      held.counted.set(key, counted);
      if (held.counted.size > MAX_COUNTED) held.counted.delete(held.counted.keys().next().value!);
      const { matches, passing } = counted;
      const pageIds: number[] = [];
      const { offset, limit } = windowFor(matches);
      if (limit > 0) {
        // With words to prefer, the order is walked twice: their cars, then the others.
        const preferred = prefer.length > 0 ? titleMarks(held, prefer) : null;
        let seen = 0;
        walk: for (const wanted of preferred ? [1, 0] : [null]) {
          for (const position of held.orders[sort]) {
            if (passing[position] !== 1) continue;
            if (wanted !== null && preferred![position] !== wanted) continue;
            if (seen >= offset) pageIds.push(held.ids[position]!);
            seen += 1;
            if (pageIds.length >= limit) break walk;
          }
        }
      }
      return { matches, pageIds, facets: facets ? counted.facets : null };
    },
  };
}
