import { hasSessionCookie } from '../auth/session-cookie.ts';

/**
 * The Cache-Control of a server-rendered page that set none itself. Every page is revalidated
 * (`no-cache`): prices and availability change. A whole page rendered for a request without a
 * session and answered without a cookie is the same for every signed-out visitor, and says so
 * with `public`: the service worker keeps only such pages for offline reading (decision 085).
 * A page for a signed-in visitor, or one setting a cookie (a flash message, a refreshed
 * session), stays without it, so nothing about one person is kept on a device.
 */
export function documentCacheControl(request: Request, status: number, responseHeaders: Headers): string {
  const shared = status === 200 && !hasSessionCookie(request.headers.get('cookie') ?? '') && !responseHeaders.has('set-cookie');
  return shared ? 'public, no-cache' : 'no-cache';
}
