import { AsyncLocalStorage } from 'node:async_hooks';
import { setLanguageSource } from '../app/lib/i18n/current.ts';
import { DEFAULT_LANGUAGE, type Language } from '../app/lib/i18n/language.ts';

/**
 * The language of the request being answered (decision 087): a page's from its URL, the app
 * API's from `Accept-Language`. Texts read anywhere while answering it (a page, a service's
 * error message, a mail queued for the visitor) come in that language; anything outside a
 * request (jobs, scripts, tests) reads English unless it names a language.
 */
const requestLanguage = new AsyncLocalStorage<Language>();
setLanguageSource(() => requestLanguage.getStore() ?? DEFAULT_LANGUAGE);

/** Runs `answer` with `language` as the language of everything it reads. */
export function inLanguage<T>(language: Language, answer: () => T): T {
  return requestLanguage.run(language, answer);
}
