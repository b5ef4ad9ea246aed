import { describe, expect, it } from 'vitest';
import { editDistance, typosAllowed } from '../../app/lib/name-matching.ts';
import { correctedSearch, nearestModels, type Vocabulary } from '../../server/catalog/spelling.ts';

/** A catalogue of a few cars, as catalogueVocabulary builds it. */
function vocabularyOf(cars: Array<[make: string, model: string, fuel: string]>): Vocabulary {
  const words = new Map<string, string>();
  for (const word of cars.flatMap(([make, model, fuel]) => [make, ...model.split(' '), fuel]))
    if (!words.has(word.toLowerCase())) words.set(word.toLowerCase(), word);
  return { words, models: cars.map(([make, model]) => `${make} ${model}`).sort() };
}

const catalogue = vocabularyOf([
  ['Hyundai', 'Creta', 'Diesel'],
  ['Maruti Suzuki', 'Swift', 'Petrol'],
  ['Toyota', 'Innova Crysta', 'Diesel'],
  ['Toyota', 'Fortuner', 'Diesel'],
  ['Mahindra', 'Scorpio-N', 'Diesel'],
  ['Tata', 'Nexon', 'Electric'],
]);

describe('typos allowed by word length (Meilisearch’s default)', () => {
  it('none below five letters, one from five to eight, two from nine', () => {
    expect([typosAllowed('kwid'), typosAllowed('creta'), typosAllowed('fortuner'), typosAllowed('mahindraa')]).toEqual([0, 1, 1, 2]);
  });
});

describe('edit distance', () => {
  it('counts an insertion, a deletion, a substitution or two neighbours swapped as one', () => {
    expect(editDistance('cretta', 'creta', 2)).toBe(1);
    expect(editDistance('inova', 'innova', 2)).toBe(1);
    expect(editDistance('swfit', 'swift', 2)).toBe(1);
    expect(editDistance('crets', 'creta', 2)).toBe(1);
    expect(editDistance('fortunar', 'fortuner', 2)).toBe(1);
  });
  it('stops at the most it is asked about', () => {
    expect(editDistance('creta', 'fortuner', 1)).toBe(2);
    expect(editDistance('abcdefgh', 'hgfedcba', 2)).toBe(3);
    expect(editDistance('same', 'same', 0)).toBe(0);
  });
});

describe('a search corrected to the words of the catalogue', () => {
  it('replaces each unknown word by the catalogue word it is a typo of, written as the catalogue writes it', () => {
    expect(correctedSearch(['cretta'], catalogue)).toBe('Creta');
    expect(correctedSearch(['swfit'], catalogue)).toBe('Swift');
    expect(correctedSearch(['inova'], catalogue)).toBe('Innova');
    expect(correctedSearch(['hyundai', 'cretta'], catalogue)).toBe('hyundai Creta');
    expect(correctedSearch(['toyota', 'fortunar', 'deisel'], catalogue)).toBe('toyota Fortuner Diesel');
    expect(correctedSearch(['mahindraa'], catalogue)).toBe('Mahindra');
    expect(correctedSearch(['mahhindraa'], catalogue)).toBe('Mahindra');
  });
  it('leaves short words, words found in the catalogue and words too far from any alone', () => {
    expect(correctedSearch(['crta'], catalogue)).toBeNull();
    expect(correctedSearch(['cret'], catalogue)).toBeNull();
    expect(correctedSearch(['creta'], catalogue)).toBeNull();
    expect(correctedSearch(['lamborghini'], catalogue)).toBeNull();
    expect(correctedSearch(['cretaaa'], catalogue)).toBeNull();
  });
});

describe('the nearest models, when nothing matches', () => {
  it('offers models whose make or model is within half the word', () => {
    expect(nearestModels(['kretaa'], catalogue)).toEqual(['Hyundai Creta']);
    // Toyota one letter away first; Tata two away after.
    expect(nearestModels(['toyta'], catalogue)).toEqual(['Toyota Fortuner', 'Toyota Innova Crysta', 'Tata Nexon']);
    expect(nearestModels(['zzzzzz'], catalogue)).toEqual([]);
  });
});
