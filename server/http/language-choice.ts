import type { Context, MiddlewareHandler } from 'hono';
import {
  DEFAULT_LANGUAGE,
  languageFromCookie,
  languageOfPath,
  LANGUAGE_COOKIE,
  pathInLanguage,
  preferredLanguage,
  type Language,
} from '../../app/lib/i18n/language.ts';
import { inLanguage } from '../i18n.ts';

/**
 * Which language a request is answered in, and when an English address sends a visitor to the
 * Hindi page instead (decision 087).
 */

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The cookie the language switch sets: a preference, not a secret, but no script needs it either. */
export function languageCookie(language: Language, config: { siteOrigin: string }): string {
  const secure = config.siteOrigin.startsWith('https:') ? '; Secure' : '';
  return `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax; HttpOnly${secure}`;
}

/** The visitor's language when the address does not say: their own choice, else their browser's. */
export function visitorLanguage(cookieHeader: string | null | undefined, acceptLanguage: string | null | undefined): Language {
  return languageFromCookie(cookieHeader) ?? preferredLanguage(acceptLanguage) ?? DEFAULT_LANGUAGE;
}

/** Paths that are never pages: the API, files, media, React Router's data and manifest requests. */
function isPagePath(pathname: string): boolean {
  if (pathname.startsWith('/api/') || pathname.startsWith('/media/') || pathname.startsWith('/assets/')) return false;
  if (pathname.startsWith('/__manifest') || pathname.endsWith('.data')) return false;
  return !/\.[a-z0-9]+$/i.test(pathname);
}

/**
 * Where a page request to an English address goes instead when the visitor reads Hindi (chose
 * it, or their browser asks for it first), else null. Only document loads move: a Hindi address
 * is always answered in Hindi (it was asked for by name, as search engines do), and a form post,
 * an image or a data request is answered where it was sent.
 */
export function hindiAddressFor(request: { method: string; url: string; headers: { get(name: string): string | null } }): string | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  if (!(request.headers.get('accept') ?? '').includes('text/html')) return null;
  const url = new URL(request.url);
  if (languageOfPath(url.pathname) !== 'en' || !isPagePath(url.pathname)) return null;
  if (visitorLanguage(request.headers.get('cookie'), request.headers.get('accept-language')) !== 'hi') return null;
  return pathInLanguage(`${url.pathname}${url.search}`, 'hi');
}

/**
 * Sets the language of everything read while answering (server/i18n.ts): a page's is its
 * address's, the app API's is the one its `Accept-Language` prefers (else English).
 */
export function answerInRequestLanguage(): MiddlewareHandler {
  return (c: Context, next) => {
    const path = c.req.path;
    const language = path.startsWith('/api/') ? (preferredLanguage(c.req.header('accept-language')) ?? DEFAULT_LANGUAGE) : languageOfPath(path);
    return inLanguage(language, next);
  };
}

/** Sends a Hindi reader from an English page address to the Hindi page (see hindiAddressFor). */
export function sendHindiReadersToHindiPages(): MiddlewareHandler {
  return async (c, next) => {
    const hindi = hindiAddressFor(c.req.raw);
    // The English page itself carries no Vary: it is public but no-cache (document-caching.ts),
    // so every reuse asks this server again, which sends a Hindi reader on; and a Vary would keep
    // the service worker from ever matching the copy it stored (it stores pages by address).
    if (!hindi) return next();
    return c.body(null, 302, { Location: hindi, Vary: 'Accept-Language, Cookie', 'Cache-Control': 'no-store' });
  };
}
