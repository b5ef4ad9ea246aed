import type { Database } from '../db/connection.ts';
import { listedUnqualifiedSql } from './public-status.ts';
import { editDistance, typoDistance, typosAllowed } from '../../app/lib/name-matching.ts';

/**
 * Forgiving a buyer's spelling (issue 30): words typed as they are heard (`cretta`, `swfit`,
 * `inova`) are matched to the makes, models, variants and fuels of the cars for sale. The rule
 * and its matcher are app/lib/name-matching.ts's, shared with the sell page's car pickers. A
 * correction is only tried when the search as typed finds nothing, so exact matches always
 * come first (docs/decisions/079-typo-tolerant-search.md).
 */

/** The words the catalogue knows, lower-cased, each with how it is written ('creta' → 'Creta'), and its models by name. */
export type Vocabulary = { words: Map<string, string>; models: string[] };

/** Words worth matching: letters (and digits) only, 3 or more, so '1.5' and 'AT' stay out. */
const wordsOf = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 3 && /\p{L}/u.test(word));

/** A car's names as the vocabulary reads them. */
export type NamedCar = { make: string; model: string; variant: string; fuel_type: string };

/**
 * The vocabulary of these cars: their makes, models, variants and fuels (a few hundred words
 * even at 100,000 cars). Read in one order whatever gave the cars, so the listing index and
 * SQL pick the same word when two are equally near a typo.
 */
export function vocabularyOf(cars: Iterable<NamedCar>): Vocabulary {
  const distinct = new Map<string, NamedCar>();
  for (const car of cars) distinct.set([car.make, car.model, car.variant, car.fuel_type].join('\0'), car);
  const words = new Map<string, string>();
  const models = new Set<string>();
  for (const key of [...distinct.keys()].sort()) {
    const car = distinct.get(key)!;
    for (const word of [car.make, car.model, car.variant, car.fuel_type].flatMap(wordsOf)) {
      if (!words.has(word.toLowerCase())) words.set(word.toLowerCase(), word);
    }
    if (car.model.trim()) models.add(`${car.make} ${car.model}`.trim());
  }
  return { words, models: [...models].sort() };
}

/** The vocabulary of the cars for sale (the listing's own rule: not sold, not the rental fleet), read by SQL. */
export async function catalogueVocabulary(database: Database): Promise<Vocabulary> {
  return vocabularyOf(
    await database.db
      .selectFrom('vehicles')
      .where(listedUnqualifiedSql)
      .where('purpose', '=', 'sale')
      .select(['make', 'model', 'variant', 'fuel_type'])
      .distinct()
      .execute(),
  );
}

/** The catalogue word nearest to `term` within its allowed typos (the shorter distance, then the more common spelling by order), or null. */
function nearestWord(term: string, vocabulary: Vocabulary): string | null {
  let best: { word: string; distance: number } | null = null;
  for (const [lower, written] of vocabulary.words) {
    const distance = typoDistance(term, lower);
    if (distance !== null && (!best || distance < best.distance)) best = { word: written, distance };
  }
  return best?.word ?? null;
}

const WORD = /^[\p{L}\p{N}]+$/u;

/**
 * The search with each unknown word replaced by the catalogue word it is a typo of, or null
 * when nothing changes. A word that is part of a catalogue word ('cret') or shorter than five
 * letters is left as typed.
 */
export function correctedSearch(terms: string[], vocabulary: Vocabulary): string | null {
  let changed = false;
  const corrected = terms.map((term) => {
    // Only words: a term with other characters ('creta*', a quote, a NUL) is searched as the characters typed.
    if (!WORD.test(term) || typosAllowed(term) === 0 || [...vocabulary.words.keys()].some((word) => word.includes(term))) return term;
    const word = nearestWord(term, vocabulary);
    if (!word) return term;
    changed = true;
    return word;
  });
  return changed ? corrected.join(' ') : null;
}

/** For a search that finds nothing even corrected: up to `limit` models whose make or model is nearest to a word typed. */
export function nearestModels(terms: string[], vocabulary: Vocabulary, limit = 3): string[] {
  const scored: Array<{ model: string; distance: number }> = [];
  const words = terms.filter((term) => WORD.test(term));
  for (const model of vocabulary.models) {
    const parts = model.toLowerCase().split(/\s+/);
    let distance = Infinity;
    for (const term of words) {
      // Half the word's letters may differ: closer than that is a guess worth offering.
      const max = Math.max(1, Math.floor(term.length / 2));
      for (const part of parts) {
        const apart = editDistance(term, part, max);
        if (apart <= max) distance = Math.min(distance, apart);
      }
    }
    if (distance !== Infinity) scored.push({ model, distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance || a.model.localeCompare(b.model))
    .slice(0, limit)
    .map((entry) => entry.model);
}
