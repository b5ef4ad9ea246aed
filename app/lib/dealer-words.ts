/**
 * What the dealer typed into a car's record, as a Hindi page shows it (decision 101). The words
 * dealers type again and again ('Engine', 'Excellent', '1st Owner', 'Work Done', 'Hatchbacks')
 * are shown in Hindi when they are exactly one of dealerWords' English texts (case and spacing
 * aside), and 'Valid till Jul 2036' with its month in Hindi; anything else is the dealer's own
 * text, shown as typed and, when it is in Latin letters on a Hindi page, marked `lang="en"` so a
 * screen reader reads it in English and the Hindi walk counts it as data. English pages show
 * every text as typed.
 */
import { indiaDateFormat } from './format.ts';
import { currentLanguage } from './i18n/current.ts';
import { dealerWordsText as t } from './i18n/dealerWords.ts';
import en from './i18n/en/dealerWords.json' with { type: 'json' };
import { lastValidDay } from './validity.ts';

type WordKey = Exclude<keyof typeof en, 'validTill'>;

const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

let keysByWord: Map<string, WordKey> | null = null;

function keyOf(typed: string): WordKey | undefined {
  keysByWord ??= new Map(
    Object.entries(en)
      .filter(([key]) => key !== 'validTill')
      .map(([key, word]) => [normal(word), key as WordKey]),
  );
  return keysByWord.get(normal(typed));
}

/** A typed word in the page's language: its Hindi on a Hindi page when it is a known word, else as typed. */
export function dealerWord(typed: string): string {
  if (currentLanguage() === 'en') return typed;
  const key = keyOf(typed);
  return key ? t(key) : typed;
}

const monthYearFormat = indiaDateFormat({ month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A paper's validity as typed ('Valid till Jul 2036'): 'जुलाई 2036 तक वैध' on a Hindi page; any other text as dealerWord reads it. */
export function validityText(typed: string): string {
  if (currentLanguage() === 'en') return typed;
  const match = /^\s*valid\s+(?:till|until|upto|up to)\s+([a-z]{3,9}\.?\s+\d{4})\s*$/i.exec(typed);
  const last = match ? lastValidDay(match[1]) : null;
  return last ? t('validTill', { date: monthYearFormat.format(new Date(`${last}T00:00:00Z`)) }) : dealerWord(typed);
}

/**
 * `lang` for a text the dealer or a customer wrote, shown on a page: 'en' on a Hindi page when it
 * is written in Latin letters only (an English description, 'Full body polish'), else nothing.
 */
export function typedTextLanguage(text: string): 'en' | undefined {
  return currentLanguage() === 'hi' && /[A-Za-z]/.test(text) && !/[\u0900-\u097F]/.test(text) ? 'en' : undefined;
}
