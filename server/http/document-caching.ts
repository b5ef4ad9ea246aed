import type { MiddlewareHandler } from 'hono';
import { hasSessionCookie } from '../auth/session-cookie.ts';
import { isSharedPageRequest } from './shared-pages.ts';

/**
 * The Cache-Control of what the pages answer. A page or data answer about one person (asked
 * with a session, or setting a cookie: a flash message, a new session) is `private, no-store`:
 * no shared cache keeps it and no device holds a copy. Every other page is revalidated
 * (`no-cache`): prices and availability change. A whole page rendered for a request without a
 * session and answered without a cookie is the same for every signed-out visitor, and says so
 * with `public`: the service worker keeps only such pages for offline reading (decision 085).
 * A shared page (shared-pages.ts, decision 127) is rendered for nobody, so its answer is that
 * page, `public`, even to a request with a session cookie: it holds nothing personal.
 */

export const PERSONAL_CACHE_CONTROL = 'private, no-store';

/**
 * Whether an answer is about one person: asked with a session cookie (but for a shared page,
 * whose loaders read no session), or setting a cookie.
 */
function isPersonal(request: Request, responseHeaders: Headers): boolean {
  if (responseHeaders.has('set-cookie')) return true;
  if (isSharedPageRequest(request)) return false;
  return hasSessionCookie(request.headers.get('cookie') ?? '');
}

/** The Cache-Control of a server-rendered page that set none itself (app/entry.server.tsx). */
export function documentCacheControl(request: Request, status: number, responseHeaders: Headers): string {
  if (isPersonal(request, responseHeaders)) return PERSONAL_CACHE_CONTROL;
  return status === 200 ? 'public, no-cache' : 'no-cache';
}

/**
 * Paths the pages answer for a person: documents, their `.data` requests and the resource routes
 * without a file name (a data download, a licence photo). Files (`/robots.txt`, the manifest)
 * and React Router's route manifest are the same for everyone.
 */
function isPersonalisablePath(pathname: string): boolean {
  if (pathname.startsWith('/__manifest')) return false;
  return pathname.endsWith('.data') || !/\.[a-z0-9]+$/i.test(pathname);
}

/**
 * Around the pages: whatever a page, a data request or a resource route set, its answer for a
 * signed-in person (or one setting a cookie) is `private, no-store`, so no route can forget it
 * (`/profile.data` carried no Cache-Control at all, the pages `no-cache` without `private`).
 */
export function personalAnswersUncached(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (isPersonalisablePath(c.req.path) && isPersonal(c.req.raw, c.res.headers)) c.header('Cache-Control', PERSONAL_CACHE_CONTROL);
  };
}
