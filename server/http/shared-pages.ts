import { withoutLanguage } from '../../app/lib/i18n/language.ts';
import { matchPattern, pathPatterns, paths } from '../../app/lib/paths.ts';
import { withoutTracking } from '../../app/lib/page-query.ts';
import { listingParameters } from '../../app/features/listing/schemas.ts';
import { calculatorParameters } from '../../app/features/emi/calculator.ts';
import { FLASH_COOKIE_NAME } from './flash.ts';

/**
 * Shared pages (decision 127): the public pages rendered for nobody. Whoever asks, signed in or
 * not, gets the same bytes, from the page cache (page-cache.ts) when it holds them; the person
 * (signed in, their name, their wishlist's hearts) is filled in by the browser after the page
 * loaded, from GET /api/v1/me/summary (app/components/use-personal.ts). Their loaders do not
 * read the session at all, so a page cannot hold anything of one person by mistake.
 *
 * The one exception is a request carrying a flash message (flash.ts): it belongs to one person
 * and is rendered for that request, uncached.
 */

/**
 * The pages that are the same for every visitor, each with the query parameters it reads
 * (declared beside the code that parses them, read through app/lib/page-query.ts).
 */
const SHARED_PAGES: ReadonlyArray<{ matches: (pathname: string) => boolean; parameters: readonly string[] }> = [
  { matches: (pathname) => pathname === paths.home || pathname === paths.categories(), parameters: listingParameters },
  { matches: (pathname) => pathname === paths.about || pathname === paths.contact || pathname === paths.getApp, parameters: [] },
  // Ids are digits: other vehicle paths are not-found pages, and keeping those would let junk URLs fill the cache.
  { matches: (pathname) => /^\d{1,12}$/.test(matchPattern(pathPatterns.vehicle, pathname)?.id ?? ''), parameters: calculatorParameters },
];

/**
 * The cache key of a page: its address without tracking parameters, exactly as written, so a
 * stored page is the render of that very address; null when the page is never shared: not a
 * page of SHARED_PAGES, or asked with a parameter it does not declare (decision 092).
 */
export function pageCacheKey(url: URL): string | null {
  // A Hindi page (/hi/…) is kept under its own address, beside the English one (decision 087).
  const page = SHARED_PAGES.find((candidate) => candidate.matches(withoutLanguage(url.pathname)));
  if (!page) return null;
  if (url.search === '') return url.pathname;
  const search = withoutTracking(url.search);
  for (const name of new URLSearchParams(search).keys()) if (!page.parameters.includes(name)) return null;
  return `${url.pathname}${search}`;
}

const FLASH_COOKIE_PATTERN = new RegExp(`(^|;\\s*)${FLASH_COOKIE_NAME}=`);

/** A Cookie header that carries a flash message for its page. */
export function hasFlashCookie(cookieHeader: string): boolean {
  return FLASH_COOKIE_PATTERN.test(cookieHeader);
}

/**
 * A page's address as its loaders see it: a client navigation's data request (`/vehicle/53.data?_routes=…`,
 * `/_.data` for the home page) stands for its page (`/vehicle/53`), as React Router reads it.
 */
function pageUrlOf(url: URL): URL {
  if (!url.pathname.endsWith('.data')) return url;
  const page = new URL(url);
  page.pathname = url.pathname.endsWith('/_.data') ? url.pathname.slice(0, -'_.data'.length) : url.pathname.slice(0, -'.data'.length);
  page.searchParams.delete('_routes');
  if (page.search === '?') page.search = '';
  return page;
}

/**
 * Whether a request asks for a shared page (a document or its client navigation's data): a GET
 * of a page the cache keys (pageCacheKey), without a flash message waiting for it. Its loaders read
 * no session and its answer is public, whatever cookies came with it.
 */
export function isSharedPageRequest(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  let url: URL;
  try {
    url = pageUrlOf(new URL(request.url));
  } catch {
    return false;
  }
  if (pageCacheKey(url) === null) return false;
  return !hasFlashCookie(request.headers.get('cookie') ?? '');
}
