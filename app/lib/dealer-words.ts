/**
 * What the dealer typed into a car's record, as a Hindi page shows it (decision 101). The words
 * dealers type again and again ('Engine', 'Excellent', '1st Owner', 'Work Done', 'Hatchbacks')
 * are shown in Hindi when they are exactly one of dealerWords' English texts (case and spacing
 * aside), and 'Valid till Jul 2036' with its month in Hindi; anything else is the dealer's own
 * text, shown as typed (app/components/typed-text.tsx marks it when it is English on a Hindi
 * page). English pages show every text as typed. Pages translate in their loaders, on the
 * server, and send the words they show: the table stays out of the car page's script.
 */
import { indiaDateFormat } from './format.ts';
import { currentLanguage } from './i18n/current.ts';
import { dealerWordsText as t } from './i18n/dealerWords.ts';
import en from './i18n/en/dealerWords.json' with { type: 'json' };
import { lastValidDay } from './validity.ts';
import type { Vehicle } from './vehicle.ts';

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

/** The words a car page shows in the page's language, each typed word to its Hindi: empty on an English page. */
export type ShownWords = Record<string, string>;

/** Every typed word of `vehicle` that a Hindi page says in Hindi, typed → shown. */
export function shownWordsOf(vehicle: Pick<Vehicle, 'owners' | 'fitnessFC' | 'categoryName' | 'inspection' | 'refurbishment' | 'financial'>): ShownWords {
  const shown: ShownWords = {};
  const say = (typed: string, words = dealerWord(typed)) => {
    if (words !== typed) shown[typed] = words;
  };
  say(vehicle.owners);
  say(vehicle.categoryName);
  say(vehicle.fitnessFC, validityText(vehicle.fitnessFC));
  for (const [item, status] of Object.entries(vehicle.inspection ?? {})) {
    say(item);
    say(status);
  }
  for (const label of [...Object.keys(vehicle.refurbishment ?? {}), ...Object.keys(vehicle.financial ?? {})]) say(label);
  return shown;
}
