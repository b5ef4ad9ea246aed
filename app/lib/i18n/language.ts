/**
 * The site's languages and how a page's URL says which one it is in (decision 087): English
 * pages have no prefix (`/vehicle/53`), Hindi pages live under `/hi` (`/hi/vehicle/53`). The
 * URL alone decides a page's language, so a page (and the page cache's copy of it) is the same
 * for everyone who asks for that URL, and search engines find each language at its own address.
 */

export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/** The cookie that remembers the visitor's own choice from the language switch. */
export const LANGUAGE_COOKIE = 'lang';

/** `<html lang>`, `og:locale` and `hreflang`: Indian English and Hindi. */
export const LANGUAGE_TAGS: Record<Language, { html: string; og: string }> = {
  en: { html: 'en-IN', og: 'en_IN' },
  hi: { html: 'hi-IN', og: 'hi_IN' },
};

/** What the switch shows: each language named in itself. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी' };

/** The URL prefix of the Hindi pages, which React Router serves as their basename. */
export const HINDI_PREFIX = '/hi';

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'hi';
}

/** The language of the page at `pathname`: Hindi under `/hi`, else English. */
export function languageOfPath(pathname: string): Language {
  return pathname === HINDI_PREFIX || pathname.startsWith(`${HINDI_PREFIX}/`) ? 'hi' : 'en';
}

/** `pathname` without its language prefix: '/hi/vehicle/53' → '/vehicle/53', '/hi' → '/'. */
export function withoutLanguage(pathname: string): string {
  if (languageOfPath(pathname) === 'en') return pathname;
  return pathname.slice(HINDI_PREFIX.length) || '/';
}

/** The same page in `language`: '/vehicle/53' → '/hi/vehicle/53'; a query and hash are kept. */
export function pathInLanguage(path: string, language: Language): string {
  const split = path.search(/[?#]/);
  const pathname = split === -1 ? path : path.slice(0, split);
  const rest = split === -1 ? '' : path.slice(split);
  const bare = withoutLanguage(pathname);
  if (language === 'en') return bare + rest;
  return (bare === '/' ? HINDI_PREFIX : HINDI_PREFIX + bare) + rest;
}

/**
 * The language an `Accept-Language` header prefers of ours, or null when it names neither:
 * 'hi-IN,hi;q=0.9,en;q=0.8' → 'hi'; 'en-GB,en' → 'en'. Quality values decide, then order.
 */
export function preferredLanguage(header: string | null | undefined): Language | null {
  if (!header || header.length > 1000) return null;
  let best: { language: Language; quality: number } | null = null;
  for (const part of header.split(',')) {
    const [range = '', ...parameters] = part.trim().split(';');
    const primary = range.trim().toLowerCase().split('-')[0];
    if (!isLanguage(primary)) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    if (!Number.isFinite(quality) || quality <= 0) continue;
    if (!best || quality > best.quality) best = { language: primary, quality };
  }
  return best?.language ?? null;
}

/** The language remembered in the `lang` cookie of a Cookie header, or null. */
export function languageFromCookie(cookieHeader: string | null | undefined): Language | null {
  if (!cookieHeader) return null;
  const match = /(?:^|;\s*)lang=([a-z]{2})(?:;|$)/.exec(cookieHeader);
  return match && isLanguage(match[1]) ? match[1] : null;
}
