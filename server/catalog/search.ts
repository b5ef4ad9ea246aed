import { sql, type Expression, type SqlBool } from 'kysely';
import { hasControlCharacters } from '../../app/lib/input.ts';
import { MAX_SEARCH_LENGTH } from '../../app/features/search/search.ts';
import { BODY_TYPES, type BodyType } from '../../app/lib/listing-filters/options.ts';
import { registrationPlace } from '../../app/lib/listing-filters/registration.ts';
import { column } from '../db/columns.ts';
import type { Dialect } from '../db/connection.ts';

/** At most this many words of a search count; the rest are ignored. */
const MAX_TERMS = 8;

/**
 * Splits what the visitor typed into lower-cased words. Each word must appear somewhere in
 * the vehicle's text (make, model, name, variant, year, fuel, transmission, body type,
 * category, registration city and state, description) as a
 * case-insensitive substring, so 'hyundai creta' finds the Creta even though make and model
 * are separate fields, and 'cret' finds it too.
 */
export function searchTerms(query: string): string[] {
  return query.slice(0, MAX_SEARCH_LENGTH).toLowerCase().split(/\s+/).filter(Boolean).slice(0, MAX_TERMS);
}

/** Whether a trigram index (FTS5 trigram, pg_trgm) can find `word`: one of three characters or more. */
export function indexedByTrigrams(word: string): boolean {
  return word.length >= 3;
}

/** The fields a vehicle is found by, as stored (see buildSearchText). */
export const SEARCHED_COLUMNS = ['make', 'model', 'name', 'variant', 'year', 'fuel_type', 'transmission', 'body_type', 'registration', 'description'] as const;

export type SearchedFields = {
  make: string;
  model: string;
  name: string;
  variant: string;
  year: string;
  fuelType: string;
  transmission: string;
  /** The body type's key ('suv'); its label is searched too. */
  bodyType: string;
  /** The registration number: the RTO's city and the state's name are searched ('MH-12' → 'pune maharashtra'). */
  registration: string;
  categoryName: string;
  description: string;
};

/** The searched fields of a stored row. */
export function searchedFieldsOf(row: Record<(typeof SEARCHED_COLUMNS)[number], string>, categoryName: string): SearchedFields {
  return {
    make: row.make,
    model: row.model,
    name: row.name,
    variant: row.variant,
    year: row.year,
    fuelType: row.fuel_type,
    transmission: row.transmission,
    bodyType: row.body_type,
    registration: row.registration,
    categoryName,
    description: row.description,
  };
}

/** The body type's English name ('SUV', 'Sedan'): the index is the same whichever language the page that saved the car spoke. */
function englishBodyType(key: string): string {
  return Object.hasOwn(BODY_TYPES, key) ? BODY_TYPES[key as BodyType] : key;
}

/** The text a vehicle is found by. Stored lower-cased so both databases compare the same way. */
export function buildSearchText(fields: SearchedFields): string {
  const body = fields.bodyType.trim() ? englishBodyType(fields.bodyType.trim()) : '';
  return [
    fields.make,
    fields.model,
    fields.name,
    fields.variant,
    fields.year,
    fields.fuelType,
    fields.transmission,
    body,
    fields.categoryName,
    registrationPlace(fields.registration),
    fields.description,
  ]
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)
    .join('\n');
}

/** An FTS5 query matching rows holding every term: each a quoted phrase (quotes doubled), so operators in the input are just characters. */
export function ftsMatch(terms: string[]): string {
  return terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(' ');
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * A condition on `vehicles` that holds when every term is a substring of search_text.
 * SQLite answers words of three or more characters from the FTS5 trigram index (shorter
 * ones cannot be trigram-indexed and fall back to LIKE); PostgreSQL's pg_trgm GIN index
 * serves LIKE directly. Both give the same rows for the same data. The SQLite index holds only
 * vehicles for sale (migration 011), which is all a search is ever asked for.
 * `checkEachRow` (SQLite, walking the listing's order for a first page of many matches): every
 * term as LIKE on the row, since asking the index would first collect every match of a common
 * word (30,000 for `diesel`) to keep 10 (docs/decisions/033-search-at-100k.md).
 * `table` (PostgreSQL): the condition on `vehicle_search`, the narrow copy of the cars for sale
 * that carries its own trigram index (migration 016), instead of on `vehicles`.
 */
export function searchCondition(
  dialect: Dialect,
  terms: string[],
  options: { walkInOrder?: boolean; checkEachRow?: boolean; table?: 'vehicles' | 'vehicle_search' } = {},
): Expression<SqlBool> | null {
  if (terms.length === 0) return null;
  // No car's text holds a control character (a NUL from a crafted URL would also break the
  // FTS5 query syntax and PostgreSQL's text input): such a word matches nothing.
  if (terms.some((term) => hasControlCharacters(term, { layout: false }))) return sql<SqlBool>`1 = 0`;
  const conditions = [];
  if (dialect === 'sqlite' && !options.checkEachRow) {
    const indexed = terms.filter(indexedByTrigrams);
    const short = terms.filter((term) => !indexedByTrigrams(term));
    if (indexed.length > 0) {
      // Each term becomes a quoted FTS phrase (quotes doubled), so operators in the input are
      // just characters; space-separated phrases must all match.
      const match = ftsMatch(indexed);
      // `+vehicles.id` (walkInOrder) keeps SQLite from starting at the matches and sorting them
      // all: with many matches, walking the listing's order index and checking each row stops
      // after a page (docs/decisions/028-listing-at-scale.md).
      conditions.push(
        options.walkInOrder
          ? sql<SqlBool>`+vehicles.id IN (SELECT rowid FROM vehicles_fts WHERE vehicles_fts MATCH ${match})`
          : sql<SqlBool>`vehicles.id IN (SELECT rowid FROM vehicles_fts WHERE vehicles_fts MATCH ${match})`,
      );
    }
    for (const term of short) {
      conditions.push(sql<SqlBool>`vehicles.search_text LIKE ${likePattern(term)} ESCAPE '\\'`);
    }
  } else {
    const searchText = column(options.table ?? 'vehicles', 'search_text');
    for (const term of terms) {
      conditions.push(sql<SqlBool>`${searchText} LIKE ${likePattern(term)} ESCAPE '\\'`);
    }
  }
  return sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
}
