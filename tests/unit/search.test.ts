import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../server/db/connection.ts';
import type { DB } from '../../server/db/schema.ts';
import { MAX_SEARCH_LENGTH } from '../../app/features/search/search.ts';
import { buildSearchText, searchCondition, searchTerms } from '../../server/catalog/search.ts';

describe('searchTerms', () => {
  it('splits what was typed into lower-cased words', () => {
    expect(searchTerms('Hyundai Creta')).toEqual(['hyundai', 'creta']);
    expect(searchTerms('CRETA')).toEqual(['creta']);
    expect(searchTerms('cReTa')).toEqual(['creta']);
  });

  it('ignores surrounding and repeated white space of every kind', () => {
    expect(searchTerms('  hyundai \t\n creta  ')).toEqual(['hyundai', 'creta']);
    expect(searchTerms('hyundai\u00a0creta')).toEqual(['hyundai', 'creta']);
  });

  it('gives no terms for an empty or blank search', () => {
    expect(searchTerms('')).toEqual([]);
    expect(searchTerms('   ')).toEqual([]);
    expect(searchTerms('\t\n')).toEqual([]);
  });

  it('keeps punctuation and symbols as part of the words', () => {
    expect(searchTerms('XZ+ 4x4 e:HEV SX(O) 100% a_b')).toEqual(['xz+', '4x4', 'e:hev', 'sx(o)', '100%', 'a_b']);
    expect(searchTerms("' OR 1=1 --")).toEqual(["'", 'or', '1=1', '--']);
    expect(searchTerms('"creta"')).toEqual(['"creta"']);
  });

  it('keeps words in other scripts and emoji', () => {
    expect(searchTerms('गाड़ी बाज़ार')).toEqual(['गाड़ी', 'बाज़ार']);
    expect(searchTerms('🚗 Creta')).toEqual(['🚗', 'creta']);
  });

  it('counts at most eight words', () => {
    expect(searchTerms('a b c d e f g h i j')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  it('cuts the search to its maximum length', () => {
    const long = 'x'.repeat(MAX_SEARCH_LENGTH + 50);
    expect(searchTerms(long)).toEqual(['x'.repeat(MAX_SEARCH_LENGTH)]);
    expect(MAX_SEARCH_LENGTH).toBe(100);
  });
});

describe('buildSearchText', () => {
  const creta = {
    make: 'Hyundai',
    model: 'Creta',
    name: 'Hyundai Creta SX 1.5 CRDi',
    variant: 'SX 1.5 CRDi',
    year: '2021',
    fuelType: 'Diesel',
    transmission: 'Automatic',
    bodyType: 'suv',
    registration: 'MH-12',
    categoryName: 'SUVs',
    description: 'Second-generation Creta with panoramic sunroof.',
  };
  const blank = {
    make: '',
    model: '',
    name: '',
    variant: '',
    year: '',
    fuelType: '',
    transmission: '',
    bodyType: '',
    registration: '',
    categoryName: '',
    description: '',
  };

  it('holds make, model, name, variant, year, fuel, transmission, body type, category, registration place and description, lower-cased, one per line', () => {
    expect(buildSearchText(creta)).toBe(
      [
        'hyundai',
        'creta',
        'hyundai creta sx 1.5 crdi',
        'sx 1.5 crdi',
        '2021',
        'diesel',
        'automatic',
        'suv',
        'suvs',
        'pune maharashtra',
        'second-generation creta with panoramic sunroof.',
      ].join('\n'),
    );
  });

  it('names the registration city when the office is known, else only the state', () => {
    expect(buildSearchText({ ...blank, registration: 'KA-05' })).toBe('bengaluru karnataka');
    expect(buildSearchText({ ...blank, registration: 'dl 8c ab 1234' })).toBe('delhi');
    expect(buildSearchText({ ...blank, registration: 'MH-99' })).toBe('maharashtra');
    expect(buildSearchText({ ...blank, registration: 'XX-01' })).toBe('');
  });

  it('trims the fields and leaves empty ones out', () => {
    expect(
      buildSearchText({ ...creta, name: '   ', variant: '', fuelType: '', transmission: '', bodyType: '', registration: '', description: '  Clean car.  ' }),
    ).toBe(['hyundai', 'creta', '2021', 'suvs', 'clean car.'].join('\n'));
    expect(buildSearchText(blank)).toBe('');
  });

  it('is found by every word of a search, whichever field each word is in', () => {
    const text = buildSearchText(creta);
    for (const query of ['Hyundai Creta', 'creta 2021', 'suvs sunroof', 'CRDi', 'cret', 'sx 1.5']) {
      for (const term of searchTerms(query)) expect(text).toContain(term);
    }
  });

  it('does not join two fields into a word that is in neither', () => {
    // 'creta' ends one line and 'hyundai' starts the next: the separator keeps them apart.
    expect(buildSearchText(creta)).not.toContain('cretahyundai');
    expect(buildSearchText(creta)).not.toContain('2021suvs');
  });
});

function compilerFor(dialect: Dialect) {
  return new Kysely<DB>({
    dialect:
      dialect === 'sqlite'
        ? {
            createAdapter: () => new SqliteAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (db) => new SqliteIntrospector(db),
            createQueryCompiler: () => new SqliteQueryCompiler(),
          }
        : {
            createAdapter: () => new PostgresAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (db) => new PostgresIntrospector(db),
            createQueryCompiler: () => new PostgresQueryCompiler(),
          },
  });
}

function compiled(dialect: Dialect, query: string) {
  const condition = searchCondition(dialect, searchTerms(query));
  if (!condition) return null;
  const { sql, parameters } = compilerFor(dialect).selectFrom('vehicles').select('vehicles.id').where(condition).compile();
  return { sql, parameters };
}

describe('searchCondition', () => {
  it('is absent for an empty search on both databases', () => {
    expect(searchCondition('sqlite', [])).toBeNull();
    expect(searchCondition('postgres', [])).toBeNull();
  });

  it('answers words of three or more characters from the FTS5 trigram index on SQLite', () => {
    const result = compiled('sqlite', 'Hyundai Creta');
    expect(result?.sql).toContain('vehicles_fts MATCH ?');
    expect(result?.parameters).toEqual(['"hyundai" "creta"']);
  });

  it('falls back to LIKE for words shorter than a trigram on SQLite', () => {
    const result = compiled('sqlite', 'EV creta');
    expect(result?.sql).toContain('vehicles_fts MATCH ?');
    expect(result?.sql).toMatch(/search_text LIKE \? ESCAPE '\\'/);
    expect(result?.parameters).toEqual(['"creta"', '%ev%']);
  });

  it('uses LIKE for every word on PostgreSQL', () => {
    const result = compiled('postgres', 'Hyundai Creta ev');
    expect(result?.sql).not.toContain('vehicles_fts');
    expect(result?.sql.match(/"vehicles"\."search_text" LIKE \$\d+ ESCAPE '\\'/g)).toHaveLength(3);
    expect(result?.parameters).toEqual(['%hyundai%', '%creta%', '%ev%']);
  });

  it('escapes LIKE wildcards so they match only themselves', () => {
    expect(compiled('postgres', '100% a_b c\\d')?.parameters).toEqual(['%100\\%%', '%a\\_b%', '%c\\\\d%']);
    expect(compiled('sqlite', '% _')?.parameters).toEqual(['%\\%%', '%\\_%']);
  });

  it('quotes every FTS word so FTS operators and quotes are plain characters', () => {
    expect(compiled('sqlite', 'creta OR nexon')?.parameters).toEqual(['"creta" "nexon"', '%or%']);
    expect(compiled('sqlite', 'NEAR(ab) "creta"')?.parameters).toEqual(['"near(ab)" """creta"""']);
    expect(compiled('sqlite', "'x' OR 1=1 --")?.parameters).toEqual(['"\'x\'" "1=1"', '%or%', '%--%']);
  });

  it('passes what was typed as parameters, never as SQL text', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const result = compiled(dialect, "creta'; DROP TABLE vehicles; --");
      expect(result?.sql).not.toContain('DROP');
      expect(result?.sql).not.toContain('creta');
    }
  });
});
