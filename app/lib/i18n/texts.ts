import { currentLanguage } from './current.ts';
import type { Language } from './language.ts';
import { addTexts, translator, type TextValues } from './engine.ts';

/**
 * All of the product's texts in both languages (decision 087). Texts live in namespaces, one
 * JSON file per language each: the shared ones in app/lib/i18n/{en,hi}/, a feature's own in
 * app/features/<feature>/texts/{en,hi}/ beside its `<namespace>-texts.ts` (decision 110); a page imports
 * only the namespaces it shows, so its texts travel in its own script chunk and no page loads
 * another page's texts. The engine (engine.ts: i18next on the server, its browser twin in the
 * browser) does the work a text needs when it is read: `{{value}}` values and plurals by each
 * language's own rules (Hindi's "one" covers 0 and 1).
 */

export type { TextValues };

/** 'offers_one' | 'offers_other' → 'offers': a plural is asked for by its base key and a `count`. */
type BaseKey<Key> = Key extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : Key;

/**
 * One namespace of texts: its English and Hindi JSON, which must hold the same keys (TypeScript
 * checks that Hindi lacks none; tests/unit/translations.test.ts checks both ways). Returns the
 * namespace's `t`: `t('callDealer')`, `t('kmDriven', { km })`, `t('results', { count })`, in
 * the current language unless one is given (a mail goes in its reader's language).
 */
export function defineTexts<const English extends Record<string, string>>(namespace: string, english: English, hindi: { [Key in keyof English]: string }) {
  addTexts(namespace, 'en', english);
  addTexts(namespace, 'hi', hindi);
  const fixed = { en: translator(namespace, 'en'), hi: translator(namespace, 'hi') };
  return function t(key: BaseKey<keyof English & string>, values?: TextValues, language: Language = currentLanguage()): string {
    return fixed[language](key, values);
  };
}

export type Texts = ReturnType<typeof defineTexts>;

/**
 * A table of texts whose every property reads its text when read, in the language of that
 * moment: `messages.notFound` on a Hindi page is Hindi. For tables that many callers read as
 * properties; `names` lists the keys, or maps each property to its key, or to its key and the
 * fixed values it is written with (`nameTooLong: ['nameTooLong', { max: 100 }]`); every key is
 * checked against the namespace.
 */
export function liveTexts<Key extends string, const Names extends readonly Key[] | Readonly<Record<string, Key | readonly [Key, TextValues]>>>(
  t: (key: Key, values?: TextValues) => string,
  names: Names,
): { readonly [Name in Names extends readonly Key[] ? Names[number] : keyof Names]: string } {
  const table = {};
  const entries: Array<[string, Key | readonly [Key, TextValues]]> = Array.isArray(names) ? names.map((name: Key) => [name, name]) : Object.entries(names);
  for (const [property, text] of entries) {
    const [key, values] = typeof text === 'string' ? [text, undefined] : text;
    Object.defineProperty(table, property, { get: () => t(key, values), enumerable: true });
  }
  return table as never;
}
