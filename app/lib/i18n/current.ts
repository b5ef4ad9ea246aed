import { DEFAULT_LANGUAGE, languageOfPath, type Language } from './language.ts';

/**
 * The language texts are asked for in when no one says which. In the browser that is the page's
 * (its URL decides it, decision 087, and a switch loads the other language's page, so it never
 * changes under a running page). The server replaces this with the language of the request it
 * is answering (server/i18n.ts), so services and pages rendered for a Hindi page speak Hindi
 * without passing the language through every call.
 */
let source: () => Language = () => (typeof location === 'undefined' ? DEFAULT_LANGUAGE : languageOfPath(location.pathname));

export function currentLanguage(): Language {
  return source();
}

/** The server's hook: texts follow the request being answered. Returns the source it replaces. */
export function setLanguageSource(languageOfTheMoment: () => Language): () => Language {
  const replaced = source;
  source = languageOfTheMoment;
  return replaced;
}
