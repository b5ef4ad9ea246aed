/**
 * What the service worker (pwa/sw.ts) may keep for a visitor with a weak signal, in one place
 * shared by the worker, the server and the tests (decision 085).
 */
import { withoutLanguage } from './i18n/language.ts';

/** The page a visitor gets for any page the device does not hold while offline. */
export const OFFLINE_PAGE = '/offline';

/** The worker script, served from the site root so its scope is the whole site. */
export const SERVICE_WORKER_PATH = '/sw.js';

export const WEB_MANIFEST_PATH = '/manifest.webmanifest';

/**
 * Pages that are the same for every signed-out visitor, the only pages the worker stores.
 * An allow-list: a page added later (an admin screen, a form, a page about one person) is
 * never kept on the device until someone decides it may be. The worker also needs the server
 * to say so for each answer (`Cache-Control: public`, given only to pages rendered without a
 * session: server/http/document-caching.ts).
 */
const SHARED_PAGES: readonly RegExp[] = [
  /^\/$/,
  /^\/categories$/,
  /^\/vehicle\/\d{1,12}$/,
  /^\/rent$/,
  /^\/rent\/terms$/,
  /^\/rent\/\d{1,12}$/,
  /^\/compare$/,
  /^\/about$/,
  /^\/contact$/,
  /^\/app$/,
  /^\/privacy$/,
];

export function isSharedPagePath(pathname: string): boolean {
  // The Hindi page of a shared page (/hi/vehicle/53) is as shared as the English one.
  const page = withoutLanguage(pathname);
  return SHARED_PAGES.some((pattern) => pattern.test(page));
}

/**
 * Whether an answer for a shared page may be kept on the device: a whole page (200) the server
 * marked public, so rendered for nobody in particular. `no-store` always wins.
 */
export function isShareableAnswer(status: number, cacheControl: string | null): boolean {
  if (status !== 200 || !cacheControl) return false;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim());
  return directives.includes('public') && !directives.includes('no-store') && !directives.includes('private');
}

/** Requests after which the pages on the device are dropped: signing out (the form's post, plain or by script). */
export function isSignOutRequest(method: string, pathname: string): boolean {
  return method === 'POST' && (pathname === '/logout' || pathname === '/logout.data');
}

/** The message a page sends the worker to keep a shared page it showed without loading it as a document. */
export const KEEP_PAGE_MESSAGE = 'keep-page';
