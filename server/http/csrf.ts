import type { MiddlewareHandler } from 'hono';
import { discardBody, DISCARD_LIMITS } from './body-limit.ts';
import { API_V1_PREFIX, hasBearerToken } from '../auth/session.ts';
import { edgeRefusal } from './problem.ts';
import { errorsText as t } from '../../app/lib/i18n/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery protection for every mutation: a state-changing request must come
 * from our own pages. Browsers send Origin on every POST (and Sec-Fetch-Site alongside it); a
 * form on another site carries that site's origin and is refused. Together with SameSite=Lax
 * session cookies this is the defence OWASP recommends for apps without third-party posts.
 */
export function csrfProtection(acceptedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(acceptedOrigins);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    // The Android app's requests (decision 074): a bearer token is no ambient credential, so a
    // forged request cannot carry it. Only on /api/v1, where a token counts, and only without
    // a cookie: a browser that sends its cookie along gets the check whatever else it sends.
    if (c.req.path.startsWith(API_V1_PREFIX) && hasBearerToken(c.req.raw) && !c.req.header('cookie')) return next();
    // The app before it has a token (signing up, signing in): no cookie, no Origin, no
    // Sec-Fetch-Site, as a client that is no browser sends. Every current browser sends Origin
    // with a post from another site, and without a cookie nothing rides anyone's session; the
    // API's sign-in answers a token in its body and sets no cookie, so nothing is planted either.
    if (c.req.path.startsWith(API_V1_PREFIX) && !c.req.header('cookie') && !c.req.header('origin') && !c.req.header('sec-fetch-site')) return next();
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    // Only the configured origins count (config.ts acceptedOrigins): the request's own URL is built from
    // the Host header, which the sender chooses, so 'Origin: http://evil.example' with 'Host: evil.example' matched it.
    const sameOrigin = origin ? allowed.has(origin) : fetchSite === 'same-origin';
    if (!sameOrigin) {
      // Read and drop what is still being sent first (decision 041): answering mid-upload and
      // closing resets the connection, which the sender sees as a failure (a proxy in front of
      // us turns it into a 502) instead of this refusal.
      if (c.req.raw.body) await discardBody(c.req.raw.body, DISCARD_LIMITS);
      const message = t('crossSite');
      return edgeRefusal(c, 403, message, {}, () => c.text(message, 403));
    }
    return next();
  };
}
