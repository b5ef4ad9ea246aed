import type { Language } from './language.ts';

/**
 * The text engine, on the server and in the browser alike (decision 087): i18next's rules for
 * the texts we write, and nothing else. A plural is `key_zero` for a count of 0 when there is
 * one, else the count's CLDR category (`key_one`, `key_other`), else the key itself; a string
 * count is no count. Each `{{name}}` is its value (empty for null or undefined) when the values
 * name it, and stays as written when they do not. A missing text is its key.
 *
 * i18next itself is the reference, not the runtime: tests/unit/text-engines.test.ts runs every
 * key of every namespace through both and requires the same text. i18next cost about 14 KB on
 * every first load in the browser and about 5 ms of server CPU per render of the home page
 * (its `t` walks options, resolvers and regular expressions for each of a page's few hundred
 * texts); this reads a text in a map lookup.
 */

export type TextValues = Record<string, string | number | null | undefined>;
export type Translate = (key: string, values?: TextValues) => string;

const texts = new Map<string, Record<string, string>>();
const pluralRules = new Map<Language, Intl.PluralRules>();
const VALUE = /\{\{\s*([^{}]+?)\s*\}\}/g;

function rulesOf(language: Language): Intl.PluralRules {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules;
}

export function addTexts(namespace: string, language: Language, added: Record<string, string>): void {
  const name = `${language}:${namespace}`;
  texts.set(name, { ...texts.get(name), ...added });
}

export function translator(namespace: string, language: Language): Translate {
  const name = `${language}:${namespace}`;
  return (key: string, values?: TextValues) => {
    const own = texts.get(name) ?? {};
    const count = values?.count;
    let text: string | undefined;
    if (count !== undefined && typeof count !== 'string') {
      if (count === 0) text = own[`${key}_zero`];
      text ??= own[`${key}_${rulesOf(language).select(Number(count))}`];
    }
    text ??= own[key];
    if (text === undefined) return key;
    if (!values || !text.includes('{{')) return text;
    return text.replace(VALUE, (whole, value: string) => (value in values ? String(values[value] ?? '') : whole));
  };
}
