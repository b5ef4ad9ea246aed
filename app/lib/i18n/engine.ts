import i18next from 'i18next';
import type { Language } from './language.ts';

/**
 * The text engine on the server: i18next (decision 087). Every text a page, a mail, an SMS or
 * an API answer is written with goes through it. The browser gets engine.browser.ts instead
 * (vite.config.ts swaps the module for the client build only, as it swaps React for Preact):
 * the same texts read by the same rules in a few hundred bytes, where i18next would cost every
 * first page load about 14 KB. tests/unit/text-engines.test.ts proves the two write every text
 * of every namespace alike, so a hydrated page reads exactly as the server wrote it.
 */

export type TextValues = Record<string, string | number | null | undefined>;
export type Translate = (key: string, values?: TextValues) => string;

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

export function addTexts(namespace: string, language: Language, texts: Record<string, string>): void {
  i18n.addResourceBundle(language, namespace, texts, true, true);
}

export function translator(namespace: string, language: Language): Translate {
  // Keys are checked by defineTexts's own type; i18next's typed keys would need every namespace declared to it at once.
  return i18n.getFixedT(language, namespace) as unknown as Translate;
}
