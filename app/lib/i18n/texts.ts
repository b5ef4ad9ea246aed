import i18next from 'i18next';
import { currentLanguage } from './current.ts';
import type { Language } from './language.ts';

/**
 * All of the product's texts in both languages (decision 087). i18next does the work a text
 * needs at the moment it is read: `{{name}}` values and plurals by each language's own rules
 * (Hindi's "one" covers 0 and 1). Texts live in namespaces, one JSON file per language each
 * (app/lib/i18n/en/*.json, app/lib/i18n/hi/*.json); a page imports only the namespaces it shows, so
 * its texts travel in its own script chunk and no page loads another page's texts.
 */
const i18n = i18next.createInstance();
void i18n.init({
  lng: 'en',
  fallbackLng: false,
  resources: {},
  // Loaded synchronously at import: a text is there the first time anyone reads it.
  initAsync: false,
  // Keys are plain names ('callDealer'); texts may hold '.' and ':' freely.
  keySeparator: false,
  nsSeparator: false,
  // React escapes what it renders; mails escape values themselves (server/notify).
  interpolation: { escapeValue: false },
  returnNull: false,
});

export type TextValues = Record<string, string | number | null | undefined>;

/** 'offers_one' | 'offers_other' → 'offers': a plural is asked for by its base key and a `count`. */
type BaseKey<Key> = Key extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : Key;

/**
 * One namespace of texts: its English and Hindi JSON, which must hold the same keys (TypeScript
 * checks that Hindi lacks none; tests/unit/translations.test.ts checks both ways). Returns the
 * namespace's `t`: `t('callDealer')`, `t('kmDriven', { km })`, `t('results', { count })`, in
 * the current language unless one is given (a mail goes in its reader's language).
 */
export function defineTexts<const English extends Record<string, string>>(namespace: string, english: English, hindi: { [Key in keyof English]: string }) {
  i18n.addResourceBundle('en', namespace, english, true, true);
  i18n.addResourceBundle('hi', namespace, hindi, true, true);
  // Keys are checked by this function's own type; i18next's typed keys would need every namespace declared to it at once.
  type Translate = (key: string, values?: TextValues) => string;
  const fixed = { en: i18n.getFixedT('en', namespace) as unknown as Translate, hi: i18n.getFixedT('hi', namespace) as unknown as Translate };
  return function t(key: BaseKey<keyof English & string>, values?: TextValues, language: Language = currentLanguage()): string {
    return fixed[language](key, values);
  };
}

export type Texts = ReturnType<typeof defineTexts>;
