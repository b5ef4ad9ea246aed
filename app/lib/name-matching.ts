/**
 * The one typo-tolerant matcher of the site (decision 079, extended by decision 098): buyer
 * search corrects its words with it, and the sell page reads a seller's make, model and variant
 * with it, in the browser (the pickers) and on the server alike. The rule is Meilisearch's
 * default: no typo allowed in a word below 5 letters, one from 5 to 8, two from 9; a typo is an
 * insertion, a deletion, a substitution or two neighbours swapped.
 */

/** The typos allowed in a word of this length. */
export function typosAllowed(word: string): number {
  const letters = [...word].length;
  return letters < 5 ? 0 : letters < 9 ? 1 : 2;
}

/**
 * Optimal string alignment distance (Levenshtein with adjacent swaps), stopping early: any
 * answer above `max` is `max + 1`, so a long word is never compared letter by letter with
 * every word of the catalogue.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  let before = new Array<number>(cols).fill(0);
  let previous = Array.from({ length: cols }, (_, j) => j);
  for (let i = 1; i < rows; i++) {
    const current = new Array<number>(cols).fill(0);
    current[0] = i;
    let rowMin = current[0];
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[cols - 1]!, max + 1);
}

/** How many typos `term` is from `word` (both lower-case), or null when more than the term's allowance. */
export function typoDistance(term: string, word: string): number | null {
  const allowed = typosAllowed(term);
  const distance = term === word ? 0 : allowed === 0 ? allowed + 1 : editDistance(term, word, allowed);
  return distance <= allowed ? distance : null;
}

/**
 * A name as it is compared: lower-case, Latin accents and the Devanagari nukta dropped (ड़/ड,
 * फ़/फ are typed both ways), punctuation read as a space ('Scorpio-N', 'scorpio n').
 */
export function foldName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f\u093c]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim();
}

/** Whether the text holds Devanagari (a Hindi name). */
export const hasDevanagari = (text: string) => /[\u0900-\u097f]/.test(text);

/**
 * How near `typed` is to a thing known by `names` (its English and Hindi names, its id), lower
 * is nearer, or null when it is not near at all: 0 the same name ('wagon r' is 'WagonR'), 1 the
 * start of a name or one of its words ('maruti', 'suzuki'), then 2 + the typos of a name or of
 * one of its words ('hundai' → Hyundai, 'cretta' → Creta, 'क्रेता' → क्रेटा).
 */
export function nameDistance(typed: string, names: readonly string[]): number | null {
  const folded = foldName(typed);
  if (!folded) return null;
  const compact = folded.replace(/ /g, '');
  let best: number | null = null;
  for (const name of names) {
    const whole = foldName(name);
    if (!whole) continue;
    const wholeCompact = whole.replace(/ /g, '');
    if (wholeCompact === compact) return 0;
    const words = whole.split(' ');
    if (wholeCompact.startsWith(compact) || words.some((word) => word.startsWith(folded))) best = Math.min(best ?? 1, 1);
    for (const candidate of [wholeCompact, ...(words.length > 1 ? words : [])]) {
      const typos = typoDistance(compact, candidate);
      if (typos !== null) best = Math.min(best ?? Infinity, 2 + typos);
    }
  }
  return best;
}

/**
 * When nothing is near enough: how far `typed` is from the nearest of `names` with up to half its
 * letters different (a guess worth offering: "Did you mean…"), or null.
 */
export function looseDistance(typed: string, names: readonly string[]): number | null {
  const folded = foldName(typed).replace(/ /g, '');
  if (!folded) return null;
  const max = Math.max(1, Math.floor([...folded].length / 2));
  let best: number | null = null;
  for (const name of names) {
    const whole = foldName(name);
    for (const candidate of new Set([whole.replace(/ /g, ''), ...whole.split(' ')])) {
      const distance = editDistance(folded, candidate, max);
      if (distance <= max) best = Math.min(best ?? Infinity, distance);
    }
  }
  return best;
}

/** The things nearest to `typed` by nameDistance, nearest first, then in the list's order. */
export function rankByName<T>(typed: string, things: readonly T[], namesOf: (thing: T) => readonly string[]): T[] {
  return things
    .map((thing, position) => ({ thing, position, distance: nameDistance(typed, namesOf(thing)) }))
    .filter((entry): entry is { thing: T; position: number; distance: number } => entry.distance !== null)
    .sort((a, b) => a.distance - b.distance || a.position - b.position)
    .map((entry) => entry.thing);
}
